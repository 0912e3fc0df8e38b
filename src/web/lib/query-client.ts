import { QueryCache, QueryClient } from '@tanstack/react-query';

declare module '@tanstack/react-query' {
  interface Register {
    /** `onFailure`: how a query says its load failed (a toast); called once per failed fetch, never for a cancelled one. */
    queryMeta: { onFailure?: (error: Error) => void };
  }
}

/** The key of `GET /api/me`: the session every guard and page reads. */
export const SESSION_KEY = ['session'] as const;

/** What only staff may read (the admin panel, the door) is kept under this key, and dropped when another account signs in. */
export const STAFF_DATA_KEY = ['admin'] as const;

/**
 * The app's one QueryClient (provided at the root; module-level so the API client can have the
 * session read again after a staff call is refused). Reads fail at once, as they did before
 * caching (a retry would delay the spec's load-failure notices), and refresh on demand, not on focus.
 */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => query.meta?.onFailure?.(error) }),
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
