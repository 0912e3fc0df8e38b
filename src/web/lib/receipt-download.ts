import { receiptFileName, receiptText, type Pass } from '../../core/purchase.ts';
import { saveFile } from './save-file.ts';

/** Saves the text receipt ({product}-pass-{id}.txt), verification link included. */
export function downloadReceipt(productName: string, pass: Pass, verificationUrl?: string): void {
  saveFile(new Blob([receiptText(productName, pass, verificationUrl)], { type: 'text/plain;charset=utf-8' }), receiptFileName(productName, pass.id));
}
