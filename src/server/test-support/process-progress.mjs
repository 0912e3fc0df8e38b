// How the tests tell a slow process from a stuck one. Plain JavaScript: scripts/contract-test.mjs
// runs under node without tsx and uses it too (types in process-progress.d.mts).
import { readFileSync } from 'node:fs';

/**
 * A process is stuck only after this long without CPU time or output. On a busy machine a process
 * may take minutes to start, but while it starts it keeps using CPU: waits have no total deadline.
 */
export const STUCK_AFTER_MS = 60_000;

/** User and system CPU ticks the process (and the children it reaped) used; undefined without /proc. */
function cpuTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm) ": state is the first, utime, stime, cutime, cstime the 12th to 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0);
  } catch {
    return undefined;
  }
}

/**
 * Returns idleMs(): milliseconds since the child last used CPU time or its output grew (always 0
 * where /proc cannot tell). `outputLength` says how much the child has written so far.
 */
export function progressOf(child, outputLength) {
  let lastProgress = Date.now();
  let lastTicks;
  let lastOutput = 0;
  return () => {
    const ticks = child.pid === undefined ? undefined : cpuTicks(child.pid);
    const output = outputLength();
    if (ticks === undefined || ticks !== lastTicks || output !== lastOutput) lastProgress = Date.now();
    lastTicks = ticks;
    lastOutput = output;
    return Date.now() - lastProgress;
  };
}
