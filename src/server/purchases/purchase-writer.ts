import { type Db, isConflictCancelled, isDataError } from '../db/database.ts';
import { insertPurchases } from './purchase-queries.ts';
import type { PurchaseRecord } from './purchase-record.ts';

/** Purchases in one statement at most; keeps statements and their JSON parameter modest. */
const MAX_BATCH = 200;
/** Statements in flight at once: enough to keep a few pool connections busy. */
const MAX_IN_FLIGHT = 4;
/** Runs of one statement that PostgreSQL cancels to break a deadlock, before its purchases go to the spool. */
const MAX_ATTEMPTS = 3;

interface Pending {
  record: PurchaseRecord;
  resolve: (outcome: 'inserted' | 'order_id_taken') => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for purchases. A purchase is written at once when the database is idle; while
 * statements are in flight, the purchases that arrive meanwhile wait and go together in the next
 * one. In a rush that turns a thousand inserts and commits into a handful, with no added delay
 * when it is quiet. Each purchase still gets its own outcome (or the batch's error).
 */
export function purchaseWriter(db: Db) {
  const queue: Pending[] = [];
  let inFlight = 0;
  let scheduled = false;

  function takeBatch(): Pending[] {
    const batch: Pending[] = [];
    const ids = new Set<string>();
    for (let index = 0; index < queue.length && batch.length < MAX_BATCH; ) {
      const item = queue[index]!;
      // Two purchases drawn the same ID (once in 10^12) go in separate statements.
      if (ids.has(item.record.pass.id)) {
        index++;
        continue;
      }
      ids.add(item.record.pass.id);
      batch.push(item);
      queue.splice(index, 1);
    }
    return batch;
  }

  /** Writes one statement and gives each purchase its outcome; never rejects. */
  async function send(batch: Pending[], attempt = 1): Promise<void> {
    let stored: Set<string>;
    try {
      stored = await insertPurchases(
        db,
        batch.map((item) => item.record),
      );
    } catch (error) {
      // A deadlock's victim wrote nothing and holds nothing now: at once again, not to the spool.
      if (isConflictCancelled(error) && attempt < MAX_ATTEMPTS) {
        await send(batch, attempt + 1);
        return;
      }
      // Data the database refuses (a NUL, a broken date) fails the whole statement: the others
      // that shared it are written on their own, so only the bad purchase fails and is spooled.
      if (batch.length > 1 && isDataError(error)) {
        await Promise.all(batch.map((item) => send([item])));
      } else {
        batch.forEach((item) => item.reject(error));
      }
      return;
    }
    batch.forEach((item) => item.resolve(stored.has(item.record.pass.id) ? 'inserted' : 'order_id_taken'));
  }

  async function flush(): Promise<void> {
    scheduled = false;
    while (queue.length > 0 && inFlight < MAX_IN_FLIGHT) {
      const batch = takeBatch();
      inFlight++;
      void send(batch).finally(() => {
        inFlight--;
        void flush();
      });
    }
  }

  return {
    write(record: PurchaseRecord): Promise<'inserted' | 'order_id_taken'> {
      return new Promise((resolve, reject) => {
        queue.push({ record, resolve, reject });
        // Purchases whose payments finish in the same turn of the event loop share a statement.
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => void flush());
        }
      });
    },
  };
}

export type PurchaseWriter = ReturnType<typeof purchaseWriter>;
