import { useSyncExternalStore } from 'react';
import type { ToasterProps } from 'sonner';

/** sonner lays toasts out across the whole width below 600 px (its styles.css); so does this. */
const PHONE = '(max-width: 600px)';

/** The sticky header is 64 px tall (h-16 in root-layout.tsx); toasts start 16 px below it. */
const BELOW_HEADER = 64 + 16;

function subscribe(changed: () => void): () => void {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', changed);
  return () => query.removeEventListener('change', changed);
}

/**
 * Where toasts appear: never over the header with the logo. On a phone they rise from the bottom
 * (where the thumb is, clear of the page's heading); on wider screens they drop in at the top,
 * below the header.
 */
export function useToasterPlacement(): Pick<ToasterProps, 'position' | 'offset'> {
  const phone = useSyncExternalStore(subscribe, () => window.matchMedia(PHONE).matches, () => false);
  return phone ? { position: 'bottom-center' } : { position: 'top-center', offset: { top: BELOW_HEADER } };
}
