import { appendFileSync } from 'node:fs';

/** The seam in front of whatever takes the money. Today it is a simulation (SPEC section 1). */
export interface PaymentProvider {
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Gives back money a charge took (a voided pass, issue 13). */
  refund(request: RefundRequest): Promise<RefundResult>;
}

export interface ChargeRequest {
  amountCents: number;
  /** Lets a real provider de-duplicate retries of the same purchase. */
  reference: string;
}

export type ChargeResult = { ok: true } | { ok: false; reason: string };

export interface RefundRequest {
  amountCents: number;
  /** The charge's reference (the order ID): a real provider refunds against it, once. */
  reference: string;
}

/** `reference` is the provider's id of the refund, kept with the void for reconciliation. */
export type RefundResult = { ok: true; reference: string } | { ok: false; reason: string };

export interface SimulatedPaymentOptions {
  /** How long the simulated authorisation takes (PAYMENT_DELAY_MS). */
  delayMs: number;
  /** Share of charges declined, 0..1 (PAYMENT_FAILURE_RATE): 1 makes every payment fail, for tests. */
  failureRate: number;
  /** Share of refunds refused, 0..1 (REFUND_FAILURE_RATE); by default the same as charges. */
  refundFailureRate?: number;
  random?: () => number;
  /**
   * PAYMENT_LEDGER_FILE: a file that gets one line per successful charge ("<reference> <amountCents>"),
   * appended synchronously before the charge returns, so a benchmark can count what was charged even
   * through a kill -9. Unset (the default): no ledger.
   */
  ledgerFile?: string;
}

/** Waits like a card authorisation would; it holds no database connection while it waits. */
export function simulatedPayment({
  delayMs,
  failureRate,
  refundFailureRate = failureRate,
  random = Math.random,
  ledgerFile,
}: SimulatedPaymentOptions): PaymentProvider {
  const wait = () => (delayMs > 0 ? new Promise((resolve) => setTimeout(resolve, delayMs)) : Promise.resolve());
  return {
    async charge({ reference, amountCents }) {
      await wait();
      if (random() < failureRate) return { ok: false, reason: 'declined by the simulated provider' };
      // Synchronous on purpose: once the line is written, a kill -9 of this process cannot lose it.
      if (ledgerFile) appendFileSync(ledgerFile, `${reference} ${amountCents}\n`);
      return { ok: true };
    },
    // The same delay as a charge: a refund is the same kind of call to the same provider.
    async refund({ reference }) {
      await wait();
      if (random() < refundFailureRate) return { ok: false, reason: 'refused by the simulated provider' };
      return { ok: true, reference: `sim-refund-${reference}-${Date.now().toString(36)}` };
    },
  };
}

/** The provider with every charge timed (platform/metrics.ts paymentTimer). */
export function timedPayment(provider: PaymentProvider, startTimer: () => (result: 'ok' | 'declined' | 'error') => void): PaymentProvider {
  return {
    charge: async (request) => {
      const end = startTimer();
      try {
        const result = await provider.charge(request);
        end(result.ok ? 'ok' : 'declined');
        return result;
      } catch (error) {
        end('error');
        throw error;
      }
    },
    refund: (request) => provider.refund(request),
  };
}
