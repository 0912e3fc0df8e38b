import { LoaderCircle, Lock } from 'lucide-react';
import type { FormEvent, ReactNode, RefObject } from 'react';
import { formatCents } from '../../../core/money.ts';
import { cn } from '../../lib/cn.ts';
import { Button } from '../ui/button.tsx';
import { formError, type FormProblem } from '../ui/field.tsx';
import { FormError } from '../ui/form-error.tsx';

export interface OrderFormProps {
  /** The buyer's fields. */
  children: ReactNode;
  /**
   * The refused submit, if any: a message about fields is shown under them, one about the whole
   * order (a declined payment) right above the pay button, where the buyer's eyes and thumb are.
   */
  problem: FormProblem | null;
  errorId: string;
  formRef?: RefObject<HTMLFormElement | null>;
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
export function OrderForm({ children, problem, errorId, formRef, processing, onSubmit, item, priceCents, payLabel, note, className }: OrderFormProps) {
  const aboutOrder = formError(problem, errorId);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form ref={formRef} noValidate onSubmit={submit} className={cn('flex flex-col gap-5', className)} aria-describedby={aboutOrder}>
      {children}

      {!aboutOrder && <FormError id={errorId} message={problem?.message} />}

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

      {aboutOrder && <FormError id={errorId} message={problem?.message} />}

      <Button type="submit" size="lg" className="w-full" disabled={processing} aria-describedby={aboutOrder}>
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
