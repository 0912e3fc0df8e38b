import { errorEnvelope, pathOf, type CallOf, type Endpoint, type ResponseOf } from '../../core/api/contract.ts';
import { queryClient, SESSION_KEY } from './query-client.ts';

/**
 * How a call went. `network`: the request itself failed (no answer). `unauthorized`: a staff call
 * found the session ended (401) or the admin role gone (403). `server`: any other refusal or an
 * answer of the wrong shape (`status`, and the error envelope's `code` and `message`, say which).
 * `aborted`: the caller gave up on it.
 */
export type ApiResult<T> = { ok: true; data: T } | ApiFailure;

export interface ApiFailure {
  ok: false;
  kind: 'network' | 'unauthorized' | 'server' | 'aborted';
  status: number;
  /** The envelope's `error.code`, or '' when the answer had none. */
  code: string;
  /** The envelope's `error.message`, or '' when the answer had none. */
  message: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Tests pass a fake server here. */
  fetch?: typeof fetch;
}

function failure(kind: ApiFailure['kind'], status: number, error: { code: string; message: string } = { code: '', message: '' }): ApiFailure {
  return { ok: false, kind, status, code: error.code, message: error.message };
}

function lost(options: CallOptions, status = 0): ApiFailure {
  return failure(options.signal?.aborted ? 'aborted' : 'network', status);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The URL of a call: the path with its parameters, then the query's set values in the order given. */
export function urlOf(endpoint: Endpoint, input: { params?: unknown; query?: unknown }): string {
  const path = pathOf(endpoint, (input.params ?? {}) as Record<string, string | number>);
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * Sends one request and settles every refusal: a 401 or 403 to a staff call means the session or
 * the role changed, so the session is read again and the guards show sign-in or Access Denied.
 */
async function send(
  endpoint: Endpoint,
  input: { params?: unknown; query?: unknown; body?: unknown; headers?: unknown },
  accept: string,
  options: CallOptions,
): Promise<{ ok: true; response: Response } | ApiFailure> {
  const headers = new Headers({ accept });
  for (const [name, value] of Object.entries((input.headers ?? {}) as Record<string, unknown>)) {
    if (value !== undefined) headers.set(name, String(value));
  }
  const init: RequestInit = { method: endpoint.method, headers, signal: options.signal, cache: 'no-store', credentials: 'same-origin' };
  if (endpoint.method !== 'GET') {
    headers.set('content-type', 'application/json');
    init.body = JSON.stringify(input.body ?? {});
  }
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(urlOf(endpoint, input), init);
  } catch {
    return lost(options);
  }
  if (response.ok) return { ok: true, response };

  const text = await response.text().catch(() => '');
  const envelope = errorEnvelope.safeParse(parseJson(text));
  const error = envelope.success ? envelope.data.error : undefined;
  if ((response.status === 401 || response.status === 403) && endpoint.access !== 'public') {
    void queryClient.invalidateQueries({ queryKey: SESSION_KEY });
    return failure('unauthorized', response.status, error);
  }
  return failure('server', response.status, error);
}

/**
 * Calls one endpoint of the contract (src/core/api): the URL from its path and query, the body
 * and headers as given, and the answer parsed with its success schema. An answer of another
 * shape is a `server` failure, never data.
 */
export async function call<E extends Endpoint>(endpoint: E, input: CallOf<E>, options: CallOptions = {}): Promise<ApiResult<ResponseOf<E>>> {
  const sent = await send(endpoint, input, 'application/json', options);
  if (!sent.ok) return sent;
  let text: string;
  try {
    text = await sent.response.text();
  } catch {
    return lost(options, sent.response.status);
  }
  const schema = endpoint.success.schema;
  if (!schema) return failure('server', sent.response.status);
  const parsed = schema.safeParse(parseJson(text));
  return parsed.success ? { ok: true, data: parsed.data as ResponseOf<E> } : failure('server', sent.response.status);
}

/** A failed call as an error, for TanStack Query (whose query functions throw). */
export class ApiError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message || `${failure.kind} (${failure.status})`);
    this.name = 'ApiError';
  }
}

/**
 * The failure a screen should tell of, from a result or a query's error; null when there is none
 * to tell: the caller gave up, or the session was lost (the guards show sign-in or Access Denied).
 */
export function failureToReport(failed: ApiFailure | Error): ApiFailure | null {
  const failure = failed instanceof ApiError ? failed.failure : failed instanceof Error ? null : failed;
  return failure && failure.kind !== 'aborted' && failure.kind !== 'unauthorized' ? failure : null;
}

/** The data of a call, or its failure thrown as an ApiError. */
export async function unwrap<T>(result: Promise<ApiResult<T>>): Promise<T> {
  const settled = await result;
  if (!settled.ok) throw new ApiError(settled);
  return settled.data;
}
