// Where a purchase waited on the database as the shop itself timed it: the /metrics histograms of
// its gate (before the payment) and its store (after it), summed over the instances. The bench's
// own latencies also hold the wait in sockets and the load generator's loop; these do not
// (ADR 0034). The payment's and the whole request's histograms have buckets too coarse around a
// 2 s payment to say more than the bench measures itself.

/** The series the rush reads, by the name it prints: [metric, its labels]. @type {Record<string, [string, string]>} */
const SERIES = {
  gate: ['skippass_purchase_step_duration_seconds', 'step="gate"'],
  store: ['skippass_purchase_step_duration_seconds', 'step="store"'],
};

/**
 * Cumulative bucket counts of one histogram series in Prometheus text, by upper bound (seconds).
 * @param {string} text
 * @param {string} name
 * @param {string} labels the series' labels other than `le`, in the order the text writes them
 * @returns {Map<number, number>}
 */
function bucketsOf(text, name, labels) {
  const buckets = new Map();
  for (const [, inner, count] of text.matchAll(new RegExp(`^${name}_bucket\\{([^}]*)\\} (\\S+)$`, 'gm'))) {
    // prom-client writes `le` first; the rest must be exactly this series' labels.
    const le = /(?:^|,)le="([^"]+)"/.exec(inner ?? '')?.[1];
    const rest = (inner ?? '').replace(/(?:^|,)le="[^"]+"/, '').replace(/^,/, '');
    if (le !== undefined && rest === labels) buckets.set(le === '+Inf' ? Infinity : Number(le), Number(count));
  }
  return buckets;
}

/**
 * The bucket bound under which fraction q of the observations fell (a histogram knows no finer).
 * @param {Map<number, number>} buckets cumulative counts by upper bound
 * @param {number} q
 */
function bucketBound(buckets, q) {
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const total = buckets.get(Infinity) ?? 0;
  if (total === 0) return null;
  return bounds.find((bound) => (buckets.get(bound) ?? 0) >= q * total) ?? Infinity;
}

/**
 * Reads each instance's /metrics (the bench connects from 127.0.0.1, which METRICS_ALLOW lets in)
 * and answers, per step, how many purchases it timed and the bucket bounds of its p50 and p99.
 * @param {string[]} urls the instances' base URLs
 */
export async function shopTimings(urls) {
  const texts = await Promise.all(
    urls.map(async (url) => {
      const response = await fetch(`${url}/metrics`);
      if (!response.ok) throw new Error(`GET ${url}/metrics answered ${response.status}`);
      return response.text();
    }),
  );
  /** @type {Record<string, { count: number, p50: number | null, p99: number | null, top: number }>} */
  const timings = {};
  for (const [step, [name, labels]] of Object.entries(SERIES)) {
    /** @type {Map<number, number>} */
    const summed = new Map();
    for (const text of texts) {
      for (const [bound, count] of bucketsOf(text, name, labels)) summed.set(bound, (summed.get(bound) ?? 0) + count);
    }
    const top = Math.max(...[...summed.keys()].filter(Number.isFinite));
    timings[step] = { count: summed.get(Infinity) ?? 0, p50: bucketBound(summed, 0.5), p99: bucketBound(summed, 0.99), top };
  }
  return timings;
}

/**
 * One line for the report: "gate p50 <= 0.05 s, p99 <= 0.5 s (5000); store ...".
 * @param {Awaited<ReturnType<typeof shopTimings>>} timings
 */
export function describeTimings(timings) {
  const bound = (/** @type {number | null} */ seconds, /** @type {number} */ top) =>
    seconds === null ? '-' : seconds === Infinity ? `> ${top} s` : `<= ${seconds} s`;
  return Object.entries(timings)
    .map(([step, { count, p50, p99, top }]) => `${step} p50 ${bound(p50, top)}, p99 ${bound(p99, top)} (${count})`)
    .join('; ');
}
