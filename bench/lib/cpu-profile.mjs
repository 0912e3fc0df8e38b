// Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time per function and per package,
// which is how we tell "time in our code" from "time in pino / drizzle / pg / Fastify".
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

function packageOf(url) {
  if (!url) return '(native / V8)';
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1];
  if (url.startsWith('node:')) return 'node core';
  const dist = /\/dist\/(server|core)\/(.*)$/.exec(url);
  if (dist) return `app:${dist[1]}/${(dist[2] ?? '').split('/')[0]}`;
  return url.replace(/^file:\/\//, '');
}

export async function summariseProfile(file, top = 15) {
  const profile = JSON.parse(await readFile(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMicros = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    selfMicros.set(profile.samples[i], (selfMicros.get(profile.samples[i]) ?? 0) + delta);
  }
  const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);
  const fn = new Map();
  const pkg = new Map();
  for (const [id, micros] of selfMicros) {
    const { callFrame } = byId.get(id);
    const name = `${callFrame.functionName || '(anonymous)'} ${packageOf(callFrame.url)}:${callFrame.lineNumber + 1}`;
    const key = callFrame.url ? name : callFrame.functionName || '(program)';
    fn.set(key, (fn.get(key) ?? 0) + micros);
    const p = callFrame.url ? packageOf(callFrame.url) : `(${callFrame.functionName || 'program'})`;
    pkg.set(p, (pkg.get(p) ?? 0) + micros);
  }
  const rank = (map) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => ({ name, ms: micros / 1000, share: (100 * micros) / total }));
  return { file, totalMs: total / 1000, functions: rank(fn), packages: rank(pkg) };
}

export async function profilesIn(dir) {
  if (!dir) return [];
  return (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(dir, f));
}
