/** How many in-app navigations led to the current history entry (0 on a fresh tab). */
export function historyDepth(): number {
  const depth = (window.history.state as { depth?: unknown } | null)?.depth;
  return typeof depth === 'number' ? depth : 0;
}
