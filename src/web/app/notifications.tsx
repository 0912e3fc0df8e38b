import { lazy, Suspense } from 'react';
import { useToastsWanted } from '../lib/toasts.ts';

const AppToaster = lazy(() => import('./toaster.tsx'));

/** Where toasts appear, once the first is asked for (nothing on the server or the first load). */
export function Notifications() {
  return useToastsWanted() ? (
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  ) : null;
}
