import { usePrefetchQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { getPassPage, PassPage } from '../../../core/api/pass-page.ts';
import { SIGNED_PASS_CODE } from '../../../core/pass-code-format.ts';

export type PassLookup = { kind: 'found'; page: PassPage } | { kind: 'not_found' } | { kind: 'error' };

/** The query key of a pass's page. */
export const passPageKey = (code: string) => ['pass-page', code] as const;

/**
 * The contract's path for the pass (its type makes it the contract's own). Written here rather than
 * read from the contract: the contract's module, with zod and every schema, is the pass page's
 * heaviest script and slowest start on a phone (issue 21's Lighthouse target), and this page needs
 * nothing of it at run time.
 */
const PASS_PAGE_PATH: (typeof getPassPage)['path'] = '/api/passes/:code';

/** Where the pass's answer is read from (the page's service worker keeps it). */
export const passPageUrl = (code: string) => PASS_PAGE_PATH.replace(':code', encodeURIComponent(code));

/**
 * A pass as its buyer sees it. A code that is not a signed pass code is not found without asking.
 * The answer comes from the shop's own route, which serialises it with the contract's schema, so it
 * is taken as the contract's type without parsing it again here.
 */
export async function fetchPassPage(code: string, { signal }: { signal?: AbortSignal } = {}): Promise<PassLookup> {
  if (!SIGNED_PASS_CODE.test(code)) return { kind: 'not_found' };
  try {
    const response = await fetch(passPageUrl(code), { headers: { accept: 'application/json' }, signal, cache: 'no-store', credentials: 'same-origin' });
    if (response.ok) return { kind: 'found', page: (await response.json()) as PassPage };
    return response.status === 404 || response.status === 400 ? { kind: 'not_found' } : { kind: 'error' };
  } catch {
    return { kind: 'error' };
  }
}

/**
 * The pass page's pass, read on every visit (its state changes at the door). A first visit asks
 * while the page renders rather than once it has: the pass, whose QR code is the page's largest
 * paint, then arrives sooner after a phone's long first render. `offlineFirst`: the request goes
 * out even when the browser says it is offline, so the page's service worker can answer it from
 * its cache (the default mode would pause it and show nothing).
 */
export function usePassPage(code: string) {
  const query = {
    queryKey: passPageKey(code),
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchPassPage(code, { signal }),
    networkMode: 'offlineFirst',
  } as const;
  const client = useQueryClient();
  const [readBefore] = useState(() => client.getQueryState(query.queryKey) !== undefined);
  usePrefetchQuery(query);
  // The render's own request is this visit's read; a pass read on an earlier visit is read again.
  return useQuery({ ...query, refetchOnMount: readBefore ? 'always' : false });
}
