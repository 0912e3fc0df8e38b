import { CircleCheckBig, Download, Info, Mail, Printer, Ticket } from 'lucide-react';
import { useId } from 'react';
import { EVENT_PASS_TEXT } from '../../../core/event-pass-messages.ts';
import type { ShopEvent } from '../../../core/events.ts';
import { PassQrCode } from '../../components/pass-qr-code.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { downloadReceipt } from '../../lib/receipt-download.ts';
import { EventDetails } from './event-details.tsx';
import type { EventSale } from './use-event-purchase.ts';

export interface EventPassConfirmedProps {
  event: ShopEvent;
  sale: EventSale;
  productName: string;
  onBuyAnother: () => void;
}

/** The Pass Confirmed screen: the pass ID and its QR code, to show at this event's entrance. */
export function EventPassConfirmed({ event, sale, productName, onBuyAnother }: EventPassConfirmedProps) {
  const id = useId();
  const { pass, verificationUrl } = sale;
  return (
    <section aria-labelledby={`${id}-title`} className="flex-1 bg-muted/50 px-4 py-8 sm:px-6 sm:py-14 print:bg-transparent print:p-0">
      <Card className="mx-auto max-w-lg overflow-hidden shadow-lg shadow-primary/5">
        <div className="flex flex-col items-center px-6 pt-8 pb-6 text-center">
          <span className="flex size-16 items-center justify-center rounded-full bg-success/15 text-success ring-8 ring-success/5">
            <CircleCheckBig className="size-8" aria-hidden="true" />
          </span>
          <h1 id={`${id}-title`} tabIndex={-1} className="mt-5 text-3xl font-extrabold tracking-tight outline-none">
            {EVENT_PASS_TEXT.passConfirmed}
          </h1>
          <p className="mt-2 text-base text-balance text-muted-foreground">
            Thank you, <span className="font-semibold break-words text-foreground">{pass.name}</span>. Show this pass at the entrance.
          </p>
        </div>

        <div className="mx-4 rounded-xl border-2 border-dashed border-primary/25 bg-secondary/40 sm:mx-6">
          <div className="flex items-center gap-2 border-b border-dashed border-primary/25 px-4 py-3 text-sm font-semibold text-primary">
            <Ticket className="size-4 shrink-0" aria-hidden="true" />
            <span className="min-w-0 truncate">{productName} · Event Pass</span>
          </div>
          <div className="flex flex-col items-center gap-3 border-b border-dashed border-primary/25 px-4 py-5">
            <PassQrCode value={verificationUrl} passId={pass.id} />
            <dl className="text-center">
              <dt id={`${id}-pass-id`} className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
                Pass ID
              </dt>
              <dd aria-labelledby={`${id}-pass-id`} className="mt-1 font-mono text-2xl font-bold tracking-[0.2em]">
                {pass.id}
              </dd>
            </dl>
          </div>
          <div className="px-4 py-4 text-sm">
            <p className="mb-3 text-lg font-bold break-words">{event.title}</p>
            <EventDetails event={event} className="text-muted-foreground" />
          </div>
        </div>

        <div className="mx-4 mt-4 flex gap-3 rounded-xl border border-amber-300/60 bg-amber-50 px-4 py-3 text-sm text-amber-950 sm:mx-6">
          <Info className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden="true" />
          <p>Valid once, for this event. Your name may be checked at the entrance.</p>
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

        <p className="mt-6 border-t bg-muted/40 px-6 py-5 text-center text-sm text-balance break-words text-muted-foreground">
          <Mail className="mr-1.5 inline size-4 align-[-3px]" aria-hidden="true" />
          A confirmation email has been sent to <strong className="font-semibold text-foreground">{pass.email}</strong>.
        </p>
      </Card>
    </section>
  );
}
