import { type Db } from '../db/database.ts';
import { insertStaffAction, selectStaffActions, type StaffActionRow } from './audit-log-queries.ts';
import type { StaffUser } from '../platform/staff-access.ts';
import type { PageCursor } from '../platform/page-cursor.ts';

/** Who the log names for the operator's `npm run admin` (grant and revoke from the machine itself). */
export const ADMIN_CLI_ACTOR = 'npm run admin';
/** Who the log names for a refund the shop settled after the void's request had answered (ADR 0030). */
export const REFUND_SETTLER_ACTOR = 'refund settler';

/**
 * Every action the audit log records (issue 13: who did what). Named `<thing>.<verb>` so the log
 * reads and filters by what was touched.
 */
export const STAFF_ACTIONS = [
  // Kept for entries written before ADR 0028; role changes now write staff.role.
  'admin.grant',
  'admin.revoke',
  'staff.role',
  'pass.void',
  'pass.refund',
  'pass.refund_refused',
  'mail.retry',
  'mail.resend',
  'event.create',
  'event.update',
  'event.delete',
  'check_in.conflict_resolved',
  'door.upload',
  'door.device_revoked',
  'buyer.export',
  'buyer.erase',
] as const;
export type StaffActionName = (typeof STAFF_ACTIONS)[number];

export type { StaffActionRow };

export interface StaffActionEntry {
  /** The signed-in staff member, ADMIN_CLI_ACTOR or REFUND_SETTLER_ACTOR. */
  actor: StaffUser | typeof ADMIN_CLI_ACTOR | typeof REFUND_SETTLER_ACTOR;
  action: StaffActionName;
  /** What was acted on: an email, a pass ID, an event ID, an outbox message ID. */
  subject: string;
  /** The action's own facts (a reason, the previous value); JSON, never a secret. */
  details?: Record<string, unknown>;
}

/**
 * Records one staff action. Call it with the transaction that makes the change, so the log holds
 * exactly the changes that happened (a rolled-back change leaves no entry).
 */
export async function recordStaffAction(db: Db, entry: StaffActionEntry): Promise<void> {
  const actor = typeof entry.actor === 'string' ? { id: null, email: entry.actor } : entry.actor;
  await insertStaffAction(db, {
    actorUserId: actor.id,
    actor: actor.email,
    action: entry.action,
    subject: entry.subject,
    details: entry.details ?? {},
  });
}

/** A page of the log, newest first, after the cursor a previous page gave out. */
export function listStaffActions(db: Db, page: { limit: number; after?: PageCursor | undefined }) {
  return selectStaffActions(db, page);
}
