import { samplePass } from '../../core/test-support/sample-pass.ts';
import type { PurchaseRecord } from '../purchases/purchase-record.ts';

/** A purchase as the purchase service hands it to the writer or the spool; a test names what differs. */
export function purchaseRecord(
  id: string,
  pass: Partial<PurchaseRecord['pass']> = {},
  rest: Partial<Omit<PurchaseRecord, 'pass'>> = {},
): PurchaseRecord {
  return {
    pass: samplePass({ id, ...pass }),
    passUrl: `http://localhost:3000/pass/${id}.sig`,
    saved: true,
    ...rest,
  };
}
