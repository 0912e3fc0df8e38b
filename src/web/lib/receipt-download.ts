import { receiptFileName, receiptText, type Pass } from '../../core/purchase.ts';
import { saveFile } from './save-file.ts';

/** Saves the text receipt ({product}-pass-{id}.txt), verification link included. */
export function downloadReceipt(productName: string, pass: Pass, passUrl?: string): void {
  saveFile(new Blob([receiptText(productName, pass, passUrl)], { type: 'text/plain;charset=utf-8' }), receiptFileName(productName, pass.id));
}
