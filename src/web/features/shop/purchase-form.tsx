import { ArrowLeft, LoaderCircle, Lock, Ticket } from 'lucide-react';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { LIMITS, PASS_PRICE_CENTS, PASS_PRICE_DOLLARS } from '../../../core/constants.ts';
import { formatCents } from '../../../core/money.ts';
import type { PurchaseInput } from '../../../core/purchase.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import type { SoldPass } from './sold-pass.ts';
import { usePurchase } from './use-purchase.ts';

const EMPTY: PurchaseInput = { name: '', email: '', eventName: '' };

export interface PurchaseFormProps {
  onBack: () => void;
  onPurchased: (sold: SoldPass) => void;
}

/** The purchase form: name, email and event name, then the simulated payment. */
export function PurchaseForm({ onBack, onPurchased }: PurchaseFormProps) {
  const [values, setValues] = useState<PurchaseInput>(EMPTY);
  const { submit, processing, error } = usePurchase(onPurchased);
  const id = useId();
  const errorId = `${id}-error`;

  const update = (field: keyof PurchaseInput) => (event: ChangeEvent<HTMLInputElement>) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit(values);
  };

  const fieldProps = {
    required: true,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
  } as const;

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
            <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-describedby={error ? errorId : undefined}>
              <div className="flex flex-col gap-2">
                <Label htmlFor={`${id}-name`}>Full Name</Label>
                <Input
                  id={`${id}-name`}
                  name="name"
                  autoComplete="name"
                  placeholder="Jane Smith"
                  maxLength={LIMITS.nameMax}
                  value={values.name}
                  onChange={update('name')}
                  readOnly={processing}
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
                  readOnly={processing}
                  {...fieldProps}
                />
              </div>
              <div className="flex flex-col gap-2">
                <Label htmlFor={`${id}-event`}>Event Name</Label>
                <Input
                  id={`${id}-event`}
                  name="eventName"
                  autoComplete="off"
                  placeholder="e.g. Riverside FC vs. Hill United"
                  maxLength={LIMITS.eventNameMax}
                  value={values.eventName}
                  onChange={update('eventName')}
                  readOnly={processing}
                  {...fieldProps}
                />
              </div>

              <FormError id={errorId} message={error} />

              <div className="rounded-xl border bg-muted/60 p-4 text-sm">
                <div className="flex items-center justify-between text-muted-foreground">
                  <span>Any Event Pass</span>
                  <span>{formatCents(PASS_PRICE_CENTS)}</span>
                </div>
                <div className="mt-3 flex items-center justify-between border-t pt-3 text-base font-bold">
                  <span>Total</span>
                  <span>{formatCents(PASS_PRICE_CENTS)}</span>
                </div>
              </div>

              <Button type="submit" size="lg" className="w-full" disabled={processing}>
                {processing ? (
                  <>
                    <LoaderCircle className="animate-spin" aria-hidden="true" />
                    Processing...
                  </>
                ) : (
                  <>
                    <Lock aria-hidden="true" />
                    Complete Purchase - ${PASS_PRICE_DOLLARS}
                  </>
                )}
              </Button>
              <p className="text-center text-xs text-muted-foreground">
                No account needed. Your pass and receipt appear as soon as the payment goes through.
              </p>
            </form>
          </CardContent>
        </Card>
      </div>
    </section>
  );
}
