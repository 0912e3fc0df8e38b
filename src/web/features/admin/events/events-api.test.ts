import { describe, expect, it } from 'vitest';
import { formFromEvent, passesSummary, saveEvent } from './events-api.ts';

const derby = {
  ...{ id: 7, title: 'City Derby', date: '2026-12-12', time: '19:30', location: 'Riverside Park', priceCents: 1250 },
  ...{ capacity: null, left: null, salesOpen: null, salesClose: null, sales: 'on_sale' as const, sold: 120, checkIns: 37 },
};
const form = { title: 'City Derby', date: '2026-12-12', time: '19:30', location: 'Riverside Park', price: '12.50', capacity: '', salesOpen: '', salesClose: '' };

function server(status: number, body: unknown) {
  const asked: { url: string; method: string; body: unknown }[] = [];
  const fetch: typeof globalThis.fetch = async (url, init) => {
    asked.push({ url: String(url), method: init?.method ?? 'GET', body: JSON.parse(String(init?.body)) });
    return new Response(JSON.stringify(body), { status });
  };
  return { fetch, asked };
}

describe('saveEvent', () => {
  it('creates with POST and edits with PUT, sending the price, capacity and sales window as typed', async () => {
    const created = server(201, derby);
    expect(await saveEvent(null, form, { fetch: created.fetch })).toEqual({ ok: true, data: derby });
    expect(created.asked).toEqual([{ url: '/api/admin/events', method: 'POST', body: form }]);

    const edited = server(200, derby);
    const capped = { ...form, capacity: '500', salesOpen: '2026-12-01T18:00', salesClose: '2026-12-12T19:00' };
    await saveEvent(7, capped, { fetch: edited.fetch });
    expect(edited.asked).toEqual([{ url: '/api/admin/events/7', method: 'PUT', body: capped }]);
  });

  it("passes on the server's refusal", async () => {
    const refused = server(400, { error: { code: 'validation_failed', message: 'Price must be an amount from 0.00 to 1000.00' } });
    expect(await saveEvent(null, form, { fetch: refused.fetch })).toEqual({
      ok: false,
      kind: 'server',
      status: 400,
      code: 'validation_failed',
      message: 'Price must be an amount from 0.00 to 1000.00',
    });
  });
});

describe('formFromEvent', () => {
  it('shows the price in dollars as staff would type it', () => {
    expect(formFromEvent(derby)).toEqual(form);
    expect(formFromEvent({ ...derby, priceCents: 300 }).price).toBe('3');
    expect(formFromEvent({ ...derby, priceCents: 5 }).price).toBe('0.05');
  });

  it('shows no capacity and no sales window as empty fields, and a set one as stored', () => {
    expect(formFromEvent({ ...derby, capacity: 500, salesOpen: '2026-12-01T18:00', salesClose: '2026-12-12T19:00' })).toEqual({
      ...form,
      capacity: '500',
      salesOpen: '2026-12-01T18:00',
      salesClose: '2026-12-12T19:00',
    });
  });
});

describe('passesSummary', () => {
  it('gives sold against capacity and the check-ins, or sold alone with no capacity', () => {
    expect(passesSummary({ sold: 120, capacity: 500, checkIns: 37 })).toBe('120 / 500 sold, 37 checked in');
    expect(passesSummary({ sold: 120, capacity: null, checkIns: 0 })).toBe('120 sold, 0 checked in');
  });
});
