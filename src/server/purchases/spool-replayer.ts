import type { FastifyBaseLogger } from 'fastify';
import { type Db, isDataError } from '../db/database.ts';
import { insertPurchase, isSamePurchase } from './purchase-queries.ts';
import type { PurchaseRecord } from './purchase-record.ts';
import { databaseRefusal, recordQuarantine } from './quarantine-queries.ts';
import type { HeldPurchaseReason } from '../../core/held-purchases.ts';
import type { PurchaseSpool } from './purchase-spool.ts';
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
  /**
   * The buyer holds this pass, so it is never set aside silently: staff see it in the admin panel
   * (recorded first; if that fails the file stays and the next replay tries again), and the file
   * moves to spool/conflicts/ as the durable copy, which /healthz counts.
   */
  const quarantine = async (record: PurchaseRecord, reason: HeldPurchaseReason, error?: unknown) => {
    // The database's own words and SQLSTATE, never the whole statement (it holds the buyer's data).
    const detail = databaseRefusal(error);
    await recordQuarantine(deps.db, { orderId: record.pass.id, reason, detail, record });
    deps.log.error({ orderId: record.pass.id, reason, ...(detail ? { detail } : {}) }, 'spooled purchase set aside for staff (admin panel: held purchases)');
    await deps.spool.quarantine(record.pass.id);
    result.quarantined++;
  };
  const records = await deps.spool.list();
  for (const [index, record] of records.entries()) {
    try {
      const outcome = await insertPurchase(deps.db, record);
      if (outcome === 'order_id_taken' && !(await isSamePurchase(deps.db, record))) {
        await quarantine(record, 'order_id_taken');
        continue;
      }
      await deps.spool.remove(record.pass.id);
      if (record.idempotency) deps.idempotency.forgetSpooled(record.idempotency.key);
      result.stored++;
    } catch (caught) {
      let error = caught;
      if (isDataError(error)) {
        try {
          await quarantine(record, 'refused_by_database', error);
          continue;
        } catch (recording) {
          error = recording;
        }
      }
      deps.log.warn({ err: error }, 'database still unavailable; spooled purchases wait');
      result.waiting = records.length - index;
      break;
    }
  }
  if (result.stored > 0) deps.log.info({ stored: result.stored }, 'spooled purchases stored');
  return result;
}
