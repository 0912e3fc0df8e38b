import type { ToasterProps } from 'sonner';

/** The sticky header is 64 px tall (h-16 in root-layout.tsx): toasts start below it, never over the logo. */
const HEADER = 64;

/**
 * Where toasts appear: at the top, just below the header, on every screen size (sonner lays them
 * across the whole width below 600 px, with `mobileOffset`). On a phone they used to rise from the
 * bottom, and there they covered what a buyer looks at and taps last: the pay button, the pass's
 * Order ID and Timestamp, Buy Another Pass, Get in Touch's Send. The top of a screen holds its
 * heading, which the toast's own words stand in for while it is shown.
 */
export const TOASTER_PLACEMENT = {
  position: 'top-center',
  offset: { top: HEADER + 16 },
  mobileOffset: { top: HEADER + 8 },
} as const satisfies Pick<ToasterProps, 'position' | 'offset' | 'mobileOffset'>;
