import { PASS_ID_PATTERN } from '../../../core/constants.ts';
import { codeInLink } from '../../../core/pass-code-format.ts';

/**
 * What the door sends for a scanned or typed code: the code in a pass page link
 * (`…/pass/ID.signature`), or the text itself (a bare signed code, or a pass ID typed by
 * hand, upper-cased). The server makes the decision; this only trims what it is sent.
 */
export function codeFromText(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return '';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    try {
      // A link with no code (some other QR) goes as it is: the server answers "invalid".
      return codeInLink(new URL(trimmed)) ?? trimmed;
    } catch {
      return trimmed;
    }
  }
  const compact = trimmed.replace(/[\s-]/g, '');
  return PASS_ID_PATTERN.test(compact.toUpperCase()) ? compact.toUpperCase() : trimmed;
}

/** The pass ID a code names, when it names one ("ABCDEF0123.sig" -> "ABCDEF0123"); for showing only. */
export function passIdOf(code: string): string | null {
  const id = codeFromText(code).split('.')[0]?.toUpperCase() ?? '';
  return PASS_ID_PATTERN.test(id) ? id : null;
}

/**
 * Whether staff typed a bare pass ID rather than scanning a signed code. A typed ID carries no
 * signature: the server only finds it among the passes sold, so the name is what staff check.
 */
export function isTypedId(code: string): boolean {
  return PASS_ID_PATTERN.test(codeFromText(code));
}

/**
 * Which event the door admits to: the one asked for in the link (`?event=`), else the one this
 * device remembered, else the only event there is. Never an event that does not exist.
 */
export function chooseEventId(
  eventIds: readonly number[],
  { fromLink, remembered }: { fromLink: string | null; remembered: string | null },
): number | null {
  for (const candidate of [fromLink, remembered]) {
    const id = Number(candidate);
    if (candidate && Number.isInteger(id) && eventIds.includes(id)) return id;
  }
  return eventIds.length === 1 ? eventIds[0]! : null;
}
