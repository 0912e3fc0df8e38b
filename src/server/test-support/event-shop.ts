import { beforeEach } from 'vitest';
import type { AppOptions } from '../app.ts';
import { staffSession } from './staff.ts';
import { shopPerTest } from './test-app.ts';
import type { TestBackend } from './test-databases.ts';

export const derby = { title: 'City Derby', date: '2037-12-05', time: '19:30', location: 'Riverside Stadium', price: '12.50' };
/** A home-flow buyer whose event name is no listed event's title: SPEC's pass for any event. */
export const buyer = { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'Sunday League' };

/**
 * The shop the event and check-in tests share (shopPerTest in the calling describe block): shop time
 * zone New York, signed passes, and an admin signed in before each test, with helpers to call it.
 */
export function eventShopPerTest(backend: TestBackend, options: Partial<AppOptions> = {}) {
  const t = shopPerTest(
    backend,
    {
      SHOP_TIMEZONE: 'America/New_York',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      PUBLIC_URL: 'http://shop.test',
    },
    options,
  );
  let admin = '';
  beforeEach(async () => {
    admin = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, cookie = admin) =>
    t.shop.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const createEvent = async (input: object = derby) => (await call('POST', '/api/admin/events', input)).json();
  const buy = async (payload: object = buyer) => (await t.shop.app.inject({ method: 'POST', url: '/api/purchases', payload })).json();
  const checkIn = (eventId: number, code: string, cookie = admin) => call('POST', '/api/admin/check-ins', { eventId, code }, cookie);
  return { t, call, createEvent, buy, checkIn };
}
