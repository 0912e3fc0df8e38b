// 1,000 autocannon sockets live in the bench process and 1,000 more in the server child (which
// inherits our limits), plus pool connections and files. Node cannot call setrlimit, so if the
// soft limit is too low we re-run this same command under `sh -c 'ulimit -n N; exec node ...'`.
import { execFileSync, spawnSync } from 'node:child_process';

export function fileLimits() {
  const [soft, hard] = execFileSync('sh', ['-c', 'ulimit -Sn; ulimit -Hn']).toString().trim().split('\n');
  const parse = (v) => (v === 'unlimited' ? Infinity : Number(v));
  return { soft: parse(soft), hard: parse(hard) };
}

/** Returns the limits when they suffice; otherwise re-executes the process with a raised limit (never returns). */
export function ensureFileLimit(needed) {
  const limits = fileLimits();
  if (limits.soft >= needed) return limits;
  if (limits.hard < needed) {
    throw new Error(`open files: need ${needed}, hard limit is ${limits.hard}; raise it (ulimit -Hn / limits.conf) and rerun`);
  }
  if (process.env.BENCH_FD_REEXEC === '1') throw new Error(`open files: raising the soft limit to ${needed} did not take effect`);
  console.log(`open files: soft limit ${limits.soft} < ${needed}; re-running under ulimit -n ${needed}`);
  const result = spawnSync(
    'sh',
    ['-c', `ulimit -n ${needed} && exec "$0" "$@"`, process.execPath, ...process.execArgv, ...process.argv.slice(1)],
    { stdio: 'inherit', env: { ...process.env, BENCH_FD_REEXEC: '1' } },
  );
  process.exit(result.status ?? 1);
}
