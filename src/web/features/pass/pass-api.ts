import { useQuery } from '@tanstack/react-query';
import { getPassPage, type PassPage } from '../../../core/api/pass-page.ts';
import { SIGNED_PASS_CODE } from '../../../core/pass-code-format.ts';
import { call, urlOf, type CallOptions } from '../../lib/api-client.ts';

export type PassLookup = { kind: 'found'; page: PassPage } | { kind: 'not_found' } | { kind: 'error' };

/** The query key of a pass's page. */
export const passPageKey = (code: string) => ['pass-page', code] as const;

/** Where the pass's answer is read from (the page's service worker keeps it). */
export const passPageUrl = (code: string) => urlOf(getPassPage, { params: { code } });

/** A pass as its buyer sees it. A code that is not a signed pass code is not found without asking. */
export async function fetchPassPage(code: string, options: CallOptions = {}): Promise<PassLookup> {
  if (!SIGNED_PASS_CODE.test(code)) return { kind: 'not_found' };
  const result = await call(getPassPage, { params: { code } }, options);
  if (result.ok) return { kind: 'found', page: result.data };
  return result.kind === 'server' && (result.status === 404 || result.status === 400) ? { kind: 'not_found' } : { kind: 'error' };
}

/**
 * The pass page's pass, read on every visit (its state changes at the door). `offlineFirst`: the
 * request goes out even when the browser says it is offline, so the page's service worker can
 * answer it from its cache (the default mode would pause it and show nothing).
 */
export function usePassPage(code: string) {
  return useQuery({
    queryKey: passPageKey(code),
    queryFn: ({ signal }) => fetchPassPage(code, { signal }),
    refetchOnMount: 'always',
    networkMode: 'offlineFirst',
  });
}
