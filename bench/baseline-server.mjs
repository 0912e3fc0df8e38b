// The baseline: the least a Node server must do to sell a pass on PostgreSQL. Bare Fastify 5,
// no plugins, no logger, no validation, one INSERT of the same columns the shop stores, through a
// `pg` Pool of the shop's size. The shop's throughput is judged as a fraction of this floor on the
// same machine in the same run, which cancels out how fast the machine happens to be.
//
// With PAYMENT_DELAY_MS it waits that long before the INSERT, as the shop waits for its payment: the
// rush bench's floor (the same rush, the same 2 s, the least a server can do around them).
//
// Env: PORT, HOST, DATABASE_URL (required), DATABASE_POOL_SIZE (default 20), PAYMENT_DELAY_MS (default 0).
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 20) });
pool.on('error', () => {}); // an idle client losing its server must not kill the process
const paymentDelayMs = Number(process.env.PAYMENT_DELAY_MS ?? 0);

// A minimal table: the purchase columns, a surrogate key and nothing else (no unique order_id
// index, no outbox) so the baseline measures framework + driver + one round trip.
await pool.query(`create table if not exists purchases (
  id bigint generated always as identity primary key,
  name varchar(100) not null,
  email varchar(254) not null,
  event_name varchar(100) not null,
  amount integer not null,
  order_id varchar(10) not null
)`);

const app = Fastify({ logger: false });

app.get('/healthz', async () => {
  await pool.query('select 1');
  return { status: 'ok' };
});

app.post('/api/purchases', async (request, reply) => {
  const { name, email, eventName } = /** @type {{ name?: string, email?: string, eventName?: string }} */ (request.body ?? {});
  const orderId = randomBytes(5).toString('hex').toUpperCase();
  if (paymentDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, paymentDelayMs));
  const { rows } = await pool.query(
    'insert into purchases (name, email, event_name, amount, order_id) values ($1, $2, $3, $4, $5) returning id',
    [name, email, eventName, 300, orderId],
  );
  return reply.code(201).send({ pass: { id: orderId, rowId: rows[0].id, name, email, eventName, amount: 3 }, saved: true });
});

const shutdown = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

await app.listen({ port: Number(process.env.PORT ?? 3001), host: process.env.HOST ?? '127.0.0.1' });
