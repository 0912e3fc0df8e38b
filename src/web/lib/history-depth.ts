/** What the app's router writes in each history entry it makes or replaces (src/web/app/router.tsx). */
export interface AppHistoryState {
  depth: number;
}

/** How many in-app navigations led to the current history entry (0 on a fresh tab). */
export function historyDepth(): number {
  const depth = (window.history.state as Partial<AppHistoryState> | null)?.depth;
  return typeof depth === 'number' ? depth : 0;
}

/**
 * True when one of our screens led here (a link, a purchase that replaced its form), even at depth 0
 * (a page opened directly whose entry a purchase replaced); false for a page opened from outside.
 */
export function arrivedInApp(): boolean {
  return typeof (window.history.state as Partial<AppHistoryState> | null)?.depth === 'number';
}
