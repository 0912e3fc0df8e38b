// Plain-text tables and verdicts, so a bench log reads the same in a terminal and in CI.

/** rows: array of objects; columns: [{ key, label, align }]; missing values print as '-'. */
export function table(rows, columns) {
  const cells = rows.map((row) => columns.map((c) => format(row[c.key])));
  const widths = columns.map((c, i) => Math.max(c.label.length, ...cells.map((r) => r[i].length)));
  const line = (values) =>
    values.map((v, i) => (columns[i].align === 'left' ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  return [line(columns.map((c) => c.label)), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

export function format(value) {
  if (value === undefined || value === null || Number.isNaN(value)) return '-';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') {
    if (Number.isInteger(value)) return String(value);
    return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2);
  }
  return String(value);
}

export function verdict(pass) {
  if (pass === null || pass === undefined) return 'INFO';
  return pass ? 'PASS' : 'FAIL';
}

/** "201:4990 503:10" */
export function statusSummary(statusCounts) {
  const entries = Object.entries(statusCounts).sort(([a], [b]) => Number(a) - Number(b));
  return entries.length ? entries.map(([code, n]) => `${code}:${n}`).join(' ') : 'none';
}

export function heading(text) {
  return `\n=== ${text} ${'='.repeat(Math.max(3, 70 - text.length))}`;
}

/** The checks table every bench prints at its end and run.mjs repeats in the summary. */
export function checksTable(checks) {
  return table(
    checks.map((c) => ({ ...c, verdict: verdict(c.pass) })),
    [
      { key: 'bench', label: 'bench', align: 'left' },
      { key: 'label', label: 'check', align: 'left' },
      { key: 'target', label: 'target', align: 'left' },
      { key: 'actual', label: 'measured', align: 'left' },
      { key: 'verdict', label: 'verdict', align: 'left' },
    ],
  );
}

/** Flags runs measured while something else (a build, tests) used the cores: their figures are suspect. */
export function busyMachineWarning(label, cpu, limitPercent = 25) {
  const other = (100 * cpu.otherCpu) / cpu.wallSeconds;
  return other > limitPercent
    ? `WARNING: ${label}: other processes used ${other.toFixed(0)}% of a core during the measurement; rerun on a quiet machine`
    : null;
}
