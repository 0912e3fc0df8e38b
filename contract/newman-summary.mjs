// What newman's run summary says about the document: the contract test's verdict (see
// scripts/contract-test.mjs). Kept apart so its rules have tests of their own (newman-summary.test.mjs).

/** (METHOD path) of the document that a request URL path answers to, or undefined. */
function operationMatcher(spec) {
  const operations = [];
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'put', 'post', 'delete', 'patch', 'head', 'options'].includes(method)) continue;
      const responses = operation.responses ?? {};
      // Statuses documented with a body of their own (not the envelope): /healthz's 503 status report.
      const ownBodies = Object.keys(responses).filter((status) => status !== 'default' && !isEnvelopeSchema(responses[status]));
      operations.push({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, pattern, statuses: Object.keys(responses), ownBodies });
    }
  }
  // A literal path wins over a template (/api/admin/purchases.csv before /api/admin/{x}).
  operations.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  return {
    operations,
    find: (method, urlPath) => operations.find((operation) => operation.method === method && operation.pattern.test(urlPath)),
  };
}

/** Whether a documented response's JSON body is the error envelope (by reference, as @fastify/swagger writes it). */
function isEnvelopeSchema(response) {
  const schema = response?.content?.['application/json']?.schema;
  return typeof schema?.$ref === 'string' && schema.$ref.endsWith('/ErrorEnvelope');
}

/** The body of a response in newman's summary (a postman-collection Response). */
const bodyText = (response) => (typeof response.text === 'function' ? response.text() : '') ?? '';

/** Every error answer, documented status or `default`, is `{"error":{"code":string,"message":string}}` and nothing else. */
export function isErrorEnvelope(response) {
  try {
    const body = JSON.parse(bodyText(response));
    return (
      Object.keys(body).length === 1 &&
      typeof body.error?.code === 'string' &&
      typeof body.error.message === 'string' &&
      Object.keys(body.error).length === 2
    );
  } catch {
    return false;
  }
}

/**
 * The problems of a run: requests without an answer, 5xx answers, error answers outside the
 * envelope (except a status the document gives a body of its own, such as /healthz's 503), statuses the document does not list (and has no `default` for), failed assertions, and
 * documented statuses (other than `default`) no request was answered with.
 */
export function analyse(spec, summary) {
  const matcher = operationMatcher(spec);
  const perOperation = new Map(matcher.operations.map((operation) => [operation.key, { operation, requests: 0, answered: new Set() }]));
  const problems = [];
  // newman's summary lists an item again for each pm.sendRequest its scripts made (the same execution, by id).
  const executions = [...new Map(summary.run.executions.map((execution) => [execution.id, execution])).values()];
  for (const execution of executions) {
    const method = execution.request.method;
    const urlPath = `/${execution.request.url.path.join('/')}`;
    const code = execution.response?.code;
    const name = execution.item.name;
    if (code === undefined) {
      problems.push(`no response: ${name} (${method} ${urlPath}): ${execution.requestError?.message ?? 'request failed'}`);
      continue;
    }
    const operation = matcher.find(method, urlPath);
    // A status the document gives a body of its own (a health report) is an answer, not an error.
    const ownBody = operation?.ownBodies.includes(String(code)) ?? false;
    // A gateway or unavailable status the operation documents (502: the payment provider refused a
    // refund; 503: the database and the spool are both away, nothing charged) is its answer about
    // another system, not a fault of the shop; a 500, or a 5xx only `default` covers, is.
    const documentedGateway = [502, 503, 504].includes(code) && (operation?.statuses.includes(String(code)) ?? false);
    if (code >= 500 && !ownBody && !documentedGateway) problems.push(`server error ${code}: ${name} (${method} ${urlPath})`);
    if (code >= 400 && !ownBody && !isErrorEnvelope(execution.response)) {
      problems.push(`error ${code} not in the envelope: ${name} (${method} ${urlPath}): ${bodyText(execution.response).slice(0, 200)}`);
    }
    if (!operation) {
      problems.push(`not in the document: ${name} (${method} ${urlPath}) answered ${code}`);
      continue;
    }
    const entry = perOperation.get(operation.key);
    entry.requests += 1;
    entry.answered.add(String(code));
    if (!operation.statuses.includes(String(code)) && !operation.statuses.includes('default')) {
      problems.push(`undocumented status ${code}: ${name} (${operation.key})`);
    }
  }
  for (const failure of summary.run.failures) {
    problems.push(`failed: ${failure.source?.name ?? '?'}: ${failure.error.test ?? failure.error.name}: ${failure.error.message}`);
  }
  const uncovered = [];
  for (const { operation, answered } of perOperation.values()) {
    for (const status of operation.statuses) if (status !== 'default' && !answered.has(status)) uncovered.push(`${operation.key} ${status}`);
  }
  for (const missing of uncovered) problems.push(`documented but never answered: ${missing}`);
  return { perOperation, problems, requests: executions.length };
}

/** One row per operation: requests, statuses answered of those documented (! marks one never answered). */
export function printTable({ perOperation, requests: total }, summary) {
  const rows = [...perOperation.values()].map(({ operation, requests, answered }) => {
    const covered = operation.statuses.filter((status) => status === 'default' || answered.has(status)).length;
    return [operation.key, String(requests), `${covered}/${operation.statuses.length}`, operation.statuses.map((status) => (status === 'default' || answered.has(status) ? status : `!${status}`)).join(' ')];
  });
  const header = ['operation', 'requests', 'statuses', 'documented (! = never answered)'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, column) => cell.padEnd(widths[column])).join('  '));
  const stats = summary.run.stats;
  const statuses = rows.reduce((sum, row) => sum + Number(row[2].split('/')[0]), 0);
  const documented = rows.reduce((sum, row) => sum + Number(row[2].split('/')[1]), 0);
  console.log(
    `operations ${rows.length}, requests ${total} (and ${stats.requests.total - total} from scripts), assertions ${stats.assertions.total} (${stats.assertions.failed} failed), statuses covered ${statuses}/${documented}`,
  );
}
