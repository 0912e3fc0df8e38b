import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { column, type Db, queryRows } from '../db/database.ts';
import { CURSOR_TIME_FORMAT, nextPage, type PageCursor } from '../platform/page-cursor.ts';
import { staffActions } from '../db/schema.ts';

export interface StaffActionValues {
  actorUserId: string | null;
  actor: string;
  action: string;
  subject: string;
  details: Record<string, unknown>;
}

export async function insertStaffAction(db: Db, values: StaffActionValues): Promise<void> {
  await db.insert(staffActions).values(values);
}

const staffActionRow = z.object({
  id: column.integer,
  at: column.isoTimestamp,
  actor: z.string(),
  action: z.string(),
  subject: z.string(),
  details: z.preprocess((value) => (typeof value === 'string' ? JSON.parse(value) : value), z.record(z.string(), z.unknown())),
  /** `at` to the microsecond, as the cursor carries it (a Date would round it to the millisecond and skip rows). */
  cursorAt: z.string(),
});

export type StaffActionRow = Omit<z.output<typeof staffActionRow>, 'cursorAt'>;

/** The query behind one page; exported so a test can check its plan reads the (at, id) index in order. */
export function staffActionsPageQuery({ limit, after }: { limit: number; after?: PageCursor | undefined }): SQL {
  const from = after ? sql`(at, id) < (${after.at}::timestamptz, ${after.id})` : sql`true`;
  return sql`select id, at, actor, action, subject, details, to_char(at at time zone 'UTC', ${CURSOR_TIME_FORMAT}) as "cursorAt"
             from staff_actions
             where ${from}
             order by at desc, id desc
             limit ${limit}`;
}

/** A page of the log, newest first, by keyset on (at, id). */
export async function selectStaffActions(
  db: Db,
  options: { limit: number; after?: PageCursor | undefined },
): Promise<{ items: StaffActionRow[]; next: PageCursor | null }> {
  const rows = await queryRows(db, staffActionRow, staffActionsPageQuery(options));
  return { items: rows.map(({ cursorAt: _cursorAt, ...row }) => row), next: nextPage(rows, options.limit) };
}
