/** The browser app's pages. The server answers 200 for these and 404 (with the app's 404 page) for others. */
export const CLIENT_ROUTES = ['/', '/auth', '/admin'] as const;

export function isClientRoute(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (CLIENT_ROUTES as readonly string[]).includes(path);
}
