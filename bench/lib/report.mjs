// Table printing and JSON result files shared by every benchmark.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

const RESULTS_DIR = new URL('../results/', import.meta.url);

/** Prints rows (arrays of cells) as an aligned text table under a title. */
export function printTable(title, header, rows) {
  const cells = [header, ...rows].map((row) => row.map((cell) => String(cell ?? '—')));
  const widths = header.map((_unused, column) => Math.max(...cells.map((row) => row[column].length)));
  const line = (row) => row.map((cell, column) => cell.padStart(widths[column])).join('  ');
  console.log(`\n${title}`);
  console.log(line(cells[0]));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of cells.slice(1)) console.log(line(row));
}

/** The machine and run facts every result file carries. */
export function machineInfo() {
  return {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    loadAverage: loadavg(),
  };
}

/** Writes `bench/results/<name>.json` and returns its path. */
export function writeResult(name, data) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = new URL(`${name}.json`, RESULTS_DIR);
  writeFileSync(file, `${JSON.stringify({ benchmark: name, machine: machineInfo(), ...data }, null, 2)}\n`);
  return file.pathname;
}

/** Formats microseconds, milliseconds or ratios for tables. */
export const format = {
  us: (ms) => (ms === null || ms === undefined || Number.isNaN(ms) ? '—' : `${(ms * 1000).toFixed(0)} µs`),
  ms: (ms) => (ms === null || ms === undefined || Number.isNaN(ms) ? '—' : `${ms.toFixed(0)} ms`),
  kib: (bytes, digits = 0) =>
    bytes === null || bytes === undefined || Number.isNaN(bytes)
      ? '—'
      : `${(bytes / 1024).toFixed(digits)} KiB`,
  mib: (bytes) =>
    bytes === null || bytes === undefined || Number.isNaN(bytes)
      ? '—'
      : `${(bytes / 1024 / 1024).toFixed(1)} MiB`,
  ratio: (value) => (value === null || value === undefined ? '—' : `${value.toFixed(2)}×`),
};

/** Warns when other work competes for the CPUs: figures taken then are only good as ratios. */
export function warnIfBusy() {
  const [oneMinute] = loadavg();
  if (oneMinute > cpus().length * 0.75) {
    console.log(
      `warning: load average ${oneMinute.toFixed(1)} on ${cpus().length} CPUs — other processes are competing; absolute times are inflated, compare ratios only`,
    );
  }
}
