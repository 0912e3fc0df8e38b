import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toasts.ts';
import { resendConfirmation, voidPass, type VoidPassBody } from '../../../../core/api/back-office.ts';
import { formatCents } from '../../../../core/money.ts';
import { call, failureToReport, type ApiFailure, type ApiResult } from '../../../lib/api-client.ts';
import { refreshAdmin } from '../admin-api.ts';
import type { PurchaseRecord } from './purchases-api.ts';

/** What a failure says in a toast: the server's message, or that the shop could not be reached. */
function describe(failure: ApiFailure): string | undefined {
  return failure.message || (failure.kind === 'network' ? 'The shop could not be reached.' : undefined);
}

/** The toast of a void: what happened, and whether money went back. */
export function voidedNotice(orderId: string, refundedCents: number): { title: string; description: string } {
  return {
    title: refundedCents > 0 ? 'Pass voided and refunded' : 'Pass voided',
    description:
      refundedCents > 0
        ? `Pass ${orderId} is void; ${formatCents(refundedCents)} was refunded. The buyer is being emailed.`
        : `Pass ${orderId} is void. The buyer is being emailed.`,
  };
}

/**
 * Voiding a pass and sending its confirmation again. Both read the admin figures and lists again
 * afterwards, so the badge and the stat cards move at once. `voidPass` hands its result back: the
 * dialog shows a used pass's question or a refusal in place.
 */
export function useBackOffice() {
  const queryClient = useQueryClient();

  const voiding = useMutation({
    mutationFn: ({ purchase, body }: { purchase: PurchaseRecord; body: VoidPassBody }) =>
      call(voidPass, { params: { orderId: purchase.orderId }, body }),
    onSuccess: (result) => {
      if (result.ok) {
        const notice = voidedNotice(result.data.orderId, result.data.refundedCents);
        toast.success(notice.title, { description: notice.description });
      }
      // A pass someone else voided meanwhile shows as voided too.
      if (result.ok || result.code === 'already_voided') refreshAdmin(queryClient);
    },
  });

  const resending = useMutation({
    mutationFn: (purchase: PurchaseRecord) => call(resendConfirmation, { params: { orderId: purchase.orderId } }),
    onSuccess: (result: ApiResult<unknown>, purchase) => {
      if (result.ok) {
        toast.success('Confirmation sent again', { description: `It will reach ${purchase.email} shortly.` });
        return;
      }
      const failure = failureToReport(result);
      if (failure) toast.error('Confirmation not sent', { description: describe(failure) });
      if (result.code === 'pass_voided') refreshAdmin(queryClient);
    },
  });

  return {
    voidPass: (purchase: PurchaseRecord, body: VoidPassBody) => voiding.mutateAsync({ purchase, body }),
    resend: (purchase: PurchaseRecord) => void resending.mutateAsync(purchase),
    /** The order ID whose confirmation is being sent, to disable its button meanwhile. */
    resendingOrderId: resending.isPending ? resending.variables?.orderId : undefined,
  };
}

export type BackOffice = ReturnType<typeof useBackOffice>;
