import { readFileSync } from 'node:fs';
import type { RouteOptions } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../core/api/index.ts';
import { shopPerTest } from '../test-support/test-app.ts';
import { testBackends } from '../test-support/test-databases.ts';
import { DOCS_PATH, OPENAPI_PATH } from './api-contract.ts';

/** Routes that are the API's own documentation, not endpoints of it. */
const isDocumentation = (url: string) => url === OPENAPI_PATH || url === DOCS_PATH || url.startsWith(`${DOCS_PATH}/`);
/** The OpenAPI form of a Fastify path: /api/events/:id -> /api/events/{id}. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z]+)/g, '{$1}');

interface Operation {
  tags?: string[];
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
}

describe.each(testBackends())('the API contract on $name', (backend) => {
  let routes: RouteOptions[];
  beforeEach(() => {
    routes = [];
  });
  const t = shopPerTest(backend, {}, { onRoute: (route) => void routes.push(route) });

  const apiRoutes = () =>
    routes.filter((route) => (route.url.startsWith('/api/') || route.url.startsWith('/healthz')) && !isDocumentation(route.url) && route.method !== 'HEAD');

  it('gives every API route a contract: a schema with its responses, registered from an endpoint of src/core/api', () => {
    const declared = new Set(ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path}`));
    const registered = apiRoutes().flatMap((route) => [route.method].flat().map((method) => `${method} ${route.url}`));
    const uncontracted = apiRoutes()
      .filter((route) => !route.schema?.response || !(route.schema as { tags?: string[] }).tags)
      .map((route) => `${[route.method].flat().join(',')} ${route.url}`);
    expect(uncontracted).toEqual([]);
    expect(registered.filter((route) => !declared.has(route))).toEqual([]);
    // And every endpoint of the contract is served.
    expect([...declared].filter((route) => !registered.includes(route))).toEqual([]);
  });

  it('publishes OpenAPI 3.1 at /api/openapi.json covering every route, each error in the one envelope', async () => {
    const response = await t.shop.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(response.statusCode).toBe(200);
    const document = response.json() as { openapi: string; info: { version: string }; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };
    expect(document.openapi).toBe('3.1.0');
    // The API's version is the package's, read from package.json (not a copy kept by hand).
    expect(document.info.version).toBe(JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version);
    for (const endpoint of ENDPOINTS) {
      const operation = document.paths[openApiPath(endpoint.path)]?.[endpoint.method.toLowerCase()];
      const name = `${endpoint.method} ${endpoint.path}`;
      expect(operation, name).toBeDefined();
      expect(operation!.responses[String(endpoint.success.status)], name).toBeDefined();
      for (const status of [...Object.keys(endpoint.errors), 'default']) {
        const schema = operation!.responses[status]?.content?.['application/json']?.schema;
        expect(schema, `${name} ${status}`).toBeDefined();
        // The envelope, inline or by reference.
        const text = JSON.stringify(schema);
        expect(text.includes('ErrorEnvelope') || (text.includes('"error"') && text.includes('"code"') && text.includes('"message"')), `${name} ${status}`).toBe(true);
      }
    }
    // Nothing else: the web app's pages are not API operations.
    const documented = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(ENDPOINTS.map((endpoint) => `${endpoint.method} ${openApiPath(endpoint.path)}`).sort());
  });

  it('serves a documentation page at /api/docs', async () => {
    const page = await t.shop.app.inject({ method: 'GET', url: `${DOCS_PATH}/` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });

  it('answers a request that breaks its schema with 400 in the envelope, naming the field', async () => {
    const response = await t.shop.app.inject({ method: 'GET', url: '/api/events/abc' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'invalid_request', message: expect.stringMatching(/^id: /) } });
  });
});
