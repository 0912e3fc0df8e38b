import { useEffect } from 'react';
import { toast, Toaster } from 'sonner';
import { toasterReady } from '../lib/toasts.ts';
import { TOASTER_PLACEMENT } from './toaster-placement.ts';

/** sonner's Toaster, loaded with the first toast (lib/toasts.ts). */
export default function AppToaster() {
  // Children's effects run first: the Toaster listens before the waiting toasts are shown.
  useEffect(() => toasterReady(toast), []);
  return <Toaster richColors closeButton duration={4000} {...TOASTER_PLACEMENT} />;
}
