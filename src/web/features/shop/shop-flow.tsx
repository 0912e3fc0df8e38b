import { useCallback, useState, type ReactNode } from 'react';
import type { SoldPass } from '../../components/purchase/use-purchase.ts';
import { useScreenFocus } from '../../lib/use-screen-focus.ts';
import { Confirmation } from './confirmation.tsx';
import { Landing } from './landing.tsx';
import { PurchaseForm } from './purchase-form.tsx';

type Step = { name: 'landing' } | { name: 'form' } | { name: 'confirmation'; sold: SoldPass };

export interface ShopFlowProps {
  productName: string;
  feedbackUrl: string;
  /** Shown at the end of the landing screen (the app puts the contact form there). */
  landingFooter?: ReactNode;
}

/** Home (SPEC section 2): landing, then purchase form, then confirmation; all local state. */
export function ShopFlow({ productName, feedbackUrl, landingFooter }: ShopFlowProps) {
  const [step, setStep] = useState<Step>({ name: 'landing' });
  const screen = useScreenFocus(step);

  const showLanding = useCallback(() => setStep({ name: 'landing' }), []);
  const showForm = useCallback(() => setStep({ name: 'form' }), []);
  const showPass = useCallback((sold: SoldPass) => setStep({ name: 'confirmation', sold }), []);

  return (
    <div ref={screen} className="flex flex-1 flex-col">
      {step.name === 'landing' && (
        <>
          <Landing onGetPass={showForm} />
          {landingFooter}
        </>
      )}
      {step.name === 'form' && <PurchaseForm onBack={showLanding} onPurchased={showPass} />}
      {step.name === 'confirmation' && (
        <Confirmation sold={step.sold} productName={productName} feedbackUrl={feedbackUrl} onBuyAnother={showLanding} />
      )}
    </div>
  );
}
