import { Wallet } from 'lucide-react';
import type { PassPage } from '../../../core/api/pass-page.ts';
import { buttonVariants } from '../../components/ui/button.tsx';

/** Add to Apple Wallet and Save to Google Wallet, each only when the shop has that wallet's keys. */
export function WalletLinks({ wallet }: { wallet: PassPage['wallet'] }) {
  if (!wallet.apple && !wallet.google) return null;
  const look = buttonVariants({ variant: 'outline', className: 'w-full' });
  return (
    <div className="grid gap-2 px-4 pt-6 sm:grid-cols-2 sm:px-6 print:hidden">
      {wallet.apple && (
        <a href={wallet.apple} className={look}>
          <Wallet aria-hidden="true" />
          Add to Apple Wallet
        </a>
      )}
      {wallet.google && (
        <a href={wallet.google} className={look} rel="noopener noreferrer">
          <Wallet aria-hidden="true" />
          Save to Google Wallet
        </a>
      )}
    </div>
  );
}
