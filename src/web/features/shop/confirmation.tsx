import { CircleCheckBig, Download, ExternalLink, Info, Mail, Printer, ScanLine, Ticket } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import type { Pass } from '../../../core/purchase.ts';
import { PassQrCode } from '../../components/pass-qr-code.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { downloadReceipt } from '../../lib/receipt-download.ts';

export interface ConfirmationProps {
  pass: Pass;
  /** The signed link the QR code holds; the receipt prints it too. */
  verificationUrl: string;
  productName: string;
  feedbackUrl: string;
  onBuyAnother: () => void;
}

/** The confirmation screen the buyer shows at the event (and may print or save). */
export function Confirmation({ pass, verificationUrl, productName, feedbackUrl, onBuyAnother }: ConfirmationProps) {
  const id = useId();
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="flex-1 bg-muted/50 px-4 py-8 sm:px-6 sm:py-14 print:bg-transparent print:p-0"
    >
      <div className="mx-auto max-w-lg">
        <Card className="overflow-hidden shadow-lg shadow-primary/5">
          <div className="flex flex-col items-center px-6 pt-8 pb-6 text-center">
            <span className="flex size-16 items-center justify-center rounded-full bg-success/15 text-success ring-8 ring-success/5">
              <CircleCheckBig className="size-8" aria-hidden="true" />
            </span>
            <h1
              id={`${id}-title`}
              tabIndex={-1}
              className="mt-5 text-2xl font-extrabold tracking-tight text-balance break-words outline-none sm:text-3xl"
            >
              Thank you, {pass.name}!
            </h1>
            <p className="mt-2 text-base text-muted-foreground">Your skip pass is confirmed</p>
          </div>

          <div className="mx-4 rounded-xl border-2 border-dashed border-primary/25 bg-secondary/40 sm:mx-6">
            <div className="flex items-center gap-2 border-b border-dashed border-primary/25 px-4 py-3 text-sm font-semibold text-primary">
              <Ticket className="size-4" aria-hidden="true" />
              {productName} · Any Event Pass
            </div>
            <div className="flex flex-col items-center gap-2.5 border-b border-dashed border-primary/25 px-4 py-5">
              <PassQrCode value={verificationUrl} passId={pass.id} />
              <p className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
                <ScanLine className="size-3.5" aria-hidden="true" />
                Staff scan this code at the entrance
              </p>
            </div>
            <dl className="grid grid-cols-2 gap-4 px-4 py-4 text-sm">
              <Detail id={`${id}-event`} term="Event" className="col-span-2" valueClassName="text-lg font-bold break-words">
                {pass.eventName}
              </Detail>
              <Detail id={`${id}-sport`} term="Sport">
                <Badge className="capitalize">{pass.eventType}</Badge>
              </Detail>
              <Detail id={`${id}-order`} term="Order ID" valueClassName="font-mono text-base font-bold tracking-widest">
                {pass.id}
              </Detail>
              <Detail id={`${id}-time`} term="Timestamp" className="col-span-2" valueClassName="font-medium">
                <time dateTime={pass.purchaseDate}>{pass.timestamp}</time>
              </Detail>
            </dl>
          </div>

          <div className="mx-4 mt-4 flex gap-3 rounded-xl border border-amber-300/60 bg-amber-50 px-4 py-3 text-sm text-amber-950 sm:mx-6">
            <Info className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden="true" />
            <p>
              Show this screen at the event entrance. Your pass is valid once per event, and your name may be checked.
            </p>
          </div>

          <div className="grid gap-2 px-4 pt-6 sm:grid-cols-2 sm:px-6 print:hidden">
            <Button variant="outline" onClick={() => window.print()}>
              <Printer aria-hidden="true" />
              Save This Page
            </Button>
            <Button variant="outline" onClick={() => downloadReceipt(productName, pass, verificationUrl)}>
              <Download aria-hidden="true" />
              Download Receipt
            </Button>
            <Button className="sm:col-span-2" size="lg" onClick={onBuyAnother}>
              <Ticket aria-hidden="true" />
              Buy Another Pass
            </Button>
          </div>

          <div className="mt-6 flex flex-col items-center gap-3 border-t bg-muted/40 px-6 py-5 text-center text-sm">
            <p className="flex items-start gap-2 text-muted-foreground">
              <Mail className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span className="min-w-0 break-words">
                A confirmation email has been sent to <strong className="font-semibold text-foreground">{pass.email}</strong>.
              </span>
            </p>
            <a
              href={feedbackUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1.5 rounded font-semibold text-primary underline-offset-4 hover:underline print:hidden"
            >
              Tell us how we did: share your feedback
              <ExternalLink className="size-3.5" aria-hidden="true" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </div>
        </Card>
      </div>
    </section>
  );
}

/** One line of the pass: the value is named by its term, so assistive tech reads "Order ID, 3F2A...". */
function Detail(props: { id: string; term: string; className?: string; valueClassName?: string; children: ReactNode }) {
  return (
    <div className={cn('min-w-0', props.className)}>
      <dt id={props.id} className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
        {props.term}
      </dt>
      <dd aria-labelledby={props.id} className={cn('mt-1', props.valueClassName)}>
        {props.children}
      </dd>
    </div>
  );
}
