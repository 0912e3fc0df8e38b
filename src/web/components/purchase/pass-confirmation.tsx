import { Ban, CircleCheckBig, Download, ExternalLink, Info, Mail, Printer, Ticket } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { toast } from '../../lib/toasts.ts';
import { cn } from '../../lib/cn.ts';
import { lazyModule } from '../../lib/lazy-module.ts';
import { PassQrCode } from '../pass-qr-code.tsx';
import { Button } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import type { Pass } from '../../../core/purchase.ts';

// The receipt's text comes from the purchase rules, zod schemas included: loaded when asked for, the pass page's first load leaves them out.
const receipt = lazyModule(() => import('../../lib/receipt-download.ts'));

/**
 * The pass a confirmation shows and the signed link its QR code holds. The email is there when this
 * browser bought the pass; a pass opened from its link elsewhere comes without it (the pass page's
 * API leaves the buyer's address out).
 */
export interface ShownPass {
  pass: Omit<Pass, 'email'> & { email?: string };
  passUrl: string;
}

export interface PassConfirmationProps {
  sold: ShownPass;
  productName: string;
  /** The heading (focused when the screen opens) and its classes. */
  title: ReactNode;
  titleClassName: string;
  /** The line under the heading. */
  lead: ReactNode;
  /** What the pass is, after the product name: "Any Event Pass", "Event Pass". */
  passKind: string;
  /** Under the QR code: what staff do with it, or the pass ID. */
  qrCaption: ReactNode;
  /** The pass's details under the QR code. */
  details: ReactNode;
  /** The amber notice: where and how often the pass is valid. */
  notice: string;
  /** A voided pass shows a stop sign where a good one shows a check mark. */
  voided?: boolean;
  /** Under the lead: where the pass stands (valid, used, voided). */
  status?: ReactNode;
  /** Above Save This Page: more ways to keep the pass (the wallet links). */
  extra?: ReactNode;
  /** The external feedback form, when this screen links it. */
  feedbackUrl?: string;
  onBuyAnother: () => void;
}

/** The confirmation screen the buyer shows at the entrance (and may print or save), for any pass. */
export function PassConfirmation(props: PassConfirmationProps) {
  const id = useId();
  const { pass, passUrl } = props.sold;
  // The purchase's notices ("Payment successful!") belong to this screen: none is carried into the next form.
  const buyAnother = () => {
    toast.dismiss();
    props.onBuyAnother();
  };
  return (
    <section aria-labelledby={`${id}-title`} className="flex-1 bg-muted/50 px-4 py-8 sm:px-6 sm:py-14 print:bg-transparent print:p-0">
      <Card className="mx-auto max-w-lg overflow-hidden shadow-lg shadow-primary/5">
        <div className="flex flex-col items-center px-6 pt-8 pb-6 text-center">
          {props.voided ? (
            <span className="flex size-16 items-center justify-center rounded-full bg-destructive/15 text-destructive ring-8 ring-destructive/5">
              <Ban className="size-8" aria-hidden="true" />
            </span>
          ) : (
            <span className="flex size-16 items-center justify-center rounded-full bg-success/15 text-success ring-8 ring-success/5">
              <CircleCheckBig className="size-8" aria-hidden="true" />
            </span>
          )}
          <h1 id={`${id}-title`} tabIndex={-1} className={cn('mt-5 font-extrabold tracking-tight outline-none', props.titleClassName)}>
            {props.title}
          </h1>
          <p className="mt-2 text-base text-balance text-muted-foreground">{props.lead}</p>
          {props.status}
        </div>

        <div className="mx-4 rounded-xl border-2 border-dashed border-primary/25 bg-secondary/40 sm:mx-6">
          <div className="flex items-center gap-2 border-b border-dashed border-primary/25 px-4 py-3 text-sm font-semibold text-primary">
            <Ticket className="size-4 shrink-0" aria-hidden="true" />
            <span className="min-w-0 truncate">
              {props.productName} · {props.passKind}
            </span>
          </div>
          <div className="flex flex-col items-center gap-3 border-b border-dashed border-primary/25 px-4 py-5">
            <PassQrCode value={passUrl} passId={pass.id} />
            {props.qrCaption}
          </div>
          {props.details}
        </div>

        <div className="mx-4 mt-4 flex gap-3 rounded-xl border border-amber-300/60 bg-amber-50 px-4 py-3 text-sm text-amber-950 sm:mx-6">
          <Info className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden="true" />
          <p>{props.notice}</p>
        </div>

        {props.extra}

        <div className="grid gap-2 px-4 pt-6 sm:grid-cols-2 sm:px-6 print:hidden">
          <Button variant="outline" onClick={() => window.print()}>
            <Printer aria-hidden="true" />
            Save This Page
          </Button>
          <Button variant="outline" onClick={() => void receipt.load().then(({ downloadReceipt }) => downloadReceipt(props.productName, pass, passUrl))}>
            <Download aria-hidden="true" />
            Download Receipt
          </Button>
          <Button className="sm:col-span-2" size="lg" onClick={buyAnother}>
            <Ticket aria-hidden="true" />
            Buy Another Pass
          </Button>
        </div>

        <div className="mt-6 flex flex-col items-center gap-3 border-t bg-muted/40 px-6 py-5 text-center text-sm">
          {pass.email && (
            <p className="flex items-start gap-2 text-muted-foreground">
              <Mail className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span className="min-w-0 break-words">
                A confirmation email has been sent to <strong className="font-semibold text-foreground">{pass.email}</strong>.
              </span>
            </p>
          )}
          {props.feedbackUrl && (
            <a
              href={props.feedbackUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1.5 rounded font-semibold text-primary underline-offset-4 hover:underline print:hidden"
            >
              Tell us how we did: share your feedback
              <ExternalLink className="size-3.5" aria-hidden="true" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          )}
        </div>
      </Card>
    </section>
  );
}
