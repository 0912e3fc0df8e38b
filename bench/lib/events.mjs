// A staff event with a capacity, made the way staff make one (an admin session, POST
// /api/admin/events), for the benches and chaos scenarios that sell a capped event. The event is
// dated weeks ahead with no sales window set, so it is on sale from the moment it is listed.
import { adminCookie } from './admin-session.mjs';
import { query } from './pg-admin.mjs';

const ADMIN = { email: 'bench-events-admin@example.com', password: 'bench events admin password' };

/** YYYY-MM-DD `days` from now (UTC; weeks ahead, so the shop's time zone cannot make it today). */
function dayAhead(days) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Creates an event on `server` (anything with `url`) whose database is `databaseUrl` (the admin
 * sign-up's verification link is read from its outbox). Returns the event as the API answered it.
 * @param {{ url: string }} server
 * @param {string} databaseUrl
 * @param {{ title: string, capacity: number | null, price?: string }} event
 */
export async function createEvent(server, databaseUrl, { title, capacity, price = '3' }) {
  const cookie = await adminCookie(server, databaseUrl, ADMIN);
  const response = await fetch(`${server.url}/api/admin/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url, cookie },
    body: JSON.stringify({ title, date: dayAhead(60), time: '20:00', location: 'Bench Arena', price, capacity }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`creating the event failed: ${response.status} ${text}`);
  const created = JSON.parse(text);
  if (capacity !== null && created.capacity !== capacity) {
    throw new Error(`the shop ignored the capacity (asked ${capacity}, got ${created.capacity}): is issue 22's server on this build?`);
  }
  return created;
}

/**
 * What the database holds for one event: passes stored for it, those of them voided, and the
 * event's own count of places taken (sold or held).
 */
export async function eventSales(databaseUrl, eventId) {
  const [row] = await query(
    databaseUrl,
    `select
       (select count(*)::int from purchases p where p.event_id = $1) as stored,
       (select count(*)::int from purchases p join pass_voids v on v.order_id = p.order_id where p.event_id = $1) as voided,
       (select taken from events where id = $1) as taken,
       (select capacity from events where id = $1) as capacity`,
    [eventId],
  );
  return row;
}
