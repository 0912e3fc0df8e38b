import { useQueryClient } from '@tanstack/react-query';
import { eraseBuyerData, exportBuyerData } from '../../../../core/api/buyer-data.ts';
import { call, failureToReport, type ApiResult } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { refreshAdmin } from '../admin-api.ts';

/** The panel tells a refusal the way every screen does. */
export { failureToReport, type ApiResult };

/** The file one buyer's export is saved as: the day, not the address (a downloads folder is no place for it). */
export function exportFileName(now = new Date()): string {
  return `buyer-data-${now.toISOString().slice(0, 10)}.json`;
}

/** Staff's export and erasure of one buyer (ADR 0032). Each answers the call's result; the panel tells it. */
export function useBuyerData() {
  const queryClient = useQueryClient();
  return {
    async exportJson(email: string) {
      const result = await call(exportBuyerData, { body: { email } });
      if (result.ok) saveFile(new Blob([JSON.stringify(result.data, null, 2)], { type: 'application/json' }), exportFileName());
      return result;
    },
    async erase(email: string) {
      const result = await call(eraseBuyerData, { body: { email } });
      // The list, figures and logs show the erasure at once.
      if (result.ok) refreshAdmin(queryClient);
      return result;
    },
  };
}
