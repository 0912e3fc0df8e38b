/**
 * Counts attempts per key in fixed one-minute windows, in this process. @fastify/rate-limit runs
 * one limiter per request, and the per-IP one is taken, so the per-email limit lives here.
 */
export function attemptLimiter({ max, windowMs, now = Date.now }: { max: number; windowMs: number; now?: () => number }) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    /** Records one attempt; false when the key already used up its window. */
    allow(key: string): boolean {
      const time = now();
      if (windows.size > 10_000) for (const [stale, window] of windows) if (window.resetAt <= time) windows.delete(stale);
      const window = windows.get(key);
      if (!window || window.resetAt <= time) {
        windows.set(key, { count: 1, resetAt: time + windowMs });
        return true;
      }
      window.count++;
      return window.count <= max;
    },
  };
}
