import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig, SETTINGS_FROM_FILES } from './config.ts';
import { passSigningKey } from './purchases/pass-codes.ts';
import { run } from './test-support/server-process.ts';

/**
 * Issue 14: no container engine runs on this machine, so the Dockerfile, compose.yaml and the
 * Caddyfile are checked here for what they promise (docs/operations.md, Containers; ADR 0017): a non-root
 * image with a working health check, two instances with shared secrets from files and a volume
 * each, PostgreSQL with a health check, and a proxy that routes on readiness and hides /metrics.
 */
const root = resolve(import.meta.dirname, '../..');
const text = (path: string) => readFile(join(root, path), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  secrets?: string[];
  volumes?: string[];
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }> | string[];
  stop_grace_period?: string;
  command?: string[];
}
interface Compose {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
  volumes: Record<string, unknown>;
}

const compose = async () => parse(await text('compose.yaml'), { merge: true }) as Compose;
const instances = ['skippass-1', 'skippass-2'];

/** The Dockerfile's instructions of its last stage (what the image runs), continuation lines joined. */
async function runtimeStage(): Promise<Array<[string, string]>> {
  const lines = (await text('Dockerfile')).replace(/\\\n\s*/g, '').split('\n').map((line) => line.trim());
  const stage = lines.slice(lines.findLastIndex((line) => /^FROM\s/i.test(line)));
  return stage.filter((line) => line && !line.startsWith('#')).map((line) => [line.split(/\s/)[0]!.toUpperCase(), line.slice(line.indexOf(' ') + 1)]);
}

describe('the Dockerfile', () => {
  it('runs a slim Node 20 image as a non-root user, with DATA_DIR a volume, SIGTERM to stop and a health check', async () => {
    const stage = await runtimeStage();
    const get = (instruction: string) => stage.filter(([name]) => name === instruction).map(([, value]) => value);
    expect(await text('Dockerfile')).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m);
    expect(get('FROM')[0]).toMatch(/^\$\{NODE_IMAGE\} AS runtime$/);
    const [user] = get('USER').slice(-1);
    expect(user).toBeDefined();
    expect(user!.split(':')[0]).not.toMatch(/^(root|0)$/);
    expect(get('ENV').join(' ')).toContain('DATA_DIR=/data');
    expect(get('VOLUME')).toEqual(['["/data"]']);
    expect(get('STOPSIGNAL')).toEqual(['SIGTERM']);
    expect(get('CMD').at(-1)).toBe('["node", "dist/server/main.js"]');
    // The runtime stage takes production dependencies only: from the stage that installed them.
    expect(get('COPY')).toContain('--from=prod-deps /app/node_modules ./node_modules');
    expect(await text('Dockerfile')).toMatch(/npm ci --omit=dev/);
  });

  it("has a HEALTHCHECK whose command passes on a live server and fails when none answers", async () => {
    const [healthcheck] = (await runtimeStage()).filter(([name]) => name === 'HEALTHCHECK').map(([, value]) => value);
    const command = JSON.parse(healthcheck!.slice(healthcheck!.indexOf('CMD ') + 4)) as string[];
    expect(command.slice(0, 2)).toEqual(['node', '-e']);
    const paths: string[] = [];
    const server = createServer((request, response) => {
      paths.push(request.url!);
      response.writeHead(request.url === '/healthz/live' ? 200 : 404).end('{"status":"ok"}');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = String((server.address() as AddressInfo).port);
    // Asynchronously: the server answering it runs in this process.
    const probe = async () => (await run(process.execPath, ['-e', command[2]!], { env: { PORT: port } })).code;
    try {
      expect(await probe()).toBe(0);
      expect(paths).toEqual(['/healthz/live']);
    } finally {
      await new Promise((done) => server.close(done));
    }
    expect(await probe()).toBe(1);
  });

  it('.dockerignore keeps secrets, local builds and dependencies out of the build context', async () => {
    const ignored = (await text('.dockerignore')).split('\n').map((line) => line.trim());
    for (const entry of ['node_modules', 'dist', 'data', 'secrets', '.env', '.git']) expect(ignored).toContain(entry);
    // And git never sees the secret files either.
    expect((await text('.gitignore')).split('\n')).toContain('secrets/');
  });
});

describe('compose.yaml', () => {
  it('runs two SkipPass instances, PostgreSQL 16, Mailpit and Caddy', async () => {
    const { services } = await compose();
    expect(Object.keys(services).sort()).toEqual(['caddy', 'mailpit', 'postgres', 'skippass-1', 'skippass-2']);
    expect(services.postgres!.image).toMatch(/^postgres:16\b/);
    expect(services.mailpit!.image).toMatch(/^axllent\/mailpit:/);
    expect(services.caddy!.image).toMatch(/^caddy:2/);
  });

  it('gives both instances the same secrets from files, a data volume each, and a stop grace longer than theirs', async () => {
    const { services, secrets, volumes } = await compose();
    const dataVolumes = new Set<string>();
    for (const name of instances) {
      const service = services[name]!;
      const env = service.environment!;
      expect(service.build).toBe('.');
      for (const setting of ['AUTH_SECRET', 'PASS_SIGNING_KEY', 'DATABASE_URL']) {
        expect(env[setting]).toBeUndefined();
        const secret = env[`${setting}_FILE`]!.replace('/run/secrets/', '');
        expect(service.secrets).toContain(secret);
        expect(secrets[secret]!.file).toMatch(/^\.\/secrets\//);
      }
      expect(env.TRUST_PROXY).toBe('true');
      expect(env.PUBLIC_URL).toMatch(/^https:\/\/\$\{SITE_ADDRESS/);
      expect(service.ports).toBeUndefined(); // reachable only through Caddy
      expect(service.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' } });
      const [volume] = service.volumes!;
      expect(volume).toMatch(/:\/data$/);
      dataVolumes.add(volume!.split(':')[0]!);
      expect(Number.parseInt(service.stop_grace_period!, 10) * 1000).toBeGreaterThan(Number(env.SHUTDOWN_GRACE_MS));
    }
    // Two servers on one DATA_DIR refuse to start (admin socket): one volume per instance.
    expect(dataVolumes.size).toBe(2);
    for (const volume of dataVolumes) expect(volumes).toHaveProperty(volume);
    expect(services.postgres!.environment!.POSTGRES_PASSWORD_FILE).toBe('/run/secrets/postgres_password');
  });

  it("sets only settings the shop knows, and they pass the shop's own configuration check", async () => {
    const env = (await compose()).services['skippass-1']!.environment!;
    const documented = new Set([...(await text('README.md')).matchAll(/^\| `([A-Z_]+)` \|/gm)].map((match) => match[1]));
    for (const key of Object.keys(env)) {
      const setting = key.replace(/_FILE$/, '');
      expect(key.endsWith('_FILE') ? (SETTINGS_FROM_FILES as readonly string[]).includes(setting) : documented.has(key), key).toBe(true);
    }
    // With the secret files in place (as compose mounts them), loadConfig takes the environment.
    const secrets = await mkdtemp(join(tmpdir(), 'skippass-compose-secrets-'));
    try {
      const given: Record<string, string> = {};
      for (const [key, value] of Object.entries(env)) {
        if (key.endsWith('_FILE')) {
          const file = join(secrets, key);
          const contents: Record<string, string> = {
            DATABASE_URL_FILE: 'postgres://skippass:pw@postgres:5432/skippass\n',
            // What `openssl genpkey -algorithm ed25519` writes (docs/operations.md, Containers).
            PASS_SIGNING_KEY_FILE: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
          };
          await writeFile(file, contents[key] ?? `${'x'.repeat(48)}\n`);
          given[key] = file;
        } else given[key] = value.replace(/\$\{SITE_ADDRESS[^}]*\}/g, 'shop.example.org');
      }
      const config = loadConfig(given);
      expect(config.PUBLIC_URL).toBe('https://shop.example.org');
      expect(config.DATABASE_URL).toBe('postgres://skippass:pw@postgres:5432/skippass');
      expect(config.TRUST_PROXY).toBe(true);
      expect(() => passSigningKey(config.PASS_SIGNING_KEY, secrets)).not.toThrow();
    } finally {
      await rm(secrets, { recursive: true, force: true });
    }
  });

  it('checks PostgreSQL health, and exposes Mailpit only on the host, Caddy on 80 and 443', async () => {
    const { services } = await compose();
    expect(services.postgres!.healthcheck!.test.join(' ')).toContain('pg_isready -U skippass -d skippass');
    expect(services.mailpit!.ports).toEqual(['127.0.0.1:8025:8025']);
    expect(services.caddy!.ports).toEqual(['80:80', '443:443', '443:443/udp']);
    expect(services.caddy!.volumes).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
    expect(services.postgres!.volumes![0]).toMatch(/:\/var\/lib\/postgresql\/data$/);
  });
});

const caddy = spawnSync('caddy', ['version']).status === 0;

describe.skipIf(!caddy)('deploy/Caddyfile (caddy adapt, Debian caddy 2.6)', () => {
  it('is valid, proxies to both instances by readiness with a balancing policy, and answers /metrics with 404 itself', async () => {
    const env = { SITE_ADDRESS: 'shop.example.org' };
    expect(await run('caddy', ['validate', '--config', 'deploy/Caddyfile', '--adapter', 'caddyfile'], { cwd: root, env })).toMatchObject({ code: 0 });
    const { stdout } = await run('caddy', ['adapt', '--config', 'deploy/Caddyfile', '--adapter', 'caddyfile'], { cwd: root, env });
    type Route = { match?: Array<{ host?: string[]; path?: string[] }>; handle: Array<Record<string, unknown> & { routes?: Route[] }> };
    const [site] = (JSON.parse(stdout) as { apps: { http: { servers: Record<string, { routes: Route[] }> } } }).apps.http.servers.srv0!.routes;
    expect(site!.match).toEqual([{ host: ['shop.example.org'] }]);
    // Routes run in order: /metrics is answered 404 by Caddy before anything reaches the proxy.
    const [metrics, proxy, ...rest] = site!.handle[0]!.routes!;
    expect(rest).toEqual([]);
    expect(metrics).toEqual({ match: [{ path: ['/metrics', '/metrics/*'] }], handle: [{ handler: 'static_response', status_code: 404 }] });
    expect(proxy!.match).toBeUndefined();
    const config = JSON.stringify(proxy!.handle[0]);
    expect(config).toContain('"handler":"reverse_proxy"');
    expect(config).toContain('"upstreams":[{"dial":"skippass-1:3000"},{"dial":"skippass-2:3000"}]');
    expect(config).toContain('"uri":"/healthz/ready"');
    expect(config).toContain('"policy":"least_conn"');
  });
});
