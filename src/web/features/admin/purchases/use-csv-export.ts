import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { exportPurchases } from '../../../../core/api/staff.ts';
import { fileSlug } from '../../../../core/purchase.ts';
import { ADMIN_NOTICES } from '../../../../core/staff-messages.ts';
import { download } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/save-file.ts';

function today(): string {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Export CSV: the server's streamed file, saved under the server's file name. */
export function useCsvExport(productName: string) {
  const { mutateAsync: fetchCsv, isPending: exporting } = useMutation({ mutationFn: () => download(exportPurchases, {}) });

  const exportCsv = async () => {
    if (exporting) return;
    const result = await fetchCsv();
    if (!result.ok) {
      toast.error(ADMIN_NOTICES.exportFailed, { description: result.message || undefined });
      return;
    }
    const fileName = result.data.fileName ?? `${fileSlug(productName)}-purchases-${today()}.csv`;
    saveFile(result.data.blob, fileName);
    toast.success(ADMIN_NOTICES.exportComplete, { description: `Saved ${fileName}` });
  };

  return { exporting, exportCsv };
}
