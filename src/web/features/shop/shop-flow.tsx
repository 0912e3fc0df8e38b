import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import { APP_NOTICES } from '../../../core/messages.ts';
import { preloadPage } from '../../app/lazy-page.tsx';
import { historyDepth } from '../../lib/history-depth.ts';
import { useShowBoughtPass } from '../../lib/kept-passes.ts';
import { lazyModule } from '../../lib/lazy-module.ts';
import { toast } from '../../lib/toasts.ts';
import { useScreenFocus } from '../../lib/use-screen-focus.ts';
import { Landing } from './landing.tsx';

type PurchaseSteps = typeof import('./purchase-steps.ts');

const purchaseSteps = lazyModule(() => import('./purchase-steps.ts'));
const prefetch = purchaseSteps.prefetch;

/** The purchase form's URL: a query on `/`, so it is still Home (SPEC's only route for the flow). */
export const FORM_SEARCH = 'buy';

export interface ShopFlowProps {
  /** Shown at the end of the landing screen (the app puts the contact form there). */
  landingFooter?: ReactNode;
}

/**
 * Home (SPEC section 2): landing, then purchase form, then confirmation, each a history entry with
 * its own URL: `/`, `/?buy`, and the pass's own page `/pass/<code>`, which replaces the form's
 * entry (useShowBoughtPass): Back from the pass is the landing.
 * The form's code loads as soon as the visitor touches, points at or focuses anything on the
 * landing, so it is there by the time Get Pass is pressed; the URL changes only once it is, so the
 * new screen's heading takes focus as every screen's does.
 */
export function ShopFlow({ landingFooter }: ShopFlowProps) {
  const [, navigate] = useLocation();
  const wantsForm = new URLSearchParams(useSearch()).has(FORM_SEARCH);
  const [steps, setSteps] = useState<PurchaseSteps | null>(null);
  const step = wantsForm && steps ? 'form' : 'landing';
  const screen = useScreenFocus(step);
  useArrivalFocus();

  const load = useCallback(async () => {
    try {
      const loaded = await purchaseSteps.load();
      setSteps(() => loaded);
      return true;
    } catch {
      toast.error(APP_NOTICES.loadFailed);
      return false;
    }
  }, []);

  // The form's URL opened directly (a reload, Forward): the landing shows until its code is here.
  useEffect(() => {
    if (!wantsForm || steps) return;
    purchaseSteps.load().then(
      (loaded) => setSteps(() => loaded),
      () => toast.error(APP_NOTICES.loadFailed),
    );
  }, [wantsForm, steps]);

  // The pass's page follows the form: its code is here by the time the payment is.
  useEffect(() => {
    if (step === 'form') preloadPage('pass');
  }, [step]);

  const showForm = useCallback(async () => {
    if (await load()) navigate(`/?${FORM_SEARCH}`);
  }, [load, navigate]);

  // The form's Back is the browser's Back when the landing is the entry before; opened on its own, the form gives way to the landing.
  const showLanding = useCallback(() => {
    if (historyDepth() > 0) window.history.back();
    else navigate('/', { replace: true });
  }, [navigate]);

  const showPass = useShowBoughtPass();

  return (
    <div
      ref={screen}
      className="flex flex-1 flex-col"
      onPointerOver={step === 'landing' ? prefetch : undefined}
      onTouchStart={step === 'landing' ? prefetch : undefined}
      onFocus={step === 'landing' ? prefetch : undefined}
    >
      {step === 'form' && steps ? (
        <steps.PurchaseForm onBack={showLanding} onPurchased={showPass} />
      ) : (
        <>
          <Landing onGetPass={() => void showForm()} formSearch={FORM_SEARCH} />
          {landingFooter}
        </>
      )}
    </div>
  );
}

/**
 * Arriving at Home from another screen of ours (Buy Another Pass, Back from a pass) starts at the
 * top with focus on the heading, as every new screen does; a first visit keeps the browser's start.
 */
function useArrivalFocus() {
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    if (historyDepth() === 0) return;
    window.scrollTo({ top: 0 });
    document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
  }, []);
}
