// Types of proxy.mjs for the TypeScript that imports it (e2e/proxy-topology.spec.ts).
export function nginxBinary(): string | null;
export function ensureNginx(): { path: string | null; reason?: string };
export function nginxConfig(options: { upstreams: string[]; port: number; dir: string; workers?: number | 'auto'; accessLog?: boolean }): string;
export interface Proxy {
  url: string;
  port: number;
  dir: string;
  pid: number | undefined;
  config(): string;
  pids(): number[];
  output(): string;
  accessLog(): string;
  stop(graceMs?: number): Promise<void>;
}
export function startProxy(options: { upstreams: string[]; port?: number; workers?: number | 'auto'; accessLog?: boolean; readyTimeoutMs?: number }): Promise<Proxy>;
export function upstreamOf(url: string): string;
/** A port the kernel says is free on 127.0.0.1. */
export function freePort(): Promise<number>;
