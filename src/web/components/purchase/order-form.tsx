import { LoaderCircle, Lock } from 'lucide-react';
import type { FormEvent, ReactNode } from 'react';
import { formatCents } from '../../../core/money.ts';
import { cn } from '../../lib/cn.ts';
import { Button } from '../ui/button.tsx';
import { formError, type FormProblem } from '../ui/field.tsx';
import { FormError } from '../ui/form-error.tsx';

export interface OrderFormProps {
  /** The buyer's fields. */
  children: ReactNode;
  /** The refused submit, if any: its message is shown under the fields. */
  problem: FormProblem | null;
  errorId: string;
  processing: boolean;
  onSubmit: () => void;
  /** The line item and its price, shown above the total. */
  item: string;
  priceCents: number;
  /** The pay button's text, e.g. "Complete Purchase - $3" or "Pay". */
  payLabel: string;
  /** The line under the pay button. */
  note: string;
  className?: string;
}

/** The part of a purchase form every pass shares: the fields, the one error, the total, Pay and a note. */
export function OrderForm({ children, problem, errorId, processing, onSubmit, item, priceCents, payLabel, note, className }: OrderFormProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form noValidate onSubmit={submit} className={cn('flex flex-col gap-5', className)} aria-describedby={formError(problem, errorId)}>
      {children}

      <FormError id={errorId} message={problem?.message} />

      <div className="rounded-xl border bg-muted/60 p-4 text-sm">
        <div className="flex items-center justify-between gap-4 text-muted-foreground">
          <span className="min-w-0 truncate">{item}</span>
          <span className="tabular-nums">{formatCents(priceCents)}</span>
        </div>
        <div className="mt-3 flex items-center justify-between border-t pt-3 text-base font-bold">
          <span>Total</span>
          <span className="tabular-nums">{formatCents(priceCents)}</span>
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
            {payLabel}
          </>
        )}
      </Button>
      <p className="text-center text-xs text-muted-foreground">{note}</p>
    </form>
  );
}
