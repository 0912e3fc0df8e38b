// The contract test's verdict, on made-up newman summaries: run by npm run test:contract before the real run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyse } from './newman-summary.mjs';

const envelope = JSON.stringify({ error: { code: 'not_found', message: 'Event not found.' } });

/** A documented response whose body is the envelope, by reference, as @fastify/swagger writes it. */
const inEnvelope = { content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } };

const spec = {
  paths: {
    '/api/events/{id}': { get: { responses: { 200: {}, 404: inEnvelope, default: inEnvelope } } },
    '/api/admin/purchases.csv': { get: { responses: { 200: {} } } },
    '/api/admin/{list}': { get: { responses: { 200: {} } } },
  },
};

let nextId = 0;
function execution(method, path, code, body = '{}', id = `e${nextId++}`) {
  return {
    id,
    item: { name: `${method} ${path}` },
    request: { method, url: { path: path.split('/').slice(1) } },
    response: { code, text: () => body },
  };
}

const summaryOf = (executions, failures = []) => ({ run: { executions, failures, stats: {} } });

const passing = () => [
  execution('GET', '/api/events/1', 200),
  execution('GET', '/api/events/999', 404, envelope),
  execution('GET', '/api/admin/purchases.csv', 200, 'a,b'),
  execution('GET', '/api/admin/stats', 200),
];

test('a run that answers every documented status, errors in the envelope, has no problems', () => {
  const { problems, requests } = analyse(spec, summaryOf(passing()));
  assert.deepEqual(problems, []);
  assert.equal(requests, 4);
});

test('a documented status no request was answered with is a problem; default is not required', () => {
  const { problems } = analyse(spec, summaryOf(passing().filter((run) => run.response.code !== 404)));
  assert.deepEqual(problems, ['documented but never answered: GET /api/events/{id} 404']);
});

test('a 5xx is a problem even where default documents it', () => {
  const { problems } = analyse(spec, summaryOf([...passing(), execution('GET', '/api/events/2', 503, envelope)]));
  assert.deepEqual(problems, ['server error 503: GET /api/events/2 (GET /api/events/2)']);
});

test('a 502 the operation documents (an upstream refused) is an answer; undocumented, it is a problem', () => {
  const refundSpec = { paths: { '/api/admin/purchases/{orderId}/void': { post: { responses: { 200: {}, 502: inEnvelope, default: inEnvelope } } } } };
  const refused = JSON.stringify({ error: { code: 'refund_failed', message: 'The refund did not go through.' } });
  const answered = [execution('POST', '/api/admin/purchases/ABC/void', 200), execution('POST', '/api/admin/purchases/DEF/void', 502, refused)];
  assert.deepEqual(analyse(refundSpec, summaryOf(answered)).problems, []);
  const { problems } = analyse(spec, summaryOf([...passing(), execution('GET', '/api/events/5', 502, envelope)]));
  assert.deepEqual(problems, ['server error 502: GET /api/events/5 (GET /api/events/5)']);
});

test('a 503 the operation documents (database and spool away) is an answer; undocumented, it is a problem', () => {
  const buySpec = { paths: { '/api/purchases': { post: { responses: { 201: {}, 503: inEnvelope, default: inEnvelope } } } } };
  const away = JSON.stringify({ error: { code: 'unavailable', message: 'The shop is temporarily unavailable.' } });
  const answered = [execution('POST', '/api/purchases', 201), execution('POST', '/api/purchases', 503, away)];
  assert.deepEqual(analyse(buySpec, summaryOf(answered)).problems, []);
});

test('an error answer outside the envelope is a problem', () => {
  const extraField = JSON.stringify({ error: { code: 'x', message: 'y' }, detail: 1 });
  const { problems } = analyse(spec, summaryOf([...passing(), execution('GET', '/api/events/3', 404, extraField), execution('GET', '/api/events/4', 404, 'Not Found')]));
  assert.equal(problems.length, 2);
  assert.match(problems[0], /^error 404 not in the envelope: GET \/api\/events\/3/);
  assert.match(problems[1], /^error 404 not in the envelope: GET \/api\/events\/4/);
});

test('a status the document does not list, without a default, is a problem; a path it lacks is one too', () => {
  const { problems } = analyse(spec, summaryOf([...passing(), execution('GET', '/api/admin/outbox', 204), execution('GET', '/api/other', 200)]));
  assert.deepEqual(problems, [
    'undocumented status 204: GET /api/admin/outbox (GET /api/admin/{list})',
    'not in the document: GET /api/other (GET /api/other) answered 200',
  ]);
});

test('a literal path is matched before a template', () => {
  const { perOperation } = analyse(spec, summaryOf(passing()));
  assert.equal(perOperation.get('GET /api/admin/purchases.csv').requests, 1);
  assert.equal(perOperation.get('GET /api/admin/{list}').requests, 1);
});

test('failed assertions and requests without an answer are problems', () => {
  const unanswered = { ...execution('GET', '/api/events/5', 0), response: undefined, requestError: { message: 'ECONNREFUSED' } };
  const failure = { source: { name: 'GET /api/events/1' }, error: { test: 'Schema is valid', message: 'data should have required property id' } };
  const { problems } = analyse(spec, summaryOf([...passing(), unanswered], [failure]));
  assert.deepEqual(problems, [
    'no response: GET /api/events/5 (GET /api/events/5): ECONNREFUSED',
    'failed: GET /api/events/1: Schema is valid: data should have required property id',
  ]);
});

test('an execution newman lists twice (once per pm.sendRequest of its scripts) counts once', () => {
  const twice = execution('GET', '/api/events/1', 200, '{}', 'same');
  const { requests, perOperation } = analyse(spec, summaryOf([...passing(), twice, twice]));
  assert.equal(requests, 5);
  assert.equal(perOperation.get('GET /api/events/{id}').requests, 3);
});

test('a status the document gives a body of its own (the health report) is an answer, not an error', () => {
  const health = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } } };
  const healthSpec = { paths: { '/healthz': { get: { responses: { 200: {}, 503: health, default: inEnvelope } } } } };
  const report = JSON.stringify({ status: 'unavailable', database: 'down' });
  const answered = [execution('GET', '/healthz', 200, report), execution('GET', '/healthz', 503, report)];
  assert.deepEqual(analyse(healthSpec, summaryOf(answered)).problems, []);
  // Any other 5xx there is still a server error, and outside the envelope.
  const { problems } = analyse(healthSpec, summaryOf([...answered, execution('GET', '/healthz', 500, 'oops')]));
  assert.equal(problems.length, 2);
  assert.match(problems[0], /^server error 500/);
  assert.match(problems[1], /^error 500 not in the envelope/);
});
