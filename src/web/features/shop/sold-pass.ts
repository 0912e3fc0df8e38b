import type { Pass } from '../../../core/purchase.ts';

/** What the confirmation holds: the pass and the signed link its QR code carries. */
export interface SoldPass {
  pass: Pass;
  verificationUrl: string;
}
