import { ApiError } from '../errors.ts';

/**
 * Where the next page of a list starts (the one page shape, ADR 0010): the last row's time to the
 * microsecond (UTC, as to_char(... 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') prints it) and its id. Lists are
 * read by keyset on (time, id) descending, so every page is one index range scan.
 */
export interface PageCursor {
  at: string;
  id: number;
}

/** The format the query modules print a row's time in, for its cursor. */
export const CURSOR_TIME_FORMAT = `YYYY-MM-DD"T"HH24:MI:SS.US"Z"`;
const CURSOR_AT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{6}Z$/;

export function encodePageCursor(cursor: PageCursor): string {
  return Buffer.from(`${cursor.at}|${cursor.id}`).toString('base64url');
}

/** A page's `nextCursor`: its last row's, when the page is full (a shorter page is the last). */
export function nextCursor(next: PageCursor | null): string | null {
  return next ? encodePageCursor(next) : null;
}

/** Where the page after `rows` starts: the last row's cursor when the page came back full. */
export function nextPage<Row extends { cursorAt: string; id: number }>(rows: Row[], limit: number): PageCursor | null {
  const last = rows.at(-1);
  return rows.length === limit && last ? { at: last.cursorAt, id: last.id } : null;
}

/** The cursor a page gave out, or null for anything else: an impossible date or an id past the safe integers would reach PostgreSQL's cast and fail there. */
export function parsePageCursor(text: string): PageCursor | null {
  const [at, id, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !at || !id || !/^\d{1,15}$/.test(id)) return null;
  const parts = CURSOR_AT.exec(at);
  if (!parts) return null;
  // Date.UTC rolls 2026-02-30 over to March 2: a date that does not round-trip does not exist.
  const [year, month, day, hour, minute, second] = parts.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (year < 1 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  if (date.getUTCHours() !== hour || date.getUTCMinutes() !== minute || date.getUTCSeconds() !== second) return null;
  return { at, id: Number(id) };
}

/** A request's `cursor`: undefined for the first page, a 400 for one no page gave out. */
export function decodePageCursor(text: string | undefined): PageCursor | undefined {
  if (text === undefined || text === '') return undefined;
  const cursor = parsePageCursor(text);
  if (!cursor) throw new ApiError(400, 'invalid_request', 'cursor: not a cursor this list gave out');
  return cursor;
}
