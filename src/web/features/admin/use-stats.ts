import { useEffect, useState } from 'react';
import { fetchStats, type PurchaseStats } from './admin-api.ts';
import { reportLoadFailure } from './load-failure.ts';

/** The four summary figures; loaded again whenever `refreshToken` changes. */
export function useStats(refreshToken: number) {
  const [stats, setStats] = useState<PurchaseStats | null>(null);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    void fetchStats({ signal: controller.signal }).then((result) => {
      if (controller.signal.aborted) return;
      setLoading(false);
      if (result.ok) setStats(result.data);
      else reportLoadFailure(result);
    });
    return () => controller.abort();
  }, [refreshToken]);

  return { stats, loading };
}
