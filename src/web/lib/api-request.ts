import type { z } from 'zod';

/**
 * How a staff call went. `network`: the request itself failed (no answer). `unauthorized`: the
 * session ended (401) or the admin role is gone (403). `server`: any other refusal or a bad answer
 * (`status` and the server's `message` say which). `aborted`: the caller gave up on it.
 */
export type ApiResult<T> =
  | { ok: true; data: T }
  | { ok: false; kind: 'network' | 'unauthorized' | 'server' | 'aborted'; status: number; message: string };

export type ApiFailure = Extract<ApiResult<unknown>, { ok: false }>;

export interface RequestOptions {
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

function failure<T>(kind: ApiFailure['kind'], status: number, message = ''): ApiResult<T> {
  return { ok: false, kind, status, message };
}

async function errorMessage(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: unknown } } | null;
  return typeof body?.error?.message === 'string' ? body.error.message : '';
}

/** One request: a refusal, a lost connection and an answer of the wrong shape each end up typed. */
export async function request<T>(
  url: string,
  init: RequestInit,
  read: (response: Response) => Promise<T | undefined>,
  options: RequestOptions,
): Promise<ApiResult<T>> {
  const fetchImpl = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await fetchImpl(url, { ...init, signal: options.signal, cache: 'no-store' });
  } catch {
    return failure(options.signal?.aborted ? 'aborted' : 'network', 0);
  }
  if (response.status === 401 || response.status === 403) {
    return failure('unauthorized', response.status, await errorMessage(response));
  }
  if (!response.ok) return failure('server', response.status, await errorMessage(response));
  try {
    const data = await read(response);
    return data === undefined ? failure('server', response.status) : { ok: true, data };
  } catch {
    return failure(options.signal?.aborted ? 'aborted' : 'network', response.status);
  }
}

/** Reads the answer as JSON of the given shape; any other shape counts as a server failure. */
export function readAs<T>(schema: z.ZodType<T>) {
  return async (response: Response): Promise<T | undefined> => {
    const parsed = schema.safeParse(await response.json());
    return parsed.success ? parsed.data : undefined;
  };
}

export function getJson<T>(url: string, schema: z.ZodType<T>, options: RequestOptions): Promise<ApiResult<T>> {
  return request(url, { headers: { accept: 'application/json' } }, readAs(schema), options);
}

/** POST or PUT a JSON body and read a JSON answer of the given shape. */
export function sendJson<T>(
  method: 'POST' | 'PUT',
  url: string,
  body: unknown,
  schema: z.ZodType<T>,
  options: RequestOptions,
): Promise<ApiResult<T>> {
  return request(
    url,
    { method, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) },
    readAs(schema),
    options,
  );
}
