import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { column, type Db, queryRows, runStatement } from '../db/database.ts';

/** How long an export's outcome is kept: long enough for any page to read it. */
const KEEP_OUTCOMES = '1 day';
/** A running export whose heartbeat is older than this lost its instance (ADR 0012). */
export const HEARTBEAT_STALE_SECONDS = 30;

/**
 * Records a tracked export as running, for this admin; false when the id is taken already (a
 * page makes a fresh random id for each export). Outcomes older than a day are removed first, so
 * the table holds about a day of exports without a timer of its own.
 */
export async function startExportOutcome(db: Db, outcome: { id: string; userId: string; fileName: string }): Promise<boolean> {
  await runStatement(db, sql`delete from csv_exports where started_at < now() - ${KEEP_OUTCOMES}::interval`);
  const inserted = await runStatement(db, sql`
    insert into csv_exports (id, user_id, file_name) values (${outcome.id}, ${outcome.userId}, ${outcome.fileName})
    on conflict (id) do nothing
    returning id`);
  return inserted === 1;
}

/** Moves a running export's heartbeat on: its instance is still writing it. */
export async function touchExportOutcome(db: Db, id: string): Promise<void> {
  await runStatement(db, sql`update csv_exports set heartbeat_at = now() where id = ${id} and status = 'running'`);
}

/** Settles a running export: complete with the rows written, or failed. Settled once; later calls change nothing. */
export async function finishExportOutcome(db: Db, id: string, result: { status: 'complete'; rows: number } | { status: 'failed' }): Promise<void> {
  const rows = result.status === 'complete' ? result.rows : null;
  await runStatement(db, sql`
    update csv_exports set status = ${result.status}, rows = ${rows}, heartbeat_at = now()
    where id = ${id} and status = 'running'`);
}

const outcomeRow = z.object({
  status: z.enum(['running', 'complete', 'failed']),
  rows: column.integer.nullable(),
  fileName: z.string(),
});

export type ExportOutcome = z.output<typeof outcomeRow>;

/**
 * One export's outcome, if this admin started it; a running export whose heartbeat went stale
 * (its instance stopped mid-way) reads as failed.
 */
export async function exportOutcome(db: Db, id: string, userId: string): Promise<ExportOutcome | undefined> {
  const [row] = await queryRows(
    db,
    outcomeRow,
    sql`select case when status = 'running' and heartbeat_at < now() - make_interval(secs => ${HEARTBEAT_STALE_SECONDS})
                    then 'failed' else status end as status,
               rows, file_name as "fileName"
        from csv_exports where id = ${id} and user_id = ${userId}`,
  );
  return row;
}
