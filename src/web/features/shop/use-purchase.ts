import { useCallback, useRef, useState } from 'react';
import { toast } from 'sonner';
import { NOTICES } from '../../../core/messages.ts';
import { purchaseInputSchema, type PurchaseInput } from '../../../core/purchase.ts';
import { check } from '../../../core/validation.ts';
import { buyPass } from './purchase-api.ts';
import type { SoldPass } from './sold-pass.ts';

export interface UsePurchase {
  /** Validates, then buys. Ignored while a purchase is already running. */
  submit(values: PurchaseInput): Promise<void>;
  processing: boolean;
  /** The one message to show beside the form (a local rule, or the server's 400). */
  error: string | null;
}

/**
 * The purchase flow of SPEC section 4: validate, pay (the server holds the request for the
 * simulated payment), then notify. A ref, not state, guards against a double click: two
 * clicks in one frame both see the old state, but the ref is set before the first await.
 */
export function usePurchase(onPurchased: (sold: SoldPass) => void): UsePurchase {
  const inFlight = useRef(false);
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = useCallback(
    async (values: PurchaseInput) => {
      if (inFlight.current) return;
      const checked = check(purchaseInputSchema, values);
      if (!checked.ok) {
        setError(checked.message);
        return;
      }
      inFlight.current = true;
      setError(null);
      setProcessing(true);
      try {
        const outcome = await buyPass(checked.value);
        switch (outcome.kind) {
          case 'success':
            toast.success(NOTICES.paymentSuccessTitle, { description: NOTICES.paymentSuccessText });
            if (!outcome.response.saved) {
              toast.warning(NOTICES.saveWarningTitle, { description: NOTICES.saveWarningText });
            }
            onPurchased({ pass: outcome.response.pass, verificationUrl: outcome.response.verificationUrl });
            break;
          case 'invalid':
            setError(outcome.message);
            break;
          case 'payment_failed':
            toast.error(NOTICES.paymentFailedTitle, { description: NOTICES.paymentFailedText });
            break;
          case 'rejected':
            toast.error(outcome.message);
            break;
        }
      } finally {
        inFlight.current = false;
        setProcessing(false);
      }
    },
    [onPurchased],
  );

  return { submit, processing, error };
}
