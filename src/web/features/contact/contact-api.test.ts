import { describe, expect, it } from 'vitest';
import { requestConfirmation } from './contact-api.ts';
import { answer } from '../../test-support/fake-server.ts';


describe('requestConfirmation', () => {
  const input = { name: 'Grace', email: 'grace@example.com' };

  it('succeeds on 202', async () => {
    expect(await requestConfirmation(input, { fetch: answer(202, { ok: true }) })).toEqual({ ok: true });
  });

  it("shows the server's message when it refuses", async () => {
    const limited = answer(429, { error: { code: 'rate_limited', message: 'Too many requests. Please wait a minute and try again.' } });
    expect(await requestConfirmation(input, { fetch: limited })).toEqual({
      ok: false,
      message: 'Too many requests. Please wait a minute and try again.',
    });
  });

  it('falls back to the spec text when the shop cannot be reached or says nothing', async () => {
    const offline = async () => {
      throw new TypeError('Failed to fetch');
    };
    expect(await requestConfirmation(input, { fetch: offline })).toEqual({ ok: false, message: 'Failed to send confirmation email' });
    expect(await requestConfirmation(input, { fetch: async () => new Response('bad gateway', { status: 502 }) })).toEqual({
      ok: false,
      message: 'Failed to send confirmation email',
    });
  });
});
