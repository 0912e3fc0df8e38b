/** The seam in front of whatever takes the money. Today it is a simulation (SPEC section 1). */
export interface PaymentProvider {
  charge(request: ChargeRequest): Promise<ChargeResult>;
}

export interface ChargeRequest {
  amountCents: number;
  /** Lets a real provider de-duplicate retries of the same purchase. */
  reference: string;
}

export type ChargeResult = { ok: true } | { ok: false; reason: string };

export interface SimulatedPaymentOptions {
  /** How long the simulated authorisation takes (PAYMENT_DELAY_MS). */
  delayMs: number;
  /** Share of charges declined, 0..1 (PAYMENT_FAILURE_RATE): 1 makes every payment fail, for tests. */
  failureRate: number;
  random?: () => number;
}

/** Waits like a card authorisation would; it holds no database connection while it waits. */
export function simulatedPayment({ delayMs, failureRate, random = Math.random }: SimulatedPaymentOptions): PaymentProvider {
  return {
    async charge() {
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return random() < failureRate ? { ok: false, reason: 'declined by the simulated provider' } : { ok: true };
    },
  };
}
