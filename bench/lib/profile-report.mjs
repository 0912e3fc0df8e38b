// Prints the CPU profile summary of a shop run started with BENCH_CPU_PROF=1 (no-op otherwise).
import { profilesIn, summariseProfile } from './cpu-profile.mjs';
import { heading, table } from './report.mjs';

export async function printProfiles(profileDir) {
  for (const file of await profilesIn(profileDir)) {
    const summary = await summariseProfile(file);
    console.log(heading(`CPU profile ${file} (${summary.totalMs.toFixed(0)} ms sampled)`));
    const columns = [
      { key: 'name', label: 'self time by', align: 'left' },
      { key: 'ms', label: 'ms' },
      { key: 'share', label: '%' },
    ];
    console.log(table(summary.packages, columns));
    console.log();
    console.log(table(summary.functions, columns));
  }
}
