import { ArrowLeft, Ticket } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useId } from 'react';
import { LIMITS, PASS_PRICE_CENTS } from '../../../core/constants.ts';
import { dollarsOf } from '../../../core/money.ts';
import { NOTICES } from '../../../core/messages.ts';
import { purchaseInputSchema, type PurchaseInput } from '../../../core/purchase.ts';
import { OrderForm } from '../../components/purchase/order-form.tsx';
import { usePurchase } from '../../components/purchase/use-purchase.ts';
import type { SoldPass } from '../../lib/kept-passes.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { EMAIL_INPUT, Field, fieldState, NAME_INPUT } from '../../components/ui/field.tsx';
import { useFormValues } from '../../components/ui/use-form-values.ts';
import { EVENTS_ON_SALE_KEY, useEventsOnSale } from './events-on-sale-api.ts';

const EMPTY: PurchaseInput = { name: '', email: '', eventName: '' };

const SUCCESS = { title: NOTICES.paymentSuccessTitle, description: NOTICES.paymentSuccessText };

export interface PurchaseFormProps {
  onBack: () => void;
  onPurchased: (sold: SoldPass) => void;
}

/** The purchase form: name, email and event name, then the simulated payment. */
export function PurchaseForm({ onBack, onPurchased }: PurchaseFormProps) {
  const queryClient = useQueryClient();
  // A listed event that sold out or closed meanwhile leaves the suggestions.
  const onNotOnSale = useCallback(() => void queryClient.invalidateQueries({ queryKey: EVENTS_ON_SALE_KEY }), [queryClient]);
  const { submit, processing, problem, edited, formRef } = usePurchase({ schema: purchaseInputSchema, success: SUCCESS, onPurchased, onNotOnSale });
  const { values, change: update } = useFormValues<PurchaseInput>(EMPTY, edited);
  const id = useId();
  const errorId = `${id}-error`;
  // Listed events on sale as suggestions; any other text is still an event name (SPEC).
  const suggestions = [...new Set((useEventsOnSale().data ?? []).filter((event) => event.sales === 'on_sale').map((event) => event.title))];

  return (
    <section aria-labelledby={`${id}-title`} className="flex-1 bg-muted/50 px-4 py-8 sm:px-6 sm:py-14">
      <div className="mx-auto max-w-lg">
        <Button variant="ghost" className="-ml-3 mb-4 text-muted-foreground" onClick={onBack} disabled={processing}>
          <ArrowLeft aria-hidden="true" />
          Back
        </Button>

        <Card className="shadow-lg shadow-primary/5">
          <CardHeader>
            <span className="mb-2 flex size-12 items-center justify-center rounded-xl bg-secondary text-primary">
              <Ticket className="size-6" aria-hidden="true" />
            </span>
            <CardTitle as="h1" id={`${id}-title`} tabIndex={-1} className="text-2xl outline-none sm:text-3xl">
              Get Your Skip Pass
            </CardTitle>
            <CardDescription className="text-base">
              Enter your details and the event you are going to. Your pass is confirmed instantly.
            </CardDescription>
          </CardHeader>

          <CardContent>
            <OrderForm
              problem={problem}
              errorId={errorId}
              formRef={formRef}
              processing={processing}
              onSubmit={() => void submit(values)}
              item="Any Event Pass"
              priceCents={PASS_PRICE_CENTS}
              payLabel={`Complete Purchase - $${dollarsOf(PASS_PRICE_CENTS)}`}
              note="No account needed. Your pass and receipt appear as soon as the payment goes through."
            >
              <Field id={`${id}-name`} label="Full Name" {...NAME_INPUT} value={values.name} onChange={update('name')} {...fieldState(problem, 'name', errorId, processing)} />
              <Field id={`${id}-email`} label="Email" {...EMAIL_INPUT} value={values.email} onChange={update('email')} {...fieldState(problem, 'email', errorId, processing)} />
              <Field
                id={`${id}-event`}
                label="Event Name"
                name="eventName"
                autoComplete="off"
                list={suggestions.length > 0 ? `${id}-events` : undefined}
                placeholder="e.g. Riverside FC vs. Hill United"
                maxLength={LIMITS.eventNameMax}
                value={values.eventName}
                onChange={update('eventName')}
                {...fieldState(problem, 'eventName', errorId, processing)}
              />
              {suggestions.length > 0 && (
                <datalist id={`${id}-events`}>
                  {suggestions.map((title) => (
                    <option key={title} value={title} />
                  ))}
                </datalist>
              )}
            </OrderForm>
          </CardContent>
        </Card>
      </div>
    </section>
  );
}
