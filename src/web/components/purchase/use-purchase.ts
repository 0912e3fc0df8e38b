import { useMutation } from '@tanstack/react-query';
import { useCallback, useRef, type RefObject } from 'react';
import { toast } from '../../lib/toasts.ts';
import type { z } from 'zod';
import type { OrderBody } from '../../../core/api/purchases.ts';
import { NOTICES } from '../../../core/messages.ts';
import { check } from '../../../core/validation.ts';
import type { SoldPass } from '../../lib/kept-passes.ts';
import { postPurchase, type NotOnSale } from '../../lib/purchase-api.ts';
import { useScreenToasts } from '../../lib/screen-toasts.ts';
import { formProblem, messageOf, type FormProblem } from '../ui/field.tsx';
import { useFormProblem } from '../ui/use-form-problem.ts';

export interface PurchaseConfig<Values extends object> {
  /** The form's rules, in the spec's order (the server checks the same); its output is the order sent. */
  schema: z.ZodType<OrderBody, Values>;
  /** The notice a paid purchase shows: the shop's "Payment successful!", or the event page's own. */
  success: { title: string; description?: string };
  onPurchased: (sold: SoldPass) => void;
  /** The event turned out sold out, closed or not open (409, nothing charged): the page reads the event again. */
  onNotOnSale?: (code: NotOnSale) => void;
}

export interface UsePurchase<Values extends object> {
  /** Validates, then buys. Ignored while a purchase is already running. */
  submit(values: Values): Promise<void>;
  processing: boolean;
  /**
   * The one message the form shows and the fields it is about: a local rule or the server's 400
   * (cleared field by field as they are fixed), or a declined or refused payment (kept by the pay
   * button until the next submit).
   */
  problem: FormProblem<keyof Values & string> | null;
  /** Call with the form's values after a field changed: its mark goes once the rules pass it. */
  edited(field: keyof Values & string, values: Values): void;
  /** For the <form>: a refused submit moves focus to its first marked field. */
  formRef: RefObject<HTMLFormElement | null>;
}

/** A declined payment's message by the pay button: SPEC's notice, its title and text as one line. */
export const PAYMENT_FAILED_MESSAGE = `${NOTICES.paymentFailedTitle}. ${NOTICES.paymentFailedText}`;

/**
 * The purchase flow of SPEC section 4, for the home pass and an event's pass alike: validate, pay
 * (the server holds the request for the simulated payment), then notify. A ref, not state, guards
 * against a double click: two clicks in one frame both see the old state, but the ref is set
 * before the first await. A failure's toast belongs to the form: the next submit, or leaving the
 * form, clears it; its message by the pay button stays until the next submit, so it is still there
 * after the toast has gone.
 */
export function usePurchase<Values extends object>({ schema, success, onPurchased, onNotOnSale }: PurchaseConfig<Values>): UsePurchase<Values> {
  const inFlight = useRef(false);
  const { problem, refuse, clear, edited: fieldEdited, formRef } = useFormProblem<keyof Values & string>();
  const formToasts = useScreenToasts();
  const { mutateAsync: buy, isPending: processing } = useMutation({ mutationFn: (order: OrderBody) => postPurchase(order) });
  const { title, description } = success;

  const submit = useCallback(
    async (values: Values) => {
      if (inFlight.current) return;
      formToasts.dismiss();
      const checked = check(schema, values);
      if (!checked.ok) {
        refuse(formProblem(checked.message, values));
        return;
      }
      inFlight.current = true;
      clear();
      try {
        const outcome = await buy(checked.value);
        switch (outcome.kind) {
          case 'success':
            toast.success(title, { description });
            if (!outcome.response.saved) toast.warning(NOTICES.saveWarningTitle, { description: NOTICES.saveWarningText });
            onPurchased({ pass: outcome.response.pass, passUrl: outcome.response.passUrl });
            break;
          case 'invalid':
            refuse(formProblem(outcome.message, values));
            break;
          case 'payment_failed':
            formToasts.error(NOTICES.paymentFailedTitle, { description: NOTICES.paymentFailedText });
            refuse({ message: PAYMENT_FAILED_MESSAGE, fields: [] });
            break;
          case 'not_on_sale':
            formToasts.error(outcome.message);
            refuse({ message: outcome.message, fields: [] });
            onNotOnSale?.(outcome.code);
            break;
          case 'rejected':
            formToasts.error(outcome.message);
            refuse({ message: outcome.message, fields: [] });
            break;
        }
      } finally {
        inFlight.current = false;
      }
    },
    [schema, title, description, buy, onPurchased, onNotOnSale, formToasts, refuse, clear],
  );

  const edited = useCallback(
    (field: keyof Values & string, values: Values) =>
      fieldEdited(field, values, (now) => messageOf(check(schema, now))),
    [schema, fieldEdited],
  );

  return { submit, processing, problem, edited, formRef };
}
