import { sql } from 'drizzle-orm';
import { type Db } from '../db/database.ts';
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

export interface StaffActionRow {
  id: number;
  at: Date;
  actor: string;
  action: string;
  subject: string;
  details: Record<string, unknown>;
}

/** A page of the log, newest first; `before` is the last row of the previous page. */
export async function selectStaffActions(db: Db, { limit, before }: { limit: number; before?: { at: Date; id: number } }): Promise<StaffActionRow[]> {
  const rows = await db
    .select()
    .from(staffActions)
    .where(before ? sql`(${staffActions.at}, ${staffActions.id}) < (${before.at}, ${before.id})` : undefined)
    .orderBy(sql`${staffActions.at} desc, ${staffActions.id} desc`)
    .limit(limit);
  return rows.map((row) => ({ id: row.id, at: row.at, actor: row.actor, action: row.action, subject: row.subject, details: row.details as Record<string, unknown> }));
}
