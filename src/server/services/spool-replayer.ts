import type { FastifyBaseLogger } from 'fastify';
import { type Db, isDataError } from '../db/database.ts';
import { insertPurchase, isSamePurchase } from '../db/purchase-queries.ts';
import type { PurchaseSpool } from '../spool/purchase-spool.ts';
import type { IdempotencyStore } from './idempotency.ts';

export interface ReplayResult {
  stored: number;
  /** Records whose order ID belongs to another purchase, or whose data the database refuses: moved aside for staff. */
  quarantined: number;
  /** Records left because the database is still away. */
  waiting: number;
}

/**
 * Moves spooled purchases into the database. Safe to run again and from several processes:
 * a record already stored is recognised and only its file is removed. A record the database
 * refuses for its own data is moved aside, so it cannot block the records behind it; when the
 * database itself is away, the replay stops and every record waits for the next run.
 */
export async function replaySpool(deps: {
  db: Db;
  spool: PurchaseSpool;
  idempotency: IdempotencyStore;
  log: FastifyBaseLogger;
}): Promise<ReplayResult> {
  const result: ReplayResult = { stored: 0, quarantined: 0, waiting: 0 };
  const records = await deps.spool.list();
  for (const [index, record] of records.entries()) {
    try {
      const outcome = await insertPurchase(deps.db, record);
      if (outcome === 'order_id_taken' && !(await isSamePurchase(deps.db, record))) {
        deps.log.error({ orderId: record.pass.id }, 'spooled purchase has an order ID taken by another; quarantined');
        await deps.spool.quarantine(record.pass.id);
        result.quarantined++;
        continue;
      }
      await deps.spool.remove(record.pass.id);
      if (record.idempotency) deps.idempotency.forgetSpooled(record.idempotency.key);
      result.stored++;
    } catch (error) {
      if (isDataError(error)) {
        deps.log.error({ err: error, orderId: record.pass.id }, 'spooled purchase refused by the database; quarantined');
        await deps.spool.quarantine(record.pass.id);
        result.quarantined++;
        continue;
      }
      deps.log.warn({ err: error }, 'database still unavailable; spooled purchases wait');
      result.waiting = records.length - index;
      break;
    }
  }
  if (result.stored > 0) deps.log.info({ stored: result.stored }, 'spooled purchases stored');
  return result;
}
