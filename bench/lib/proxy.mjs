// A local nginx (Debian's package) in front of several shop instances, as a production proxy would
// run: one upstream of N instances, the client's address as X-Forwarded-For and a fresh
// X-Request-Id on every request (whatever the client sent in either). It
// runs as a child process (`nginx -c <conf> -g 'daemon off; pid ...'`) from a temporary prefix, so
// it never touches /etc/nginx, never uses the machine's service and leaves nothing behind.
//
// What nginx may retry (proxy_next_upstream) is the decision that matters here:
// - `error timeout`: a connection refused or a connect timeout means the request never reached an
//   instance (stopped, restarting), so nginx sends it to the next one. Safe for every method.
// - `http_502 http_503`: an instance that answers 503 (not ready, its spool cannot take writes)
//   did not do the work; nginx retries GETs on the next instance.
// - NOT `non_idempotent`: nginx then never sends a POST again once an instance has received it.
//   Purchases are idempotent by their Idempotency-Key, but sign-up, sign-in, the contact form and
//   the back office's void and resend are not keyed, and a proxy replaying one of those after a
//   dropped connection would do it twice. A purchase whose instance died mid-request gets a 502;
//   the buyer's page itself sends it again with the SAME key (src/web/lib/purchase-api.ts), and
//   the shop answers with the pass it already stored or stores it once.
// - No keep-alive pool to the instances: every proxied request opens its own connection. A
//   draining instance (SIGTERM) then refuses new connections, which is the `error` case above and
//   safely retried, instead of closing an idle pooled connection just as nginx writes a POST to it.
//   What remains is a connection accepted in the instant the instance stops listening: its POST
//   can get a 502 (closed unread) or Fastify's 503 (server closing; the handler never ran). The
//   buyer's retry with the same key covers both (the rolling-restart chaos scenario sees a few).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-process.mjs';

export { freePort };

const CANDIDATES = ['/usr/sbin/nginx', '/usr/bin/nginx'];

/** nginx's path, or null when it is not installed. */
export function nginxBinary() {
  return CANDIDATES.find((path) => existsSync(path)) ?? null;
}

/**
 * Installs Debian's nginx when it is missing and we are root, the way scripts/ensure-chromium.mjs
 * installs Chromium. Its service is never started: a policy-rc.d that denies starts is in place
 * for the install (ours, removed afterwards, unless the machine already has one).
 * Returns the path, or null (with the reason) when not root.
 * @returns {{ path: string | null, reason?: string }}
 */
export function ensureNginx() {
  const found = nginxBinary();
  if (found) return { path: found };
  if (process.getuid?.() !== 0) {
    return { path: null, reason: 'nginx is not installed and this is not root: run `sudo apt-get install -y nginx` (its service need not run)' };
  }
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !existsSync(policy);
  if (ownPolicy) {
    writeFileSync(policy, '#!/bin/sh\n# SkipPass tests: installing nginx must not start its service\nexit 101\n');
    chmodSync(policy, 0o755);
  }
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    console.log('Installing Debian nginx for the proxy tests (once)...');
    execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '-qq', 'nginx'], { stdio: 'inherit', env });
  } finally {
    if (ownPolicy) unlinkSync(policy);
  }
  const path = nginxBinary();
  if (!path) throw new Error('apt-get install nginx finished but no nginx binary was found');
  return { path };
}

/**
 * The nginx configuration for `upstreams` (host:port of each instance) listening on 127.0.0.1:port.
 * `dir` holds logs and temp files. accessLog: one line per request with the upstream that
 * answered and the request ID (off for load runs: it costs the proxy CPU).
 * @param {{ upstreams: string[], port: number, dir: string, workers?: number | 'auto', accessLog?: boolean }} options
 */
export function nginxConfig({ upstreams, port, dir, workers = 1, accessLog = true }) {
  const servers = upstreams.map((u) => `    server ${u} max_fails=1 fail_timeout=2s;`).join('\n');
  return `# written by bench/lib/proxy.mjs
worker_processes ${workers};
worker_rlimit_nofile 16384;
error_log ${dir}/error.log warn;

events {
  worker_connections 8192;
  multi_accept on;
}

http {
  ${accessLog ? `log_format shop '$remote_addr "$request" $status $request_time end=$msec upstream=$upstream_addr/$upstream_status id=$request_id';
  access_log ${dir}/access.log shop;` : 'access_log off;'}
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 1m;
  keepalive_timeout 65s;
  keepalive_requests 100000;

  upstream skippass {
    # Round-robin; an instance that refuses a connection sits out for fail_timeout.
${servers}
  }

  server {
    listen 127.0.0.1:${port} backlog=4096;

    location / {
      proxy_pass http://skippass;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      # Set, not appended to: this nginx is the edge, and the shop (TRUST_PROXY=true trusts every
      # hop) takes the left-most address, so an appended list would let a client pick the IP its
      # rate limits are counted by. A proxy in front of this one would need set_real_ip_from.
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      # The proxy's own ID for every request (32 hex digits), never one a client made up; the shop
      # (TRUST_PROXY=true) logs it and sends it back, so a proxy log line and a shop log line match.
      proxy_set_header X-Request-Id $request_id;
      # Connection: close (nginx's default): no pooled connections, see the top of this file.
      proxy_connect_timeout 2s;
      proxy_send_timeout 60s;
      proxy_read_timeout 120s;
      # See the top of bench/lib/proxy.mjs: never non_idempotent.
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries ${Math.max(2, upstreams.length)};
      proxy_next_upstream_timeout 10s;
    }
  }
}
`;
}

/** Worker pids of an nginx master (so a master killed -9 does not leave its workers listening). */
function childPids(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Writes the configuration to a temp dir and runs nginx in the foreground as a child; resolves
 * once it answers HTTP on its port. stop() shuts it down (SIGQUIT: finish requests in flight,
 * then SIGKILL of master and workers after graceMs) and removes the temp dir.
 * @param {{ upstreams: string[], port?: number, workers?: number | 'auto', accessLog?: boolean, readyTimeoutMs?: number }} options
 */
export async function startProxy({ upstreams, port, workers = 1, accessLog = true, readyTimeoutMs = 15_000 }) {
  const binary = nginxBinary();
  if (!binary) throw new Error('nginx is not installed (apt-get install -y nginx)');
  const dir = await mkdtemp(join(tmpdir(), 'skippass-nginx-'));
  // nginx's workers run as www-data when the master is root: they must reach the temp dirs.
  chmodSync(dir, 0o755);
  const listenPort = port ?? (await freePort());
  const conf = join(dir, 'nginx.conf');
  await writeFile(conf, nginxConfig({ upstreams, port: listenPort, dir, workers, accessLog }));
  const child = spawn(binary, ['-p', dir, '-e', join(dir, 'error.log'), '-c', conf, '-g', `daemon off; pid ${join(dir, 'nginx.pid')};`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  /** @type {{ code: number | null, signal: NodeJS.Signals | null } | null} */
  let exitInfo = null;
  const exited = new Promise((resolve) =>
    child.on('close', (code, signal) => {
      exitInfo = { code, signal };
      resolve(exitInfo);
    }),
  );
  const url = `http://127.0.0.1:${listenPort}`;
  const errorLog = () => {
    try {
      return readFileSync(join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };

  const proxy = {
    url,
    port: listenPort,
    dir,
    pid: child.pid,
    config: () => readFileSync(conf, 'utf8'),
    /** The master and its workers, for CPU accounting. */
    pids: () => (exitInfo ? [] : [/** @type {number} */ (child.pid), ...childPids(child.pid)]),
    /** nginx's own output plus its error log (warnings about upstreams that failed, for instance). */
    output: () => `${output}${errorLog()}`,
    accessLog: () => {
      try {
        return readFileSync(join(dir, 'access.log'), 'utf8');
      } catch {
        return '';
      }
    },
    async stop(graceMs = 5000) {
      if (!exitInfo) {
        const workers = childPids(child.pid);
        child.kill('SIGQUIT');
        const timer = setTimeout(() => {
          for (const pid of [child.pid, ...workers]) {
            try {
              process.kill(/** @type {number} */ (pid), 'SIGKILL');
            } catch {
              // already gone
            }
          }
        }, graceMs);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };

  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (exitInfo) {
      await rm(dir, { recursive: true, force: true });
      throw new Error(`nginx exited at start (${JSON.stringify(exitInfo)}): ${output}${errorLog()}`);
    }
    try {
      const response = await fetch(`${url}/healthz/live`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      return proxy; // any HTTP answer: nginx listens (an instance may still be starting)
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await proxy.stop(1000);
  throw new Error(`nginx did not answer on ${url} within ${readyTimeoutMs} ms: ${output}`);
}

/** host:port of a shop URL ("http://127.0.0.1:4100" -> "127.0.0.1:4100"), as an upstream server line wants it. */
export const upstreamOf = (url) => new URL(url).host;

if (process.argv[1]?.endsWith('proxy.mjs') && process.argv[2] === 'config') {
  // node bench/lib/proxy.mjs config 127.0.0.1:3001 127.0.0.1:3002: print what the tests run, for a reader of docs/operations.md.
  process.stdout.write(nginxConfig({ upstreams: process.argv.slice(3), port: 8080, dir: '/var/lib/skippass-nginx' }));
}
