import { useCallback, useRef, useState } from 'react';
import { toast } from 'sonner';
import { EVENT_PASS_TEXT } from '../../../core/event-pass-messages.ts';
import { eventPurchaseInputSchema } from '../../../core/events.ts';
import { NOTICES } from '../../../core/messages.ts';
import type { Pass } from '../../../core/purchase.ts';
import { check } from '../../../core/validation.ts';
import { buyEventPass } from './event-api.ts';

export interface EventSale {
  pass: Pass;
  verificationUrl: string;
}

/**
 * The event page's purchase: validate (all fields required), pay (the server holds the request
 * for the 1.5 s simulated payment), then notify. A ref guards against a double click.
 */
export function useEventPurchase(eventId: number, onPurchased: (sale: EventSale) => void) {
  const inFlight = useRef(false);
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = useCallback(
    async (values: { name: string; email: string }) => {
      if (inFlight.current) return;
      const checked = check(eventPurchaseInputSchema, { ...values, eventId });
      if (!checked.ok) {
        setError(checked.message);
        return;
      }
      inFlight.current = true;
      setError(null);
      setProcessing(true);
      try {
        const outcome = await buyEventPass(checked.value);
        switch (outcome.kind) {
          case 'success':
            toast.success(EVENT_PASS_TEXT.purchaseSuccess);
            if (!outcome.response.saved) toast.warning(NOTICES.saveWarningTitle, { description: NOTICES.saveWarningText });
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
    [eventId, onPurchased],
  );

  return { submit, processing, error };
}
