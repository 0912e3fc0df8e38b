import { useState } from 'react';
import { toast } from 'sonner';
import { fileSlug } from '../../../core/purchase.ts';
import { ADMIN_NOTICES } from '../../../core/staff-messages.ts';
import { refreshSession } from '../../lib/session.ts';
import { fetchPurchasesCsv } from './admin-api.ts';

function today(): string {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Hands a blob to the browser as a download with the given file name. */
function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob after click() returns; give them time before releasing it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Export CSV: the server's streamed file, saved under the server's file name. */
export function useCsvExport(productName: string) {
  const [exporting, setExporting] = useState(false);

  const exportCsv = async () => {
    if (exporting) return;
    setExporting(true);
    const result = await fetchPurchasesCsv();
    setExporting(false);
    if (!result.ok) {
      if (result.kind === 'unauthorized') void refreshSession();
      toast.error(ADMIN_NOTICES.exportFailed, { description: result.message || undefined });
      return;
    }
    const fileName = result.data.fileName ?? `${fileSlug(productName)}-purchases-${today()}.csv`;
    saveBlob(result.data.blob, fileName);
    toast.success(ADMIN_NOTICES.exportComplete, { description: `Saved ${fileName}` });
  };

  return { exporting, exportCsv };
}
