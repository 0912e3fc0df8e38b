import { cp, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { listenForAdminCommands } from '../admin-socket.ts';
import { staffRole } from '../staff/staff.ts';
import { run } from '../test-support/server-process.ts';
import { signUp, verificationLink } from '../test-support/staff.ts';
import { shopPerTest } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';

/**
 * What a production install runs: the server compiled by tsconfig.server.json, started by plain
 * node, no tsx. That is dist/ when it is current (`npm test` builds first); otherwise the test
 * builds to a directory of its own beside dist/ (same depth, so the compiled code finds drizzle/
 * and node_modules/ as dist/ does), not to a stale dist/ that others may be using.
 */
const root = resolve(import.meta.dirname, '../../..');
let out: string;
const ownBuild = !inject('builtServer');

beforeAll(async () => {
  if (!ownBuild) {
    out = join(root, 'dist');
    return;
  }
  out = await mkdtemp(join(root, '.test-build-'));
  const tsc = await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.server.json', '--outDir', out, '--sourceMap', 'false']);
  expect(tsc).toMatchObject({ code: 0 });
});
afterAll(async () => {
  if (ownBuild) await rm(out, { recursive: true, force: true });
});

const node = (args: string[], env: Record<string, string>) => run(process.execPath, args, { env });

async function jsFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.js')).map((entry) => join(entry.parentPath, entry.name));
}

describe('the built server', () => {
  it('contains the admin CLI and imports no dev dependency (npm ci --omit=dev leaves them out)', async () => {
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const devOnly = new Set(Object.keys(manifest.devDependencies).filter((name) => !(name in manifest.dependencies)));
    // What tsconfig.server.json compiles (dist/ also holds the web bundle, which the browser runs).
    const files = [...(await jsFiles(join(out, 'server'))), ...(await jsFiles(join(out, 'core')))];
    expect(files).toContain(join(out, 'server/cli/admin.js'));
    const used = new Set<string>();
    for (const file of files) {
      for (const [, specifier] of (await readFile(file, 'utf8')).matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)) {
        if (specifier!.startsWith('.') || specifier!.startsWith('node:')) continue;
        const parts = specifier!.split('/');
        used.add(specifier!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
      }
    }
    expect(used.size).toBeGreaterThan(0);
    expect([...used].filter((name) => devOnly.has(name))).toEqual([]);
  });

  it('is what `npm run admin` launches, which asks for a build when there is none', async () => {
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts.admin).toBe('node scripts/admin.mjs');
    // The launcher finds dist/ beside its own directory: a copy in an empty install has none.
    const bare = await mkdtemp(join(tmpdir(), 'skippass-install-'));
    try {
      await mkdir(join(bare, 'scripts'));
      await cp(join(root, 'scripts/admin.mjs'), join(bare, 'scripts/admin.mjs'));
      const missing = await node([join(bare, 'scripts/admin.mjs'), 'grant', 'boss@example.com'], {});
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('run `npm run build` first');
    } finally {
      await rm(bare, { recursive: true, force: true });
    }
  });
});

describe.each(testBackends())('the built admin CLI, run by node, on $name', (backend) => {
  const t = shopPerTest(backend, { AUTH_RATE_LIMIT_PER_MINUTE: '0' });

  it('refuses an unverified account and grants it once verified', async () => {
    // PGlite allows one process: the CLI reaches the test's database through the shop's admin socket.
    const socket = backend.name === 'pglite' ? await listenForAdminCommands(t.shop.dataDir, () => t.database.db) : undefined;
    try {
      const env = { DATA_DIR: t.shop.dataDir, DATABASE_URL: t.database.url ?? '' };
      const grant = () => node([join(out, 'server/cli/admin.js'), 'grant', 'first@example.com'], env);
      await signUp(t.shop.app, 'first@example.com');
      const [account] = await testRows<{ id: string }>(t.database.db, sql`select id from auth_users where email = 'first@example.com'`);

      const refused = await grant();
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('first@example.com has not verified its email address yet');
      expect(await staffRole(t.database.db, account!.id)).toBe('user');

      await t.shop.app.inject({ method: 'GET', url: await verificationLink(t.database.db, 'first@example.com') });
      const granted = await grant();
      expect(granted.code).toBe(0);
      expect(granted.stdout).toContain('first@example.com is now an admin.');
      expect(await staffRole(t.database.db, account!.id)).toBe('admin');

      const wrong = await node([join(out, 'server/cli/admin.js'), 'promote', 'first@example.com'], env);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('Usage: npm run admin -- grant|grant-door|revoke <email>');

      // ADR 0028: door staff, then no staff rights at all.
      const door = await node([join(out, 'server/cli/admin.js'), 'grant-door', 'first@example.com'], env);
      expect(door.code).toBe(0);
      expect(door.stdout).toContain('first@example.com is now door staff');
      expect(await staffRole(t.database.db, account!.id)).toBe('door');
      const revoked = await node([join(out, 'server/cli/admin.js'), 'revoke', 'first@example.com'], env);
      expect(revoked.code).toBe(0);
      expect(revoked.stdout).toContain('first@example.com no longer has staff rights.');
      expect(await staffRole(t.database.db, account!.id)).toBe('user');
    } finally {
      socket?.close();
    }
  });
});
