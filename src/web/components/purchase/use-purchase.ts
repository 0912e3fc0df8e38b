import { useMutation } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { z } from 'zod';
import type { OrderBody } from '../../../core/api/purchases.ts';
import { NOTICES } from '../../../core/messages.ts';
import type { Pass } from '../../../core/purchase.ts';
import { check } from '../../../core/validation.ts';
import { postPurchase } from '../../lib/purchase-client.ts';

/** What the confirmation holds: the pass and the signed link its QR code carries. */
export interface SoldPass {
  pass: Pass;
  verificationUrl: string;
}

export interface PurchaseConfig<Values> {
  /** The form's rules, in the spec's order (the server checks the same); its output is the order sent. */
  schema: z.ZodType<OrderBody, Values>;
  /** The notice a paid purchase shows: the shop's "Payment successful!", or the event page's own. */
  success: { title: string; description?: string };
  onPurchased: (sold: SoldPass) => void;
}

export interface UsePurchase<Values> {
  /** Validates, then buys. Ignored while a purchase is already running. */
  submit(values: Values): Promise<void>;
  processing: boolean;
  /** The one message to show beside the form (a local rule, or the server's 400). */
  error: string | null;
}

/**
 * The purchase flow of SPEC section 4, for the home pass and an event's pass alike: validate, pay
 * (the server holds the request for the simulated payment), then notify. A ref, not state, guards
 * against a double click: two clicks in one frame both see the old state, but the ref is set
 * before the first await.
 */
export function usePurchase<Values>({ schema, success, onPurchased }: PurchaseConfig<Values>): UsePurchase<Values> {
  const inFlight = useRef(false);
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync: buy, isPending: processing } = useMutation({ mutationFn: (order: OrderBody) => postPurchase(order) });
  const { title, description } = success;

  const submit = useCallback(
    async (values: Values) => {
      if (inFlight.current) return;
      const checked = check(schema, values);
      if (!checked.ok) {
        setError(checked.message);
        return;
      }
      inFlight.current = true;
      setError(null);
      try {
        const outcome = await buy(checked.value);
        switch (outcome.kind) {
          case 'success':
            toast.success(title, { description });
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
      }
    },
    [schema, title, description, buy, onPurchased],
  );

  return { submit, processing, error };
}
