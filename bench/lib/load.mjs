// Runs autocannon in-process and returns the few figures the benches compare.
//
// Two details matter for honest numbers:
// - autocannon's duration mode stops by destroying every socket, so requests in flight at the end
//   are neither answered nor counted, yet the server may still store them. We instead end a timed
//   run by letting each connection finish its current request and send no more (a drain), so
//   "responses with 201" and "rows in the database" can be compared exactly.
// - autocannon stops on a 1 s sampling tick, so its own duration and req/s average are coarse.
//   We time from the start to the last response ourselves and keep every latency for exact
//   percentiles; autocannon's HDR histogram figures are reported alongside for comparison.
import autocannon from 'autocannon';

/** Upper bound on how long a drain may take before autocannon's own timer cuts it off. */
const DRAIN_LIMIT_SECONDS = 60;

/**
 * keyed: every request carries an Idempotency-Key of its own, as the shop's pages send (autocannon's
 * idReplacement puts a fresh id where the header says `[<id>]`).
 * answers: each answer is read (status plus the error envelope's error.code, e.g. "409 sold_out")
 * and the result gains `answers`: a count and latency percentiles per kind of answer.
 * @param {{ url: string, path?: string, method?: string, body?: unknown, headers?: Record<string, string>, connections?: number,
 *   durationSec?: number, amount?: number, timeoutSec?: number, timeline?: boolean, keyed?: boolean, answers?: boolean }} options exactly one of durationSec and amount
 */
export async function runLoad({
  url,
  path = '/',
  method = 'GET',
  body,
  headers = {},
  connections = 10,
  durationSec,
  amount,
  timeoutSec = 10,
  timeline = false,
  keyed = false,
  answers = false,
}) {
  if (!durationSec === !amount) throw new Error('runLoad needs exactly one of durationSec or amount');
  const clients = [];
  const latencies = [];
  const completions = []; // ms since start of each response, for the rush's timeline
  // A connection's first request also pays for its TCP connect and for arriving together with
  // every other connection's first request; splitting it out shows where a tail comes from.
  const answeredPerClient = new Map();
  const firstLatencies = [];
  const laterLatencies = [];
  const statusCounts = {};
  /** Latencies per kind of answer ("201", "409 sold_out"), when `answers` is on. */
  const latenciesByAnswer = new Map();
  /** The kind of the answer autocannon just read: its onResponse runs right before its 'response' event. */
  let lastAnswer = '';
  let sent = 0;
  let lastResponseAt = 0;

  const options = {
    url: new URL(path, url).toString(),
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(keyed ? { 'idempotency-key': '[<id>]' } : {}),
      ...headers,
    },
    idReplacement: keyed,
    connections,
    timeout: timeoutSec,
    // One connection per autocannon client and no pipelining: each request waits for its answer,
    // the way a browser's purchase does.
    pipelining: 1,
    setupClient(client) {
      clients.push(client);
      client.on('request', () => {
        sent += 1;
      });
    },
  };
  if (body !== undefined) options.body = typeof body === 'string' ? body : JSON.stringify(body);
  if (answers) {
    options.requests = [
      {
        onResponse(status, responseBody) {
          let code = '';
          if (status >= 400) {
            try {
              code = JSON.parse(responseBody)?.error?.code ?? '';
            } catch {
              code = 'unreadable';
            }
          }
          lastAnswer = code ? `${status} ${code}` : String(status);
        },
      },
    ];
  }
  if (amount) options.amount = amount;
  else if (durationSec) options.duration = durationSec + DRAIN_LIMIT_SECONDS;

  const startedAt = performance.now();
  const instance = autocannon(options);
  // autocannon creates every connection (and queues its first request, starting that request's
  // latency clock) synchronously inside this call: at 1,000 connections that takes a noticeable
  // while, which then shows up in the first requests' latency. Report it so it can be told apart.
  const setupMs = performance.now() - startedAt;
  instance.on('response', (client, statusCode, _bytes, responseTime) => {
    statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
    latencies.push(responseTime);
    const answered = answeredPerClient.get(client) ?? 0;
    answeredPerClient.set(client, answered + 1);
    (answered === 0 ? firstLatencies : laterLatencies).push(responseTime);
    lastResponseAt = performance.now();
    if (timeline) completions.push(lastResponseAt - startedAt);
    if (answers) {
      const kind = lastAnswer || String(statusCode);
      const list = latenciesByAnswer.get(kind) ?? [];
      list.push(responseTime);
      latenciesByAnswer.set(kind, list);
      lastAnswer = '';
    }
  });

  let drainTimer;
  if (durationSec) {
    drainTimer = setTimeout(() => {
      // Each client destroys itself after the response to the request it has in flight.
      for (const client of clients) client.responseMax = Math.max(client.reqsMade, 1);
    }, durationSec * 1000);
  }

  const result = await instance;
  clearTimeout(drainTimer);

  const responses = latencies.length;
  const elapsedMs = (lastResponseAt || performance.now()) - startedAt;
  const summary = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const pct = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);
    return { count: sorted.length, p50: pct(50), p90: pct(90), p99: pct(99), max: sorted.at(-1) ?? NaN, mean: mean(sorted) };
  };
  const ok = Object.entries(statusCounts)
    .filter(([code]) => code.startsWith('2'))
    .reduce((sum, [, n]) => sum + n, 0);

  return {
    connections,
    responses,
    ok,
    statusCounts,
    sent,
    unanswered: sent - responses,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    elapsedMs,
    setupMs,
    rps: responses / (elapsedMs / 1000),
    ...(timeline ? { completions } : {}),
    latency: summary(latencies),
    firstRequestLatency: summary(firstLatencies),
    laterRequestLatency: summary(laterLatencies),
    ...(answers ? { answers: Object.fromEntries([...latenciesByAnswer].map(([kind, values]) => [kind, summary(values)])) } : {}),
    autocannon: {
      rpsAverage: result.requests.average,
      latencyP50: result.latency.p50,
      latencyP99: result.latency.p99,
      latencyMax: result.latency.max,
      durationSeconds: result.duration,
    },
  };
}

function mean(values) {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN;
}
