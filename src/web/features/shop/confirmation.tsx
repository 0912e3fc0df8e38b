import { ScanLine } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { PassConfirmation } from '../../components/purchase/pass-confirmation.tsx';
import type { SoldPass } from '../../components/purchase/use-purchase.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../lib/cn.ts';
import { formatSport } from '../../lib/format.ts';

export interface ConfirmationProps {
  sold: SoldPass;
  productName: string;
  feedbackUrl: string;
  onBuyAnother: () => void;
}

/** The home pass's confirmation: thanks by name, the QR code, and the event, sport, order ID and time. */
export function Confirmation({ sold, productName, feedbackUrl, onBuyAnother }: ConfirmationProps) {
  const id = useId();
  const { pass } = sold;
  return (
    <PassConfirmation
      sold={sold}
      productName={productName}
      title={`Thank you, ${pass.name}!`}
      titleClassName="text-2xl text-balance break-words sm:text-3xl"
      lead="Your skip pass is confirmed"
      passKind="Any Event Pass"
      qrCaption={
        <p className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
          <ScanLine className="size-3.5" aria-hidden="true" />
          Staff scan this code at the entrance
        </p>
      }
      details={
        <dl className="grid grid-cols-2 gap-4 px-4 py-4 text-sm">
          <Detail id={`${id}-event`} term="Event" className="col-span-2" valueClassName="text-lg font-bold break-words">
            {pass.eventName}
          </Detail>
          <Detail id={`${id}-sport`} term="Sport">
            <Badge>{formatSport(pass.eventType)}</Badge>
          </Detail>
          <Detail id={`${id}-order`} term="Order ID" valueClassName="font-mono text-base font-bold tracking-widest">
            {pass.id}
          </Detail>
          <Detail id={`${id}-time`} term="Timestamp" className="col-span-2" valueClassName="font-medium">
            <time dateTime={pass.purchaseDate}>{pass.timestamp}</time>
          </Detail>
        </dl>
      }
      notice="Show this screen at the event entrance. Your pass is valid once per event, and your name may be checked."
      feedbackUrl={feedbackUrl}
      onBuyAnother={onBuyAnother}
    />
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
