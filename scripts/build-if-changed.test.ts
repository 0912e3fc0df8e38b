import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, 'build-if-changed.mjs');

describe('build-if-changed', () => {
  let dir: string;
  let project: string;
  let builds: string;
  // A fake build: writes the outputs `npm start` serves and counts itself in a file outside the project.
  const fakeBuild = () =>
    `--command=node -e "const fs=require('fs');` +
    `for(const d of ['dist/server','dist/web','dist/ssr'])fs.mkdirSync(d,{recursive:true});` +
    `for(const f of ['dist/server/main.js','dist/web/index.html','dist/ssr/render-page.js'])fs.writeFileSync(f,'');` +
    `fs.appendFileSync(${JSON.stringify(JSON.stringify(builds))},'x')"`;
  const run = (...args: string[]) => spawnSync('node', [script, ...args], { cwd: project, encoding: 'utf8' });
  const start = () => run(fakeBuild());
  const buildCount = () => (existsSync(builds) ? readFileSync(builds, 'utf8').length : 0);
  const stamp = () => join(project, 'dist/.build-stamp');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'build-if-changed-'));
    project = join(dir, 'project');
    builds = join(dir, 'builds');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, '.gitignore'), 'dist/\nnode_modules/\n*.log\n');
    writeFileSync(join(project, 'src/main.ts'), 'export const a = 1;\n');
    writeFileSync(join(project, 'index.html'), '<div class="p-2"></div>\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('builds and stamps on the first run, then skips while nothing changed', () => {
    expect(start().status).toBe(0);
    expect(buildCount()).toBe(1);
    expect(readFileSync(stamp(), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);

    const second = start();
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('Build is current');
    expect(buildCount()).toBe(1);
  });

  it('rebuilds when a source file changes, is added or is renamed, not for git-ignored files', () => {
    start();
    writeFileSync(join(project, 'src/main.ts'), 'export const a = 2;\n');
    start();
    expect(buildCount()).toBe(2);

    writeFileSync(join(project, 'src/extra.ts'), '');
    start();
    expect(buildCount()).toBe(3);

    rmSync(join(project, 'src/extra.ts'));
    writeFileSync(join(project, 'src/other.ts'), '');
    start();
    expect(buildCount()).toBe(4);

    mkdirSync(join(project, 'node_modules/.vite'), { recursive: true });
    writeFileSync(join(project, 'node_modules/.vite/cache'), 'x');
    writeFileSync(join(project, 'server.log'), 'x');
    start();
    expect(buildCount()).toBe(4);
  });

  it('rebuilds when .env changes although git ignores it (vite reads it)', () => {
    writeFileSync(join(project, '.gitignore'), 'dist/\n.env\n');
    start();
    writeFileSync(join(project, '.env'), 'VITE_X=1\n');
    start();
    expect(buildCount()).toBe(2);
  });

  it('a failing build exits with its code and leaves no stamp, so the next run builds again', () => {
    start();
    writeFileSync(join(project, 'src/main.ts'), 'broken');
    const failed = run('--command=exit 3');
    expect(failed.status).toBe(3);
    expect(existsSync(stamp())).toBe(false);

    start();
    expect(buildCount()).toBe(2);
  });

  it('rebuilds when dist/ or an output it serves is gone', () => {
    start();
    rmSync(join(project, 'dist'), { recursive: true });
    start();
    expect(buildCount()).toBe(2);

    rmSync(join(project, 'dist/web/index.html'));
    start();
    expect(buildCount()).toBe(3);

    rmSync(join(project, 'dist/ssr/render-page.js'));
    start();
    expect(buildCount()).toBe(4);
  });

  it('--force builds (and stamps) although nothing changed', () => {
    start();
    expect(run(fakeBuild(), '--force').status).toBe(0);
    expect(buildCount()).toBe(2);
    expect(start().stdout).toContain('Build is current');
    expect(buildCount()).toBe(2);
  });

  it('--check tells whether the build is current and never builds', () => {
    expect(run('--check').status).toBe(1);
    start();
    expect(run(fakeBuild(), '--check')).toMatchObject({ status: 0, stdout: 'Build is current.\n' });
    writeFileSync(join(project, 'src/main.ts'), 'export const a = 2;\n');
    expect(run(fakeBuild(), '--check')).toMatchObject({ status: 1, stdout: 'Build is missing or older than the sources.\n' });
    expect(buildCount()).toBe(1);
  });
});
