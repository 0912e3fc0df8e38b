import { useSyncExternalStore } from 'react';

/** Tailwind's `md` breakpoint (48rem): from here up the admin lists are tables, below it cards. */
const WIDE = '(min-width: 48rem)';

const subscribe = (onChange: () => void) => {
  if (typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(WIDE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};

const isWide = () => (typeof window.matchMedia === 'function' ? window.matchMedia(WIDE).matches : true);

/**
 * True on a screen wide enough for the admin tables. The lists render one view or the other, not
 * both hidden by CSS, so each record (and each empty or loading text) is in the page once.
 */
export function useWideScreen(): boolean {
  return useSyncExternalStore(subscribe, isWide, () => true);
}
