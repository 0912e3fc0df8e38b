import { describe, expect, it } from 'vitest';
import { chooseEventId, codeFromText, isTypedId, passIdOf, shopLocalNow } from './check-in-code.ts';

const signed = 'ABCDEF0123.abcdefghijklmnopqrstuv';

describe('codeFromText', () => {
  it('takes the code out of a scanned verification link', () => {
    expect(codeFromText(`https://shop.example/pass/${signed}`)).toBe(signed);
    expect(codeFromText(`  http://127.0.0.1:3100/pass/${encodeURIComponent(signed)}?x=1 `)).toBe(signed);
  });

  it('sends a link without a code, or any other text, as it is (the server says invalid)', () => {
    expect(codeFromText('https://example.com/menu')).toBe('https://example.com/menu');
    expect(codeFromText('hello world')).toBe('hello world');
    expect(codeFromText('   ')).toBe('');
  });

  it('tidies a typed pass ID: upper case, no spaces or dashes', () => {
    expect(codeFromText(' abcdef0123 ')).toBe('ABCDEF0123');
    expect(codeFromText('ABCDE F0123')).toBe('ABCDEF0123');
    expect(codeFromText('abcde-f0123')).toBe('ABCDEF0123');
    expect(codeFromText(signed)).toBe(signed);
  });
});

describe('passIdOf', () => {
  it('names the pass a code is for, when it names one', () => {
    expect(passIdOf(signed)).toBe('ABCDEF0123');
    expect(passIdOf(`https://shop.example/pass/${signed}`)).toBe('ABCDEF0123');
    expect(passIdOf('abcdef0123')).toBe('ABCDEF0123');
    expect(passIdOf('not a pass')).toBeNull();
  });
});

describe('chooseEventId', () => {
  const at = (id: number, date = '2026-11-20', time = '19:30') => ({ id, date, time });
  const events = [at(1), at(2), at(3)];
  const now = '2026-11-27T10:00';

  it('prefers the event in the link, then the remembered one, then the only one', () => {
    expect(chooseEventId(events, { fromLink: '2', remembered: '3', now })).toBe(2);
    expect(chooseEventId(events, { fromLink: null, remembered: '3', now })).toBe(3);
    expect(chooseEventId(events, { fromLink: '99', remembered: '1', now })).toBe(1);
    expect(chooseEventId([at(5)], { fromLink: null, remembered: null, now })).toBe(5);
  });

  it('never picks an event that does not exist, and asks when there is a choice and none is today', () => {
    expect(chooseEventId([at(1), at(2)], { fromLink: 'abc', remembered: '7', now })).toBeNull();
    expect(chooseEventId([], { fromLink: '1', remembered: '1', now })).toBeNull();
    expect(chooseEventId([at(1), at(2)], { fromLink: '1.5', remembered: '', now })).toBeNull();
  });

  it("preselects today's event when nothing was chosen on this device, or its choice is not today's", () => {
    const today = [at(1, '2026-11-26'), at(2, '2026-11-27', '19:30'), at(3, '2026-11-28')];
    expect(chooseEventId(today, { fromLink: null, remembered: null, now })).toBe(2);
    expect(chooseEventId(today, { fromLink: null, remembered: '1', now })).toBe(2);
    // The link still wins, and a remembered choice of today's event stays.
    expect(chooseEventId(today, { fromLink: '3', remembered: '1', now })).toBe(3);
    expect(chooseEventId([...today, at(4, '2026-11-27', '21:00')], { fromLink: null, remembered: '4', now })).toBe(4);
  });

  it('of several today, picks the next to start, and the last started once all have', () => {
    const day = [at(1, '2026-11-27', '21:00'), at(2, '2026-11-27', '09:00'), at(3, '2026-11-27', '14:00')];
    expect(chooseEventId(day, { fromLink: null, remembered: null, now: '2026-11-27T10:00' })).toBe(3);
    expect(chooseEventId(day, { fromLink: null, remembered: null, now: '2026-11-27T08:00' })).toBe(2);
    expect(chooseEventId(day, { fromLink: null, remembered: null, now: '2026-11-27T21:00' })).toBe(1);
    expect(chooseEventId(day, { fromLink: null, remembered: null, now: '2026-11-27T23:30' })).toBe(1);
  });
});

describe('shopLocalNow', () => {
  it("reads the moment on the shop's clock, whatever the device's zone", () => {
    const moment = new Date('2026-11-27T23:30:00Z');
    expect(shopLocalNow('UTC', moment)).toBe('2026-11-27T23:30');
    expect(shopLocalNow('Europe/Paris', moment)).toBe('2026-11-28T00:30');
    expect(shopLocalNow('America/New_York', moment)).toBe('2026-11-27T18:30');
  });

  it("falls back on the device's zone for a zone it does not know", () => {
    expect(shopLocalNow('Not/AZone', new Date('2026-11-27T10:00:00Z'))).toMatch(/^2026-11-2\dT\d{2}:\d{2}$/);
  });
});

describe('isTypedId', () => {
  it('tells a typed pass ID from a scanned signed code', () => {
    expect(isTypedId('abcdef0123')).toBe(true);
    expect(isTypedId('ABCDE-F0123')).toBe(true);
    expect(isTypedId(signed)).toBe(false);
    expect(isTypedId(`https://shop.example/pass/${signed}`)).toBe(false);
    expect(isTypedId('hello')).toBe(false);
  });
});
