import { LoaderCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from '../../../lib/toasts.ts';
import { VOID_REASON_MAX } from '../../../../core/api/back-office.ts';
import { ERASED } from '../../../../core/buyer-data.ts';
import { formatCents } from '../../../../core/money.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';
import { failureToReport, type BackOffice } from './purchases-api.ts';
import type { PurchaseRecord } from './purchases-api.ts';

export interface VoidPassDialogProps {
  purchase: PurchaseRecord;
  voidPass: BackOffice['voidPass'];
  onClose: () => void;
}

/**
 * Voiding one pass: a reason (required), whether to refund it, and, for a pass already used at
 * the door, a second step that says when it was used. A modal <dialog>: focus stays inside, Escape
 * cancels, and focus goes back to the button that opened it.
 */
export function VoidPassDialog({ purchase, voidPass, onClose }: VoidPassDialogProps) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [refund, setRefund] = useState(true);
  /** The server's question about a used pass ("used at the door on ..."), once asked. */
  const [usedQuestion, setUsedQuestion] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (reason.trim() === '') {
      setProblem('Please give a reason.');
      return;
    }
    setPending(true);
    setProblem(null);
    const result = await voidPass(purchase, { reason, refund, ...(usedQuestion ? { confirmUsed: true } : {}) });
    setPending(false);
    if (result.ok) return onClose();
    if (result.code === 'pass_used') return setUsedQuestion(result.message);
    const failure = failureToReport(result);
    if (!failure) return onClose();
    const message = failure.message || 'The shop could not be reached. Please try again.';
    if (result.code === 'already_voided') {
      toast.error('Pass not voided', { description: message });
      return onClose();
    }
    if (result.code === 'refund_failed') toast.error('Refund failed', { description: message });
    setProblem(message);
  };

  const problemId = `${id}-problem`;
  return (
    <ModalDialog labelledBy={`${id}-title`} describedBy={`${id}-about`} busy={pending} onCancel={onClose}>
      <form onSubmit={(event) => void submit(event as unknown as Event)} className="flex flex-col gap-4 p-5 sm:p-6" noValidate>
        <h2 id={`${id}-title`} className="text-lg font-bold">
          Void pass {purchase.orderId}
        </h2>
        <p id={`${id}-about`} className="text-sm text-muted-foreground">
          {purchase.erasedAt ? ERASED : `${purchase.name} (${purchase.email})`}, {purchase.eventName}. A void pass is refused at the door
          {purchase.erasedAt ? '.' : ', and the buyer is emailed.'}
        </p>
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-reason`}>Reason</Label>
          <textarea
            id={`${id}-reason`}
            name="reason"
            required
            rows={3}
            maxLength={VOID_REASON_MAX}
            value={reason}
            readOnly={pending}
            onInput={(event) => setReason((event.target as HTMLTextAreaElement).value)}
            aria-invalid={problem === 'Please give a reason.' || undefined}
            aria-describedby={problem ? problemId : undefined}
            placeholder="Bought twice by mistake"
            className="w-full rounded-lg border border-input bg-card px-3 py-2 text-base shadow-xs placeholder:text-muted-foreground focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-ring/40 sm:text-sm"
          />
        </div>
        <div className="flex items-center gap-2">
          <input
            id={`${id}-refund`}
            type="checkbox"
            checked={refund}
            disabled={pending || purchase.amountCents === 0}
            aria-describedby={refund && purchase.amountCents > 0 ? `${id}-refund-note` : undefined}
            onChange={(event) => setRefund((event.target as HTMLInputElement).checked)}
            className="size-4 accent-primary"
          />
          <Label htmlFor={`${id}-refund`}>Refund {formatCents(purchase.amountCents)}</Label>
        </div>
        {refund && purchase.amountCents > 0 && (
          <p id={`${id}-refund-note`} className="-mt-2 text-xs text-muted-foreground">
            If the payment provider does not answer in time, the pass is voided anyway and its refund shows as pending until the
            provider confirms it.
          </p>
        )}
        {usedQuestion && (
          <p role="alert" className="rounded-lg border border-amber-600/40 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {usedQuestion}
          </p>
        )}
        {problem && (
          <p id={problemId} role="alert" className="text-sm font-medium text-destructive">
            {problem}
          </p>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {pending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
            {usedQuestion ? 'Void anyway' : 'Void pass'}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
