import { receiptFileName, receiptText, type Pass } from '../../core/purchase.ts';

/** Saves the text receipt ({product}-pass-{id}.txt), verification link included, through a temporary object URL. */
export function downloadReceipt(productName: string, pass: Pass, verificationUrl?: string): void {
  const blob = new Blob([receiptText(productName, pass, verificationUrl)], { type: 'text/plain;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = receiptFileName(productName, pass.id);
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
