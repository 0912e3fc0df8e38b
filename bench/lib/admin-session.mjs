// A verified staff account with the admin role, for benches that read admin pages.
import { query } from './pg-admin.mjs';

/**
 * Signs up (once per database), confirms the email through the link the outbox holds, grants the
 * admin role in SQL and signs in through the shop. Returns the Cookie header of that session.
 */
export async function adminCookie(server, url, { email, password }) {
  const post = (path, body) =>
    fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify(body) });
  const [existing] = await query(url, 'select 1 from auth_users where email = $1', [email]);
  if (!existing) {
    const signUp = await post('/api/auth/sign-up/email', { email, password, name: email });
    if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
    const [mail] = await query(url, `select payload->>'url' as link from outbox where kind = 'account_verification' and recipient = $1`, [email]);
    const verified = await fetch(mail.link.replace(/^https?:\/\/[^/]+/, server.url), { redirect: 'manual' });
    if (verified.status >= 400) throw new Error(`verification failed: ${verified.status}`);
    await query(url, `insert into profiles (user_id, role) select id, 'admin' from auth_users where email = $1`, [email]);
  }
  const signIn = await post('/api/auth/sign-in/email', { email, password });
  if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  return signIn.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ');
}
