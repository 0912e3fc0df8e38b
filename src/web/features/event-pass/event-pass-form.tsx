import { LoaderCircle, Lock, Ticket } from 'lucide-react';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { EVENT_PASS_TEXT } from '../../../core/event-pass-messages.ts';
import type { ShopEvent } from '../../../core/events.ts';
import { LIMITS } from '../../../core/constants.ts';
import { formatCents } from '../../../core/money.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { EventDetails } from './event-details.tsx';
import { useEventPurchase, type EventSale } from './use-event-purchase.ts';

/** The older event-specific purchase view (SPEC section 2): the event, name and email, the total, Pay. */
export function EventPassForm({ event, onPurchased }: { event: ShopEvent; onPurchased: (sale: EventSale) => void }) {
  const id = useId();
  const [values, setValues] = useState({ name: '', email: '' });
  const { submit, processing, error } = useEventPurchase(event.id, onPurchased);
  const errorId = `${id}-error`;

  const update = (field: 'name' | 'email') => (change: ChangeEvent<HTMLInputElement>) =>
    setValues((current) => ({ ...current, [field]: change.target.value }));

  const onSubmit = (formEvent: FormEvent<HTMLFormElement>) => {
    formEvent.preventDefault();
    void submit(values);
  };

  const fieldProps = {
    required: true,
    readOnly: processing,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
  } as const;

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
        </div>

        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5 p-6" aria-describedby={error ? errorId : undefined}>
          <div className="flex flex-col gap-2">
            <Label htmlFor={`${id}-name`}>Name</Label>
            <Input
              id={`${id}-name`}
              name="name"
              autoComplete="name"
              placeholder="Jane Smith"
              maxLength={LIMITS.nameMax}
              value={values.name}
              onChange={update('name')}
              {...fieldProps}
            />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor={`${id}-email`}>Email</Label>
            <Input
              id={`${id}-email`}
              name="email"
              type="email"
              inputMode="email"
              autoComplete="email"
              autoCapitalize="off"
              spellCheck={false}
              placeholder="jane@example.com"
              maxLength={LIMITS.emailMax}
              value={values.email}
              onChange={update('email')}
              {...fieldProps}
            />
          </div>

          <FormError id={errorId} message={error} />

          <div className="rounded-xl border bg-muted/60 p-4 text-sm">
            <div className="flex items-center justify-between gap-4 text-muted-foreground">
              <span className="min-w-0 truncate">1 × Skip-the-line pass</span>
              <span className="tabular-nums">{formatCents(event.priceCents)}</span>
            </div>
            <div className="mt-3 flex items-center justify-between border-t pt-3 text-base font-bold">
              <span>Total</span>
              <span className="tabular-nums">{formatCents(event.priceCents)}</span>
            </div>
          </div>

          <Button type="submit" size="lg" className="w-full" disabled={processing}>
            {processing ? (
              <>
                <LoaderCircle className="animate-spin" aria-hidden="true" />
                {EVENT_PASS_TEXT.processing}
              </>
            ) : (
              <>
                <Lock aria-hidden="true" />
                {EVENT_PASS_TEXT.pay}
              </>
            )}
          </Button>
          <p className="text-center text-xs text-muted-foreground">No account needed. Your pass appears as soon as the payment goes through.</p>
        </form>
      </Card>
    </section>
  );
}
