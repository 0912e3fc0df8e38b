// Reads CPU time and memory of processes from /proc (Linux). The benches run client, server and
// PostgreSQL on the same two cores, so "who used the CPU" is the first question when a target misses.
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux x86_64

/** utime + stime of one process in seconds, or null once it has exited. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Current and peak resident memory in MiB (VmRSS, VmHWM). */
export function memoryMiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
  } catch {
    return { rss: null, peak: null };
  }
}

/** Sum of CPU seconds of every process whose command is postgres (server and its backends). */
export function postgresCpuSeconds() {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === 'postgres' || comm.startsWith('postgres')) total += cpuSeconds(entry) ?? 0;
    } catch {
      // the process ended while we looked
    }
  }
  return total;
}

/** Busy CPU seconds of the whole machine (all cores) from /proc/stat: everything but idle and iowait. */
export function machineBusySeconds() {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
}

/** Sum of cpuSeconds over several processes (a process that has exited counts as null). */
/** @param {Array<number | undefined>} pids @returns {number | null} */
const sumCpu = (pids) => pids.map((pid) => cpuSeconds(pid)).reduce((/** @type {number | null} */ sum, s) => (s === null ? sum : (sum ?? 0) + s), null);

/**
 * Measures CPU use of the server child (or several instances: an array of pids), PostgreSQL, this
 * bench process (autocannon) and, when given, a proxy's processes (nginx master and workers) over a
 * phase. Backends that exit during the phase drop out of the postgres sum, so that figure is a lower bound.
 * @param {number | undefined | Array<number | undefined>} serverPid
 * @param {number[]} [proxyPids]
 */
export function cpuMeter(serverPid, proxyPids = []) {
  const serverPids = Array.isArray(serverPid) ? serverPid : [serverPid];
  const start = {
    server: sumCpu(serverPids),
    proxy: sumCpu(proxyPids) ?? 0,
    postgres: postgresCpuSeconds(),
    client: process.cpuUsage(),
    machine: machineBusySeconds(),
    at: performance.now(),
  };
  return () => {
    const wall = (performance.now() - start.at) / 1000;
    const client = process.cpuUsage(start.client);
    const serverCpu = (sumCpu(serverPids) ?? start.server ?? 0) - (start.server ?? 0);
    const proxyCpu = (sumCpu(proxyPids) ?? start.proxy) - start.proxy;
    const postgresCpu = postgresCpuSeconds() - start.postgres;
    const clientCpu = (client.user + client.system) / 1e6;
    const machineCpu = machineBusySeconds() - start.machine;
    // "other" is everything else on the machine (a build, tests, kernel softirq work of loopback
    // traffic): when it is large, the run measured a busy machine and its ratio is suspect.
    return {
      wallSeconds: wall,
      serverCpu,
      proxyCpu,
      postgresCpu,
      clientCpu,
      otherCpu: Math.max(0, machineCpu - serverCpu - proxyCpu - postgresCpu - clientCpu),
    };
  };
}

/**
 * Kernel counters of connections refused at the listen queue (Linux /proc/net/netstat). At 1,000
 * simultaneous connects an overflowing accept queue costs a SYN retry (1 s+) that autocannon
 * counts as latency of the connection's first request, so the rush reports the delta.
 */
export function listenQueueDrops() {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n').filter((l) => l.startsWith('TcpExt:'));
    const [header, row] = lines;
    if (header === undefined || row === undefined) return { overflows: null, drops: null };
    const names = header.split(/\s+/).slice(1);
    const values = row.split(/\s+/).slice(1).map(Number);
    const get = (name) => values[names.indexOf(name)] ?? 0;
    return { overflows: get('ListenOverflows'), drops: get('ListenDrops') };
  } catch {
    return { overflows: null, drops: null };
  }
}
