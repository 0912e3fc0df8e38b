import { receiptFileName, receiptText, type Pass } from '../../core/purchase.ts';
import { saveFile } from './save-file.ts';

/**
 * Saves the text receipt ({product}-pass-{id}.txt), verification link included. A pass opened from
 * its link in another browser has no email (the pass page does not give it out): its receipt has
 * no Email line rather than an empty one.
 */
export function downloadReceipt(productName: string, pass: Omit<Pass, 'email'> & { email?: string }, passUrl?: string): void {
  const email = pass.email ?? '';
  let text = receiptText(productName, { ...pass, email }, passUrl);
  if (!email) text = text.replace(/^Email: \n/m, '');
  saveFile(new Blob([text], { type: 'text/plain;charset=utf-8' }), receiptFileName(productName, pass.id));
}
