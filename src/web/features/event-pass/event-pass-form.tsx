import { Home, Ticket } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'wouter';
import { EVENT_PASS_TEXT } from '../../../core/event-pass-messages.ts';
import { eventPurchaseInputSchema, type ShopEvent } from '../../../core/events.ts';
import { OrderForm } from '../../components/purchase/order-form.tsx';
import { usePurchase } from '../../components/purchase/use-purchase.ts';
import { salesNote } from '../../lib/event-sales.ts';
import type { SoldPass } from '../../lib/kept-passes.ts';
import type { NotOnSale } from '../../lib/purchase-api.ts';
import { buttonVariants } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { EMAIL_INPUT, Field, fieldState, NAME_INPUT } from '../../components/ui/field.tsx';
import { useFormValues } from '../../components/ui/use-form-values.ts';
import { EventDetails } from '../../components/event-details.tsx';

const SUCCESS = { title: EVENT_PASS_TEXT.purchaseSuccess };

const EMPTY = { name: '', email: '' };

export interface EventPassFormProps {
  event: ShopEvent;
  onPurchased: (sold: SoldPass) => void;
  /** The server refused the purchase as sold out, closed or not open: the page reads the event again. */
  onNotOnSale: (code: NotOnSale) => void;
}

/**
 * The older event-specific purchase view (SPEC section 2): the event, name and email, the total,
 * Pay. An event not on sale (sold out, closed, not open yet) says so in place of the form: no
 * payment can be tried (issue 22).
 */
export function EventPassForm({ event, onPurchased, onNotOnSale }: EventPassFormProps) {
  const id = useId();
  const { submit, processing, problem, edited, formRef } = usePurchase({ schema: eventPurchaseInputSchema, success: SUCCESS, onPurchased, onNotOnSale });
  const { values, change: update } = useFormValues(EMPTY, (field, next) => edited(field, { ...next, eventId: event.id }));
  const errorId = `${id}-error`;
  const note = salesNote(event);
  const onSale = event.sales === 'on_sale';

  return (
    <section aria-labelledby={`${id}-title`} className="flex-1 bg-muted/50 px-4 py-8 sm:px-6 sm:py-14">
      <Card className="mx-auto max-w-lg overflow-hidden shadow-lg shadow-primary/5">
        <div className="relative isolate overflow-hidden bg-indigo-950 px-6 pt-7 pb-6 text-white">
          <div aria-hidden="true" className="absolute inset-0 -z-10">
            <div className="absolute -top-24 -left-16 size-64 rounded-full bg-indigo-500/40 blur-3xl" />
            <div className="absolute -right-16 -bottom-28 size-64 rounded-full bg-fuchsia-500/25 blur-3xl" />
          </div>
          <p className="inline-flex items-center gap-2 text-xs font-semibold tracking-[0.18em] text-amber-300 uppercase">
            <Ticket className="size-4" aria-hidden="true" />
            Skip-the-line pass
          </p>
          <h1
            id={`${id}-title`}
            tabIndex={-1}
            className="mt-3 text-3xl leading-tight font-extrabold tracking-tight text-balance break-words outline-none"
          >
            {event.title}
          </h1>
          <EventDetails event={event} className="mt-5 text-sm text-indigo-100" />
          {onSale && note && (
            <p className="mt-4 inline-flex rounded-full bg-amber-300 px-3 py-1 text-sm font-bold text-indigo-950">{note}</p>
          )}
        </div>

        {onSale ? (
          <OrderForm
            className="p-6"
            problem={problem}
            errorId={errorId}
            formRef={formRef}
            processing={processing}
            onSubmit={() => void submit({ ...values, eventId: event.id })}
            item="1 × Skip-the-line pass"
            priceCents={event.priceCents}
            payLabel={EVENT_PASS_TEXT.pay}
            note="No account needed. Your pass appears as soon as the payment goes through."
          >
            <Field id={`${id}-name`} label="Name" {...NAME_INPUT} value={values.name} onChange={update('name')} {...fieldState(problem, 'name', errorId, processing)} />
            <Field id={`${id}-email`} label="Email" {...EMAIL_INPUT} value={values.email} onChange={update('email')} {...fieldState(problem, 'email', errorId, processing)} />
          </OrderForm>
        ) : (
          <div className="flex flex-col gap-4 p-6">
            {/* Why the purchase just failed, when it did: the event sold out or closed meanwhile. */}
            <FormError id={errorId} message={problem?.message} />
            <p className="text-2xl font-extrabold tracking-tight">{note}</p>
            <p className="text-muted-foreground">
              Passes for this event cannot be bought now. Our Any Event Pass works at every local sports event.
            </p>
            <Link to="/" className={buttonVariants({ size: 'lg', className: 'self-start' })}>
              <Home aria-hidden="true" />
              Return to Home
            </Link>
          </div>
        )}
      </Card>
    </section>
  );
}
