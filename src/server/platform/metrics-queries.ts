import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { column, queryRows, type Db } from '../db/database.ts';

const shopFigures = z.object({
  pending: column.integer,
  failed: column.integer,
  oldest_pending_seconds: z.coerce.number().nullable(),
  check_ins: column.integer,
});

/**
 * What /metrics reads from the database at each scrape: the mail outbox's backlog (pending and
 * failed rows are few and each has a partial index) and the check-ins recorded.
 */
export async function shopFiguresForMetrics(db: Db) {
  const [row] = await queryRows(
    db,
    shopFigures,
    sql`select
      (select count(*) from outbox where status = 'pending') as pending,
      (select count(*) from outbox where status = 'failed') as failed,
      (select extract(epoch from now() - min(created_at)) from outbox where status = 'pending') as oldest_pending_seconds,
      (select count(*) from check_ins) as check_ins`,
  );
  return row!;
}
