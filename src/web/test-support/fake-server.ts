/** For tests: a fetch that answers `body` as JSON with `status`, recording each request it was asked. */
export function fakeServer(status: number, body: unknown) {
  const asked: { url: string; method: string; body: unknown }[] = [];
  const fetch: typeof globalThis.fetch = async (url, init) => {
    asked.push({ url: String(url), method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return { asked, fetch, urls: () => asked.map((request) => request.url) };
}

/** For tests: a fetch that answers `body` as JSON with `status`. */
export const answer = (status: number, body: unknown) => fakeServer(status, body).fetch;
