// Keys retried during an outage: 20 purchases commit, then the database goes away, and each client
// sends its request again with the SAME key and body as if the first answer had been lost: first to
// the instance that sold it, then to the OTHER one. Then the database comes back and each client
// asks once more. A key must never yield a second purchase, and the pass the buyer finally holds
// (the last 201) must be stored.
import { buyUntilAnswered, createLedger, createPurchase } from '../lib/buyers.mjs';
import { finishOnPostgres } from '../lib/kit.mjs';
import { startMailSink } from '../lib/mail-sink.mjs';
import { createCluster } from '../lib/postgres-cluster.mjs';
import { createShop } from '../lib/shop.mjs';

export const name = 'retried-keys';
export const title = 'keys retried during a database outage, on the instance that sold and on the other';

const KEYS = 20;
/** While the database is away a client keeps trying each instance this long (it may get 503s). */
const OUTAGE_RETRY = { maxTries: 6, limitMs: 4_000 };
const AFTER_RETRY = { maxTries: 40, limitMs: 30_000 };

export async function run(ctx) {
  const cluster = await createCluster('keys');
  const sink = await startMailSink();
  const a = await createShop({ name: 'keys-a', databaseUrl: cluster.url, smtpUrl: sink.url });
  const b = await createShop({ name: 'keys-b', databaseUrl: cluster.url, smtpUrl: sink.url });
  try {
    await a.start();
    await b.start();
    const ledger = createLedger();
    const purchases = Array.from({ length: KEYS }, (_, i) => createPurchase('keys', i + 1));
    ledger.purchases.push(...purchases);
    const events = [];
    const eachKey = (work) => Promise.all(purchases.map(work));

    await eachKey((p) => buyUntilAnswered(ledger, p, () => [a.url], AFTER_RETRY));
    const first = new Map(purchases.map((p) => [p.key, p.acknowledged?.passId]));
    events.push(`${purchases.filter((p) => p.acknowledged).length}/${KEYS} bought on ${a.name} with the database up`);

    await cluster.stop();
    const outageAnswers = {};
    const tallyFrom = (from) => {
      for (const p of purchases) {
        for (const s of p.sends.slice(from.get(p.key))) {
          const label = s.status === undefined ? s.error : String(s.status);
          outageAnswers[label] = (outageAnswers[label] ?? 0) + 1;
        }
      }
    };
    const sendsBefore = new Map(purchases.map((p) => [p.key, p.sends.length]));
    // The first answers are "lost": the client sends again, to the same instance and then the other.
    await eachKey((p) => buyUntilAnswered(ledger, p, () => [a.url], OUTAGE_RETRY));
    await eachKey((p) => buyUntilAnswered(ledger, p, () => [b.url], OUTAGE_RETRY));
    tallyFrom(sendsBefore);
    const newPass = purchases.filter((p) => p.passIds.size > 1).length;
    events.push(`database down: retries answered ${Object.entries(outageAnswers).map(([s, n]) => `${s}:${n}`).join(' ')}; ${newPass} key(s) answered with a different pass`);

    await cluster.start();
    await eachKey((p) => buyUntilAnswered(ledger, p, () => [b.url, a.url], AFTER_RETRY));
    const kept = purchases.filter((p) => p.acknowledged && p.acknowledged.passId === first.get(p.key)).length;
    events.push(`database back: ${kept}/${KEYS} keys answer with the pass first sold`);
    events.forEach((e) => ctx.log(e));
    const since = performance.now();
    ctx.loadFinished();
    const figures = await finishOnPostgres(ctx, { cluster, shops: [a, b], sink, ledger, since });
    return { ...figures, events, outageAnswers, keysAnsweredWithAnotherPass: newPass, checks: [] };
  } finally {
    ctx.keepOutput([a, b]);
    await a.destroy();
    await b.destroy();
    await sink.shutdown();
    await cluster.destroy();
  }
}
