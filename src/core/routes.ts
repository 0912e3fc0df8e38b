/**
 * The browser app's pages. The server answers 200 for these and 404 (with the app's 404 page) for
 * others; a new page goes here and in src/web/app/router.tsx.
 */

/** Pages anyone may open: the server sends them rendered, so they paint before any script (ADR 0021). */
export const PUBLIC_ROUTES = ['/', '/auth', '/events/:id', '/find-pass', '/pass/:code'] as const;

/** Staff pages: the server sends the bare shell; they render in the browser once the session is read. */
export const STAFF_ROUTES = ['/admin', '/check-in'] as const;

export const CLIENT_ROUTES = [...PUBLIC_ROUTES, ...STAFF_ROUTES] as const;
