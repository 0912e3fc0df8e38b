import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type PaymentProvider, ProviderDeadlineExceeded, simulatedPayment, withDeadline } from './payment-provider.ts';

describe('simulated payment', () => {
  const charge = { amountCents: 300, reference: 'ABCDEF0123' };

  it('succeeds after the configured delay', async () => {
    const started = performance.now();
    await expect(simulatedPayment({ delayMs: 50, failureRate: 0 }).charge(charge)).resolves.toEqual({ ok: true });
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('declines every payment when the failure rate is 1', async () => {
    const result = await simulatedPayment({ delayMs: 0, failureRate: 1 }).charge(charge);
    expect(result.ok).toBe(false);
  });

  it('declines the configured share of payments', async () => {
    const draws = [0.1, 0.6, 0.2, 0.9];
    const provider = simulatedPayment({ delayMs: 0, failureRate: 0.5, random: () => draws.shift()! });
    const results = await Promise.all([1, 2, 3, 4].map(() => provider.charge(charge)));
    expect(results.map((result) => result.ok)).toEqual([false, true, false, true]);
  });
});

describe('simulated refund', () => {
  const refund = { amountCents: 300, reference: 'ABCDEF0123' };

  it('takes the same delay as a charge and names the refund', async () => {
    const started = performance.now();
    const result = await simulatedPayment({ delayMs: 50, failureRate: 0 }).refund(refund);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(result).toEqual({ ok: true, reference: expect.stringMatching(/^sim-refund-ABCDEF0123-/) });
  });

  it('fails at the same rate as charges, unless refunds have a rate of their own', async () => {
    const result = await simulatedPayment({ delayMs: 0, failureRate: 1 }).refund(refund);
    expect(result).toEqual({ ok: false, reason: 'refused by the simulated provider' });
    const sellsButCannotRefund = simulatedPayment({ delayMs: 0, failureRate: 0, refundFailureRate: 1 });
    expect(await sellsButCannotRefund.charge(refund)).toEqual({ ok: true });
    expect((await sellsButCannotRefund.refund(refund)).ok).toBe(false);
  });
});

describe('the simulated provider refunds a charge once per reference', () => {
  it('answers a repeat refund, even one asked while the first is in flight, with the first refund', async () => {
    // Each refund the simulation makes is named after the clock: a second refund would get another name.
    let clock = 1_000_000;
    const now = vi.spyOn(Date, 'now').mockImplementation(() => clock++);
    const provider = simulatedPayment({ delayMs: 5, failureRate: 0 });
    try {
      const [first, meanwhile] = await Promise.all([
        provider.refund({ amountCents: 300, reference: 'ABCDEF0123' }),
        provider.refund({ amountCents: 300, reference: 'ABCDEF0123' }),
      ]);
      const later = await provider.refund({ amountCents: 300, reference: 'ABCDEF0123' });
      const other = await provider.refund({ amountCents: 300, reference: 'ABCDEF0124' });
      expect(first.ok && first.reference).toMatch(/^sim-refund-ABCDEF0123-/);
      expect(meanwhile).toEqual(first);
      expect(later).toEqual(first);
      expect(other).not.toEqual(first);
    } finally {
      now.mockRestore();
    }
  });

  it('keeps no refusal: a refund refused once may be asked for again', async () => {
    const draws = [0.1, 0.9];
    const provider = simulatedPayment({ delayMs: 0, failureRate: 0, refundFailureRate: 0.5, random: () => draws.shift() ?? 0.9 });
    expect((await provider.refund({ amountCents: 300, reference: 'R1' })).ok).toBe(false);
    expect((await provider.refund({ amountCents: 300, reference: 'R1' })).ok).toBe(true);
  });
});

describe('the provider deadline', () => {
  const silent: PaymentProvider = { charge: () => new Promise(() => {}), refund: () => new Promise(() => {}) };

  it('declines a charge the provider does not answer in time, so the buyer is told to try again', async () => {
    const result = await withDeadline(silent, 10).charge({ amountCents: 300, reference: 'K' });
    expect(result).toEqual({ ok: false, reason: 'the payment provider did not answer the charge within 0.01 s' });
  });

  it('throws for a refund not answered in time: whether the money went back is not known', async () => {
    await expect(withDeadline(silent, 10).refund({ amountCents: 300, reference: 'K' })).rejects.toBeInstanceOf(ProviderDeadlineExceeded);
  });

  it('passes answers within the deadline through, refusals and errors included', async () => {
    const answering: PaymentProvider = {
      charge: async () => ({ ok: true }),
      refund: async ({ reference }) => (reference === 'no' ? { ok: false, reason: 'card closed' } : { ok: true, reference: 'r-1' }),
    };
    const bounded = withDeadline(answering, 60_000);
    expect(await bounded.charge({ amountCents: 300, reference: 'K' })).toEqual({ ok: true });
    expect(await bounded.refund({ amountCents: 300, reference: 'yes' })).toEqual({ ok: true, reference: 'r-1' });
    expect(await bounded.refund({ amountCents: 300, reference: 'no' })).toEqual({ ok: false, reason: 'card closed' });
    const failing = withDeadline({ ...answering, charge: () => Promise.reject(new Error('connection reset')) }, 60_000);
    await expect(failing.charge({ amountCents: 300, reference: 'K' })).rejects.toThrow('connection reset');
  });
});

describe('the charge ledger (PAYMENT_LEDGER_FILE)', () => {
  const dirs: string[] = [];
  const ledgerPath = () => {
    const dir = mkdtempSync(join(tmpdir(), 'skippass-ledger-'));
    dirs.push(dir);
    return join(dir, 'charges.log');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('holds one line per successful charge, written by the time the charge answers', async () => {
    const ledgerFile = ledgerPath();
    const provider = simulatedPayment({ delayMs: 0, failureRate: 0, ledgerFile });
    await provider.charge({ amountCents: 300, reference: 'ref-one' });
    expect(readFileSync(ledgerFile, 'utf8')).toBe('ref-one 300\n');
    // A retry charges its reference again: the ledger counts charges, not distinct references.
    await provider.charge({ amountCents: 300, reference: 'ref-one' });
    await provider.charge({ amountCents: 1250, reference: 'ref-two' });
    expect(readFileSync(ledgerFile, 'utf8')).toBe('ref-one 300\nref-one 300\nref-two 1250\n');
  });

  it('records no declined charge and no refund', async () => {
    const ledgerFile = ledgerPath();
    const draws = [0.9, 0.1]; // the first charge goes through, the second is declined
    const provider = simulatedPayment({ delayMs: 0, failureRate: 0.5, refundFailureRate: 0, random: () => draws.shift() ?? 0, ledgerFile });
    expect((await provider.charge({ amountCents: 300, reference: 'paid' })).ok).toBe(true);
    expect((await provider.charge({ amountCents: 300, reference: 'declined' })).ok).toBe(false);
    expect((await provider.refund({ amountCents: 300, reference: 'paid' })).ok).toBe(true);
    expect(readFileSync(ledgerFile, 'utf8')).toBe('paid 300\n');
  });

  it('is off by default: no file is written', async () => {
    const ledgerFile = ledgerPath();
    await simulatedPayment({ delayMs: 0, failureRate: 0 }).charge({ amountCents: 300, reference: 'r' });
    expect(existsSync(ledgerFile)).toBe(false);
  });
});
