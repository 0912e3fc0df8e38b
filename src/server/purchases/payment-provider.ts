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

/**
 * How long any call to the provider may take (ADR 0030): well above a card authorisation's few
 * seconds and the simulation's PAYMENT_DELAY_MS default, well below a proxy's or a person's patience.
 */
export const PROVIDER_DEADLINE_MS = 30_000;

/** A call the provider did not answer by the deadline: whether it did anything is not known. */
export class ProviderDeadlineExceeded extends Error {
  constructor(call: 'charge' | 'refund', deadlineMs: number) {
    super(`the payment provider did not answer the ${call} within ${deadlineMs / 1000} s`);
    this.name = 'ProviderDeadlineExceeded';
  }
}

/**
 * The provider with a deadline on every call, the one place it is set. An unanswered charge is a
 * decline (the buyer is told to try again; a retry with the same Idempotency-Key sends the same
 * reference, which the provider answers without charging twice). An unanswered refund throws
 * ProviderDeadlineExceeded: its outcome is unknown, and the void records it as pending for the
 * settler (ADR 0030). The abandoned call may still finish; nothing waits for it.
 */
export function withDeadline(provider: PaymentProvider, deadlineMs = PROVIDER_DEADLINE_MS): PaymentProvider {
  const race = <T>(call: 'charge' | 'refund', answer: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new ProviderDeadlineExceeded(call, deadlineMs)), deadlineMs);
    });
    return Promise.race([answer, deadline]).finally(() => clearTimeout(timer));
  };
  return {
    charge: (request) =>
      race('charge', provider.charge(request)).catch((error: unknown) => {
        if (error instanceof ProviderDeadlineExceeded) return { ok: false, reason: error.message };
        throw error;
      }),
    refund: (request) => race('refund', provider.refund(request)),
  };
}

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
  /** Each reference's refund, once asked for (a few bytes per voided pass). */
  const refunds = new Map<string, Promise<RefundResult>>();
  return {
    async charge({ reference, amountCents }) {
      await wait();
      if (random() < failureRate) return { ok: false, reason: 'declined by the simulated provider' };
      // Synchronous on purpose: once the line is written, a kill -9 of this process cannot lose it.
      if (ledgerFile) appendFileSync(ledgerFile, `${reference} ${amountCents}\n`);
      return { ok: true };
    },
    // The same delay as a charge: a refund is the same kind of call to the same provider. Like a
    // real provider, it refunds a charge once per reference: a repeat (the void's own retry, the
    // settler's) answers the first refund, even while that one is still in flight. A refusal is
    // not kept, so staff may try again.
    refund({ reference }) {
      const earlier = refunds.get(reference);
      if (earlier) return earlier;
      const answer = (async (): Promise<RefundResult> => {
        await wait();
        if (random() < refundFailureRate) return { ok: false, reason: 'refused by the simulated provider' };
        return { ok: true, reference: `sim-refund-${reference}-${Date.now().toString(36)}` };
      })();
      refunds.set(reference, answer);
      void answer.then((result) => {
        if (!result.ok) refunds.delete(reference);
      });
      return answer;
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
