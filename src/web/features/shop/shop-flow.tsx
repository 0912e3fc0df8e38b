import { useCallback, useState, type ReactNode } from 'react';
import { toast } from '../../lib/toasts.ts';
import { APP_NOTICES } from '../../../core/messages.ts';
import type { SoldPass } from '../../components/purchase/use-purchase.ts';
import { lazyModule } from '../../lib/lazy-module.ts';
import { useScreenFocus } from '../../lib/use-screen-focus.ts';
import { Landing } from './landing.tsx';

type PurchaseSteps = typeof import('./purchase-steps.ts');
type Step = { name: 'landing' } | { name: 'form'; steps: PurchaseSteps } | { name: 'confirmation'; steps: PurchaseSteps; sold: SoldPass };

const purchaseSteps = lazyModule(() => import('./purchase-steps.ts'));
const prefetch = purchaseSteps.prefetch;

export interface ShopFlowProps {
  productName: string;
  feedbackUrl: string;
  /** Shown at the end of the landing screen (the app puts the contact form there). */
  landingFooter?: ReactNode;
}

/**
 * Home (SPEC section 2): landing, then purchase form, then confirmation; all local state. The
 * form's code loads as soon as the visitor touches, points at or focuses anything on the landing, so
 * it is there by the time Get Pass is pressed; the step changes only once it is, so the new
 * screen's heading takes focus as every screen's does.
 */
export function ShopFlow({ productName, feedbackUrl, landingFooter }: ShopFlowProps) {
  const [step, setStep] = useState<Step>({ name: 'landing' });
  const screen = useScreenFocus(step);

  const showLanding = useCallback(() => setStep({ name: 'landing' }), []);
  const showForm = useCallback(async () => {
    try {
      const steps = await purchaseSteps.load();
      setStep({ name: 'form', steps });
    } catch {
      toast.error(APP_NOTICES.loadFailed);
    }
  }, []);

  return (
    <div
      ref={screen}
      className="flex flex-1 flex-col"
      onPointerOver={step.name === 'landing' ? prefetch : undefined}
      onTouchStart={step.name === 'landing' ? prefetch : undefined}
      onFocus={step.name === 'landing' ? prefetch : undefined}
    >
      {step.name === 'landing' && (
        <>
          <Landing onGetPass={() => void showForm()} />
          {landingFooter}
        </>
      )}
      {step.name === 'form' && (
        <step.steps.PurchaseForm onBack={showLanding} onPurchased={(sold) => setStep({ name: 'confirmation', steps: step.steps, sold })} />
      )}
      {step.name === 'confirmation' && (
        <step.steps.Confirmation sold={step.sold} productName={productName} feedbackUrl={feedbackUrl} onBuyAnother={showLanding} />
      )}
    </div>
  );
}
