// Portman's configuration for the contract test (scripts/contract-test.mjs writes it out as JSON).
// Contract tests on every operation; variation tests that reach each documented error status, each
// checked against the document's schema for that status (the one error envelope).
//
// Postman variables the run provides (scripts/contract-test.mjs, seed()):
//   baseUrl         the main shop                 faultsUrl      the faults shop (payments declined, limits at 1/min, TRUST_PROXY)
//   staffCookie     an admin's session (main)     faultsCookie   an admin's session (faults)
//   userCookie      user@: signed in, no admin role (403s; its password is verified)
//   accountCookie   account@: changes its password      verifyToken  pending@'s unused verification token
//   downUrl         a shop whose database is away and whose spool cannot be written (/healthz and /healthz/ready answer 503)
//   eventId         an event on the main shop           passCode     a pass to that event (its link)
//   passPageCode    that pass's signed code (main and faults sign with one key, so it verifies on both)
//   outboxId        a message on the main shop's outbox that is not failed
//   failedOutboxId  a failed message (faults)           helperUrl    starts the first of two concurrent purchases
//   exportId        a finished CSV export of staffCookie's (main)
//   voidOrderId     a pass to void (main, whose refunds always fail)   refundOrderId  a pass whose refund fails (502)
//   voidedOrderId   a pass voided already (409)                        resendOrderId  a pass to mail again (1 a minute)
//   conflictId      a check-in conflict waiting (main)   resolvedConflictId  one resolved already
//   doorAccountId   account@'s id (made door staff)       unverifiedAccountId  unverified@'s id (no role for it: 409)
// unverified@ signed up and never followed its link. Every account's password is {{password}}.

const UNKNOWN_ID = '999999';
const UNKNOWN_EXPORT = '00000000-0000-4000-8000-000000000000';
const BUYER = { name: 'Contract Buyer', email: 'buyer@contract.test', eventName: 'Contract Cup' };
const EVENT = { title: 'Contract Cup', date: '2031-06-01', time: '18:30', location: 'Contract Park', price: '3.00' };

/** The checks of an error answer: its status, JSON, and the document's schema for that status. */
const errorTests = (code) => ({
  contractTests: [{ statusCode: { enabled: true, code }, contentType: { enabled: true }, jsonBody: { enabled: true }, schemaValidation: { enabled: true } }],
});

/** One variation of `operation` that must answer `status`. */
function reach(operation, status, name, { overwrites = [], preRequest } = {}) {
  return {
    openApiOperation: operation,
    openApiResponse: String(status),
    variations: [
      {
        name,
        overwrites,
        tests: errorTests(status),
        ...(preRequest ? { operationPreRequestScripts: [{ openApiOperation: operation, scripts: [preRequest] }] } : {}),
      },
    ],
  };
}

const body = (value) => ({ overwriteRequestBody: [{ key: '.', value, overwrite: true }] });
const header = (key, value) => ({ overwriteRequestHeaders: [{ key, value }] });
const pathId = (value) => ({ overwriteRequestPathVariables: [{ key: 'id', value }] });
const orderId = (value) => ({ overwriteRequestPathVariables: [{ key: 'orderId', value }] });
const passPageCode = (value) => ({ overwriteRequestPathVariables: [{ key: 'code', value }] });
const PASS_PAGE = 'GET::/api/passes/{code}';
const UNKNOWN_PASS = '0000000000';
const VOID = 'POST::/api/admin/purchases/{orderId}/void';
const RESEND = 'POST::/api/admin/purchases/{orderId}/resend-confirmation';
const BUYER_EXPORT = 'POST::/api/admin/buyer-data/export';
const BUYER_ERASE = 'POST::/api/admin/buyer-data/erase';
const STAFF_ROLE = 'PUT::/api/admin/staff/{id}/role';
const query = (key, value) => ({ overwriteRequestQueryParams: [{ key, value }] });
/** The door pack's query: both parameters, so a variation changes one and keeps the other valid. */
const packQuery = ({ eventId = '{{eventId}}', deviceId = 'contract-gate-d' } = {}) => ({
  overwriteRequestQueryParams: [
    { key: 'eventId', value: eventId },
    { key: 'deviceId', value: deviceId },
  ],
});
const APPLE_WALLET = 'GET::/api/passes/{code}/apple-wallet';
const GOOGLE_WALLET = 'GET::/api/passes/{code}/google-wallet';
const walletCode = (value) => ({ overwriteRequestPathVariables: [{ key: 'code', value }] });
const baseUrl = (value) => ({ overwriteRequestBaseUrl: { value } });

/** A request to the faults shop from its own client address (it trusts X-Forwarded-For), sent from its own pages. */
const onFaultsShopAs = (ip) => [
  baseUrl('{{faultsUrl}}'),
  { overwriteRequestHeaders: [{ key: 'X-Forwarded-For', value: ip }, { key: 'Origin', value: '{{faultsUrl}}' }] },
];

/** Pre-request: sends this same request once more first, so the limit of one a minute is used up. */
const USE_UP_THE_LIMIT = `
pm.sendRequest({
  url: pm.variables.replaceIn(pm.request.url.toString()),
  method: pm.request.method,
  header: pm.request.headers.map((h) => ({ key: h.key, value: pm.variables.replaceIn(h.value) })),
  body: { mode: 'raw', raw: pm.variables.replaceIn(pm.request.body.raw) },
}, (error) => { if (error) throw error; });`;

/** Pre-request: buys with this key and another body first, so this request reuses the key (422). */
const REUSE_THE_KEY = `
const key = 'contract-reused-' + Date.now();
pm.collectionVariables.set('reusedKey', key);
pm.sendRequest({
  url: pm.variables.replaceIn(pm.request.url.toString()),
  method: 'POST',
  header: [{ key: 'Content-Type', value: 'application/json' }, { key: 'Idempotency-Key', value: key }],
  body: { mode: 'raw', raw: JSON.stringify(${JSON.stringify({ ...BUYER, name: 'Another Buyer' })}) },
}, (error, response) => { if (error || response.code !== 201) throw new Error('first purchase: ' + (error || response.code)); });`;

/** Pre-request: has the helper start this same purchase with this key, so this one meets it in flight (409). */
const START_THE_SAME_PURCHASE = `
const key = 'contract-concurrent-' + Date.now();
pm.collectionVariables.set('concurrentKey', key);
pm.sendRequest({
  url: pm.variables.get('helperUrl') + '/start',
  method: 'POST',
  header: [{ key: 'Content-Type', value: 'application/json' }],
  body: { mode: 'raw', raw: JSON.stringify({
    path: pm.variables.replaceIn(pm.request.url.getPath()),
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: pm.variables.replaceIn(pm.request.body.raw),
  }) },
}, (error, response) => { if (error || response.code !== 202) throw new Error('helper: ' + (error || response.code)); });`;

/** Pre-request: sends this same bodiless POST once first, so the limit of one a minute is used up. */
const SEND_IT_FIRST = `
pm.sendRequest({
  url: pm.variables.replaceIn(pm.request.url.toString()),
  method: 'POST',
  header: pm.request.headers.map((h) => ({ key: h.key, value: pm.variables.replaceIn(h.value) })),
}, (error) => { if (error) throw error; });`;

/** Pre-request: sends a body of another media type (415). */
const SEND_XML = `
pm.request.headers.upsert({ key: 'Content-Type', value: 'application/xml' });
pm.request.body.update({ mode: 'raw', raw: '<order/>' });`;

const ADMIN = '*::/api/admin/*';
const session = (cookie) => ({ overwriteRequestSecurity: { apiKey: { key: 'Cookie', value: cookie, in: 'header' } } });
const noSession = { overwriteRequestSecurity: { remove: true } };
const PASSWORD = '{{password}}';

/** 429 of an auth call: on the faults shop, from its own address, after one call has used the minute's allowance. */
const authLimited = (operation, ip) => reach(operation, 429, 'over the limit', { overwrites: onFaultsShopAs(ip), preRequest: USE_UP_THE_LIMIT });

export function portmanConfig() {
  return {
    version: 1.0,
    tests: {
      contractTests: [
        {
          openApiOperation: '*::/*',
          // Save to Google Wallet succeeds with its redirect (302), checked on its own below.
          statusSuccess: { enabled: true, excludeForOperations: [GOOGLE_WALLET] },
          contentType: { enabled: true },
          jsonBody: { enabled: true },
          schemaValidation: { enabled: true },
          // Generous: this is a correctness test on a shared 2-core machine, not a benchmark.
          responseTime: { enabled: true, maxMs: 10_000 },
        },
        { openApiOperation: GOOGLE_WALLET, statusCode: { enabled: true, code: 302 } },
      ],
      variationTests: [
        // Every staff route: no session, and a session without the admin role (on the main shop).
        reach(ADMIN, 401, 'no session', { overwrites: [baseUrl('{{baseUrl}}'), noSession] }),
        reach(ADMIN, 403, 'not an admin', { overwrites: [baseUrl('{{baseUrl}}'), session('{{userCookie}}')] }),

        // Events.
        reach('GET::/api/events/{id}', 400, 'id not a number', { overwrites: [pathId('abc')] }),
        reach('GET::/api/events/{id}', 404, 'unknown event', { overwrites: [pathId(UNKNOWN_ID)] }),
        reach('POST::/api/admin/events', 400, 'bad body', { overwrites: [body({ ...EVENT, date: 'tomorrow' })] }),
        reach('PUT::/api/admin/events/{id}', 400, 'bad body', { overwrites: [body({ ...EVENT, time: '25:00' })] }),
        reach('PUT::/api/admin/events/{id}', 404, 'unknown event', { overwrites: [pathId(UNKNOWN_ID)] }),
        reach('GET::/api/admin/events/{id}/check-ins', 400, 'id not a number', { overwrites: [pathId('abc')] }),
        reach('GET::/api/admin/events/{id}/check-ins', 404, 'unknown event', { overwrites: [pathId(UNKNOWN_ID)] }),
        reach('POST::/api/admin/check-ins', 400, 'bad body', { overwrites: [body({ eventId: 'abc', code: '{{passCode}}' })] }),
        reach('POST::/api/admin/check-ins', 404, 'unknown event', { overwrites: [body({ eventId: Number(UNKNOWN_ID), code: '{{passCode}}' })] }),

        // The offline door (ADR 0014).
        // Door devices (ADR 0029): a revoked one is refused everywhere.
        reach('GET::/api/admin/door/pack', 403, 'revoked device', { overwrites: [packQuery({ deviceId: 'contract-revoked' })] }),
        reach('POST::/api/admin/door/device', 400, 'bad device id', { overwrites: [body({ deviceId: 'x', label: 'Contract Gate' })] }),
        reach('POST::/api/admin/door/device', 403, 'revoked device', { overwrites: [body({ deviceId: 'contract-revoked', label: 'Contract Gate' })] }),
        reach('POST::/api/admin/door/scans', 403, 'revoked device', { overwrites: [body({ deviceId: 'contract-revoked', label: 'Contract Gate', eventId: null, scans: [] })] }),
        reach('POST::/api/admin/door/devices/{id}/revoke', 400, 'bad device id', { overwrites: [pathId('x')] }),
        reach('POST::/api/admin/door/devices/{id}/revoke', 404, 'unknown device', { overwrites: [pathId('contract-unknown')] }),
        reach('POST::/api/admin/door/devices/{id}/revoke', 409, 'revoked already', { overwrites: [pathId('contract-revoked')] }),
        reach('GET::/api/admin/door/pack', 400, 'eventId not a number', { overwrites: [packQuery({ eventId: 'abc' })] }),
        reach('GET::/api/admin/door/pack', 404, 'unknown event', { overwrites: [packQuery({ eventId: UNKNOWN_ID })] }),
        reach('POST::/api/admin/door/scans', 400, 'bad device id', { overwrites: [body({ deviceId: 'x', label: 'Contract Gate', eventId: null, scans: [] })] }),
        reach('POST::/api/admin/door/conflicts/{id}/resolve', 400, 'id not a number', { overwrites: [pathId('abc')] }),
        reach('POST::/api/admin/door/conflicts/{id}/resolve', 404, 'unknown conflict', { overwrites: [pathId(UNKNOWN_ID)] }),
        reach('POST::/api/admin/door/conflicts/{id}/resolve', 409, 'resolved already', { overwrites: [pathId('{{resolvedConflictId}}')] }),

        // Purchases.
        reach('POST::/api/purchases', 400, 'bad body', { overwrites: [body({ ...BUYER, email: 'not an email' })] }),
        reach('POST::/api/purchases', 404, 'unknown event', { overwrites: [body({ name: BUYER.name, email: BUYER.email, eventId: Number(UNKNOWN_ID) })] }),
        reach('POST::/api/purchases', 415, 'not JSON', { preRequest: SEND_XML }),
        reach('POST::/api/purchases', 422, 'key reused with another body', {
          overwrites: [header('Idempotency-Key', '{{reusedKey}}')],
          preRequest: REUSE_THE_KEY,
        }),
        reach('POST::/api/purchases', 409, 'same key while the first runs', {
          overwrites: [header('Idempotency-Key', '{{concurrentKey}}')],
          preRequest: START_THE_SAME_PURCHASE,
        }),
        reach('POST::/api/purchases', 402, 'payment declined', { overwrites: onFaultsShopAs('10.20.0.1') }),
        reach('POST::/api/purchases', 429, 'over the limit', { overwrites: onFaultsShopAs('10.20.0.2'), preRequest: USE_UP_THE_LIMIT }),
        reach('POST::/api/purchases', 503, 'database away and spool unwritable', { overwrites: [baseUrl('{{downUrl}}')] }),

        // Contact form.
        reach('POST::/api/contact', 400, 'bad body', { overwrites: [body({ name: 'Contract Visitor', email: 'nope' })] }),
        reach('POST::/api/contact', 415, 'not JSON', { preRequest: SEND_XML }),
        reach('POST::/api/contact', 429, 'over the limit', { overwrites: onFaultsShopAs('10.20.0.3'), preRequest: USE_UP_THE_LIMIT }),

        // Find my pass.
        reach('POST::/api/find-pass', 400, 'bad body', { overwrites: [body({ email: 'nope' })] }),
        reach('POST::/api/find-pass', 415, 'not JSON', { preRequest: SEND_XML }),
        reach('POST::/api/find-pass', 429, 'over the limit', { overwrites: onFaultsShopAs('10.20.0.4'), preRequest: USE_UP_THE_LIMIT }),

        // The pass page (ADR 0023): a bare pass ID opens nothing, nor does a signature that does not verify.
        reach(PASS_PAGE, 400, 'a bare pass ID', { overwrites: [passPageCode(UNKNOWN_PASS)] }),
        reach(PASS_PAGE, 404, 'a forged signature', { overwrites: [passPageCode(`${UNKNOWN_PASS}.${'A'.repeat(86)}`)] }),
        reach(PASS_PAGE, 429, 'over the limit', { overwrites: onFaultsShopAs('10.20.0.5'), preRequest: USE_UP_THE_LIMIT }),

        // Staff lists.
        reach('GET::/api/admin/purchases', 400, 'limit out of range', { overwrites: [query('limit', '0')] }),
        reach('GET::/api/admin/outbox', 400, 'unknown status', { overwrites: [query('status', 'lost')] }),
        reach('GET::/api/admin/contact-requests', 400, 'limit out of range', { overwrites: [query('limit', '0')] }),
        reach('GET::/api/admin/quarantined-purchases', 400, 'not a cursor', { overwrites: [query('cursor', 'not-a-cursor')] }),
        reach('GET::/api/admin/events/{id}/check-ins', 400, 'limit out of range', { overwrites: [query('limit', '0')] }),
        reach('GET::/api/admin/sales', 400, 'unknown range', { overwrites: [query('range', '1y')] }),

        // The CSV export and its outcome (ADR 0012).
        reach('GET::/api/admin/purchases.csv', 400, 'exportId not a UUID', { overwrites: [query('exportId', 'not-a-uuid')] }),
        reach('GET::/api/admin/purchases.csv', 409, 'exportId used already', { overwrites: [query('exportId', '{{exportId}}')] }),
        reach('GET::/api/admin/exports/{id}', 400, 'id not a UUID', { overwrites: [pathId('not-a-uuid')] }),
        reach('GET::/api/admin/exports/{id}', 404, 'unknown export', { overwrites: [pathId(UNKNOWN_EXPORT)] }),

        // Outbox retries (the main request retries the faults shop's failed message).
        reach('POST::/api/admin/outbox/{id}/retry', 400, 'id not a number', { overwrites: [pathId('abc')] }),
        reach('POST::/api/admin/outbox/{id}/retry', 404, 'unknown message', { overwrites: [pathId(UNKNOWN_ID)] }),
        reach('POST::/api/admin/outbox/{id}/retry', 409, 'message not failed', {
          overwrites: [baseUrl('{{baseUrl}}'), session('{{staffCookie}}'), pathId('{{outboxId}}')],
        }),

        // The back office (issue 13), on the main shop.
        reach(VOID, 400, 'no reason', { overwrites: [orderId('{{refundOrderId}}'), body({ reason: ' ', refund: true })] }),
        reach(VOID, 404, 'unknown pass', { overwrites: [orderId(UNKNOWN_PASS)] }),
        reach(VOID, 409, 'voided already', { overwrites: [orderId('{{voidedOrderId}}')] }),
        reach(VOID, 502, 'refund refused', { overwrites: [orderId('{{refundOrderId}}'), body({ reason: 'Bought twice', refund: true })] }),
        reach(RESEND, 400, 'not a pass ID', { overwrites: [orderId('nope')] }),
        reach(RESEND, 404, 'unknown pass', { overwrites: [orderId(UNKNOWN_PASS)] }),
        reach(RESEND, 409, 'voided pass', { overwrites: [orderId('{{voidedOrderId}}')] }),
        reach(RESEND, 429, 'over the limit', { overwrites: [orderId('{{resendOrderId}}')], preRequest: SEND_IT_FIRST }),
        reach('GET::/api/admin/audit-log', 400, 'limit out of range', { overwrites: [query('limit', '0')] }),

        // One buyer's data (ADR 0032).
        reach(BUYER_EXPORT, 400, 'not an email', { overwrites: [body({ email: 'nope' })] }),
        reach(BUYER_ERASE, 400, 'not an email', { overwrites: [body({ email: 'nope' })] }),
        // Staff roles (ADR 0028).
        reach('GET::/api/admin/staff', 400, 'not a cursor', { overwrites: [query('cursor', 'not-a-cursor')] }),
        reach(STAFF_ROLE, 400, 'unknown role', { overwrites: [body({ role: 'owner' })] }),
        reach(STAFF_ROLE, 404, 'unknown account', { overwrites: [pathId('nobody')] }),
        reach(STAFF_ROLE, 409, 'email not verified', { overwrites: [pathId('{{unverifiedAccountId}}')] }),

        // Staff accounts (better-auth behind the shop's limits).
        reach('POST::/api/auth/sign-up/email', 400, 'password too short', { overwrites: [body({ email: 'short@contract.test', password: 'short', name: 'Short' })] }),
        reach('POST::/api/auth/sign-up/email', 422, 'email taken', { overwrites: [body({ email: 'staff@contract.test', password: PASSWORD, name: 'Again' })] }),
        authLimited('POST::/api/auth/sign-up/email', '10.20.1.1'),
        reach('POST::/api/auth/sign-in/email', 400, 'not an email', { overwrites: [body({ email: 'not-an-email', password: PASSWORD })] }),
        reach('POST::/api/auth/sign-in/email', 401, 'wrong password', { overwrites: [body({ email: 'user@contract.test', password: 'not the password' })] }),
        reach('POST::/api/auth/sign-in/email', 403, 'email not verified', { overwrites: [body({ email: 'unverified@contract.test', password: PASSWORD })] }),
        authLimited('POST::/api/auth/sign-in/email', '10.20.1.2'),
        reach('POST::/api/auth/send-verification-email', 400, 'not an email', { overwrites: [body({ email: 'not-an-email' })] }),
        authLimited('POST::/api/auth/send-verification-email', '10.20.1.3'),
        reach('GET::/api/auth/verify-email', 400, 'no token', { overwrites: [{ overwriteRequestQueryParams: [{ key: 'token', remove: true }] }] }),
        reach('GET::/api/auth/verify-email', 401, 'unknown token', { overwrites: [query('token', 'not-a-token')] }),
        reach('GET::/api/auth/verify-email', 302, 'unknown token, with a page to go to', {
          overwrites: [{ overwriteRequestQueryParams: [{ key: 'token', value: 'not-a-token' }, { key: 'callbackURL', value: '/' }] }],
        }),
        reach('POST::/api/auth/change-password', 400, 'wrong current password', { overwrites: [body({ currentPassword: 'not the password', newPassword: 'a new password 3' })] }),
        reach('POST::/api/auth/change-password', 401, 'no session', { overwrites: [noSession] }),
        authLimited('POST::/api/auth/change-password', '10.20.1.6'),
        reach('POST::/api/auth/verify-password', 400, 'wrong password', { overwrites: [body({ password: 'not the password' })] }),
        reach('POST::/api/auth/verify-password', 401, 'no session', { overwrites: [noSession] }),
        authLimited('POST::/api/auth/verify-password', '10.20.1.8'),

        // Health: the shop whose database is away answers 503 with the same body.
        reach('GET::/healthz', 503, 'database away', { overwrites: [baseUrl('{{downUrl}}')] }),
        // Its spool's disk is broken too, so nothing would store a purchase: not ready.
        reach('GET::/healthz/ready', 503, 'database away and spool unwritable', { overwrites: [baseUrl('{{downUrl}}')] }),

        // Wallet passes (ADR 0024; main and faults hold throwaway wallet keys): a bare pass ID opens
        // nothing, nor does a signature that does not verify; the pass page's limit counts them.
        ...[APPLE_WALLET, GOOGLE_WALLET].flatMap((operation, index) => [
          reach(operation, 400, 'a bare pass ID', { overwrites: [walletCode(UNKNOWN_PASS)] }),
          reach(operation, 404, 'a forged signature', { overwrites: [walletCode(`${UNKNOWN_PASS}.${'A'.repeat(86)}`)] }),
          reach(operation, 429, 'over the limit', { overwrites: onFaultsShopAs(`10.20.2.${index + 1}`), preRequest: USE_UP_THE_LIMIT }),
        ]),
      ],
    },
    overwrites: [
      { openApiOperation: ADMIN, ...session('{{staffCookie}}') },
      { openApiOperation: 'GET::/api/events/{id}', ...pathId('{{eventId}}') },
      { openApiOperation: 'PUT::/api/admin/events/{id}', ...pathId('{{eventId}}'), ...body(EVENT) },
      { openApiOperation: 'GET::/api/admin/events/{id}/check-ins', ...pathId('{{eventId}}') },
      { openApiOperation: 'GET::/api/admin/exports/{id}', ...pathId('{{exportId}}') },
      { openApiOperation: 'POST::/api/admin/events', ...body(EVENT) },
      { openApiOperation: 'POST::/api/admin/check-ins', ...body({ eventId: '{{{eventId}}}', code: '{{passCode}}' }) },
      { openApiOperation: 'GET::/api/admin/door/pack', ...packQuery() },
      { openApiOperation: 'POST::/api/admin/door/device', ...body({ deviceId: 'contract-gate-d', label: 'Contract Gate D' }) },
      { openApiOperation: 'POST::/api/admin/door/devices/{id}/revoke', ...pathId('contract-gate-e') },
      { openApiOperation: 'POST::/api/admin/door/scans', ...body({ deviceId: 'contract-gate-d', label: 'Contract Gate D', eventId: '{{{eventId}}}', scans: [] }) },
      { openApiOperation: 'POST::/api/admin/door/conflicts/{id}/resolve', ...pathId('{{conflictId}}') },
      { openApiOperation: 'POST::/api/purchases', ...body(BUYER), ...header('Idempotency-Key', '{{$guid}}') },
      { openApiOperation: VOID, ...orderId('{{voidOrderId}}'), ...body({ reason: 'Bought twice by mistake', refund: false }) },
      { openApiOperation: RESEND, ...orderId('{{resendOrderId}}') },
      { openApiOperation: STAFF_ROLE, ...pathId('{{doorAccountId}}'), ...body({ role: 'door' }) },
      { openApiOperation: 'POST::/api/contact', ...body({ name: 'Contract Visitor', email: 'visitor@contract.test' }) },
      { openApiOperation: 'POST::/api/find-pass', ...body({ email: BUYER.email }) },
      { openApiOperation: BUYER_EXPORT, ...body({ email: BUYER.email }) },
      // Not BUYER: the passes other operations use keep their buyer.
      { openApiOperation: BUYER_ERASE, ...body({ email: 'forget-me@contract.test' }) },
      { openApiOperation: PASS_PAGE, ...passPageCode('{{passPageCode}}') },
      { openApiOperation: 'GET::/api/admin/sales', ...query('range', '48h') },
      { openApiOperation: APPLE_WALLET, ...walletCode('{{passPageCode}}') },
      { openApiOperation: GOOGLE_WALLET, ...walletCode('{{passPageCode}}') },
      {
        openApiOperation: 'POST::/api/admin/outbox/{id}/retry',
        ...baseUrl('{{faultsUrl}}'),
        ...session('{{faultsCookie}}'),
        ...pathId('{{failedOutboxId}}'),
      },
      { openApiOperation: 'POST::/api/auth/sign-up/email', ...body({ email: 'new-{{$timestamp}}-{{$randomInt}}@contract.test', password: PASSWORD, name: 'New Staff' }) },
      { openApiOperation: 'POST::/api/auth/sign-in/email', ...body({ email: 'user@contract.test', password: PASSWORD }) },
      { openApiOperation: 'POST::/api/auth/sign-out', ...body({}) },
      { openApiOperation: 'POST::/api/auth/send-verification-email', ...body({ email: 'unverified@contract.test' }) },
      { openApiOperation: 'GET::/api/auth/verify-email', ...query('token', '{{verifyToken}}') },
      // A browser sends its Origin with every POST; better-auth refuses a cookie-carrying one without it.
      { openApiOperation: 'POST::/api/auth/*', ...header('Origin', '{{baseUrl}}') },
      { openApiOperation: 'POST::/api/auth/change-password', ...body({ currentPassword: PASSWORD, newPassword: 'a new password 2' }), ...session('{{accountCookie}}') },
      { openApiOperation: 'POST::/api/auth/verify-password', ...body({ password: PASSWORD }), ...session('{{userCookie}}') },
    ],
    globals: {
      stripResponseExamples: true,
    },
  };
}
