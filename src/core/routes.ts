/** The browser app's pages. The server answers 200 for these and 404 (with the app's 404 page) for others. */
export const CLIENT_ROUTES = ['/', '/auth', '/admin', '/check-in', '/events/:id', '/find-pass'] as const;

