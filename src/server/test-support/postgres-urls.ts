/** The maintenance database on the same server, for CREATE/DROP DATABASE. */
export function adminUrl(serverUrl: string): string {
  return databaseUrl(serverUrl, 'postgres');
}

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
