import { Download, LoaderCircle, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { buyerAddressSchema, BUYER_DATA_TEXTS as TEXT } from '../../../../core/buyer-data.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { EMAIL_INPUT, Field } from '../../../components/ui/field.tsx';
import { FormError } from '../../../components/ui/form-error.tsx';
import { toast } from '../../../lib/toasts.ts';
import { failureToReport, useBuyerData, type ApiResult } from './buyer-data-api.ts';

type Busy = 'export' | 'erase' | null;

/**
 * The Buyer data tab (ADR 0032): one address, its data exported as a JSON file, or erased after a
 * confirmation that names the address.
 */
export function BuyerDataPanel() {
  const id = useId();
  const errorId = `${id}-error`;
  const buyerData = useBuyerData();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [confirming, setConfirming] = useState<string | null>(null);

  /** The address as the server will read it, or null with the form's message shown. */
  const checked = (): string | null => {
    const parsed = buyerAddressSchema.safeParse({ email });
    if (parsed.success) return parsed.data.email;
    setProblem(parsed.error.issues[0]?.message ?? TEXT.failed);
    return null;
  };

  /** Says how a call went wrong, if it did; answers whether it succeeded. */
  const told = <T,>(result: ApiResult<T>): result is { ok: true; data: T } => {
    if (result.ok) return true;
    const failure = failureToReport(result);
    if (failure) setProblem(failure.message || TEXT.failed);
    return false;
  };

  const exportJson = async () => {
    const address = checked();
    if (!address) return;
    setProblem(null);
    setBusy('export');
    const result = await buyerData.exportJson(address);
    setBusy(null);
    if (!told(result)) return;
    const found = result.data.purchases.length + result.data.mails.length + result.data.contactRequests.length + result.data.heldPurchases.length;
    if (found === 0) toast.warning(TEXT.nothingFound);
    else toast.success(TEXT.exported);
  };

  const erase = async (address: string) => {
    setBusy('erase');
    const result = await buyerData.erase(address);
    setBusy(null);
    setConfirming(null);
    if (!told(result)) return;
    const { passes, mails, contactRequests, heldPurchases } = result.data;
    if (passes + mails + contactRequests + heldPurchases === 0) toast.warning(TEXT.nothingFound);
    else toast.success(TEXT.erased(passes + heldPurchases));
    setEmail('');
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{TEXT.title}</CardTitle>
        <CardDescription>{TEXT.intro}</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          aria-label={TEXT.title}
          aria-describedby={problem ? errorId : undefined}
          className="flex max-w-xl flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            void exportJson();
          }}
        >
          <Field
            id={`${id}-email`}
            label={TEXT.emailLabel}
            {...EMAIL_INPUT}
            autoComplete="off"
            required
            readOnly={busy !== null}
            value={email}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? errorId : undefined}
            onChange={(event) => {
              setEmail(event.target.value);
              setProblem(null);
            }}
          />
          <FormError id={errorId} message={problem} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={busy !== null}>
              {busy === 'export' ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />}
              {busy === 'export' ? TEXT.exporting : TEXT.exportButton}
            </Button>
            <Button
              variant="outline"
              className="border-destructive/40 text-destructive"
              disabled={busy !== null}
              onClick={() => {
                const address = checked();
                if (address) setConfirming(address);
              }}
            >
              <Trash2 aria-hidden="true" />
              {TEXT.eraseButton}
            </Button>
          </div>
        </form>
      </CardContent>
      {confirming && <ConfirmErasure email={confirming} erasing={busy === 'erase'} onConfirm={() => void erase(confirming)} onCancel={() => setConfirming(null)} />}
    </Card>
  );
}

/** The confirmation: a modal <dialog> naming the address; Escape or Cancel keeps everything. */
function ConfirmErasure({ email, erasing, onConfirm, onCancel }: { email: string; erasing: boolean; onConfirm: () => void; onCancel: () => void }) {
  const id = useId();
  return (
    <ModalDialog labelledBy={`${id}-title`} describedBy={`${id}-about`} busy={erasing} onCancel={onCancel}>
      <div className="flex flex-col gap-4 p-5 sm:p-6">
        <h2 id={`${id}-title`} className="text-lg font-bold">
          {TEXT.confirmTitle}
        </h2>
        <p id={`${id}-about`} className="text-sm text-muted-foreground wrap-anywhere">
          {TEXT.confirmText(email)}
        </p>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={onCancel} disabled={erasing}>
            {TEXT.cancel}
          </Button>
          <Button className="bg-destructive text-white hover:bg-destructive/90" onClick={onConfirm} disabled={erasing}>
            {erasing && <LoaderCircle className="animate-spin" aria-hidden="true" />}
            {erasing ? TEXT.erasing : TEXT.confirmButton}
          </Button>
        </div>
      </div>
    </ModalDialog>
  );
}
