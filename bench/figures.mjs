// Prints the last results in bench/results/ as Markdown tables, for bench/README.md:
//   node bench/figures.mjs
import { existsSync, readFileSync } from 'node:fs';
import { format } from './lib/report.mjs';

const IMPORT_LABELS = {
  sdk: '`@modelcontextprotocol/client`',
  'sdk-stdio': 'client + `client/stdio`',
  mcptools: 'mcptools (`dist/index.js`)',
  'mcptools-hub': 'mcptools hub modules only',
};
const read = (name) => {
  const file = new URL(`./results/${name}.json`, import.meta.url);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
};
const table = (header, rows) =>
  [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
const machine = (result) =>
  `${result.machine.date.slice(0, 16).replace('T', ' ')} UTC, Node ${result.machine.node}, ${result.machine.cpus} cores, ` +
  `load average ${result.machine.loadAverage.map((load) => load.toFixed(1)).join(' / ')}`;

const call = read('call');
if (call) {
  console.log(`### Calls (${machine(call)})\n`);
  console.log(
    table(
      [
        'transport',
        'side',
        'era',
        'p50',
        'p50 ratio',
        'p50 ÷ SDK auto',
        'calls/s (50 in flight)',
        'ratio',
        '÷ SDK auto',
      ],
      call.results.flatMap((result) =>
        result.sides.map((side) => [
          result.transport,
          side.name,
          side.era ?? '—',
          format.us(side.latency.p50),
          `**${format.ratio(side.latencyRatio)}**`,
          format.ratio(side.latencyRatioAuto),
          side.throughput.p50.toFixed(0),
          `**${format.ratio(side.throughputRatio)}**`,
          format.ratio(side.throughputRatioAuto),
        ]),
      ),
    ),
  );
}
for (const name of ['fanout', 'fanout-minimal-server']) {
  const fanout = read(name);
  if (!fanout?.results?.[0]?.sides) continue;
  const names = fanout.results[0].sides.map((side) => side.name);
  console.log(`\n### Fan-out, ${fanout.server} echo server (${machine(fanout)})\n`);
  console.log(
    table(
      ['start delay', 'N', ...names],
      fanout.results.map((result) => [
        `${result.delayMs} ms`,
        result.servers,
        ...result.sides.map((side) => `${format.ms(side.p50)} (**${format.ratio(side.ratio)}**)`),
      ]),
    ),
  );
}
const memory = read('memory');
if (memory) {
  console.log(`\n### Memory (${machine(memory)})\n`);
  console.log(
    table(
      ['import', 'RSS cost over bare Node', 'import time'],
      memory.imports.map((row) => [
        IMPORT_LABELS[row.side] ?? row.side,
        format.mib(row.cost),
        format.ms(row.importMs),
      ]),
    ),
  );
  console.log('');
  console.log(
    table(
      [
        'per connected server',
        'JS heap + external, marginal (p50)',
        'old figure (p50)',
        'RSS (p50, not steady)',
      ],
      memory.perServer.map((row) => [
        row.side === 'sdk' ? 'SDK-direct' : 'mcptools',
        format.kib(row.marginal?.p50, 1),
        format.kib(row.heap.p50, 1),
        format.kib(row.rss.p50),
      ]),
    ),
  );
  if (memory.growth) {
    console.log('');
    console.log(
      table(
        [`heap growth over ${memory.calls} calls`, 'JS heap + external at start', 'at end', 'growth'],
        memory.growth.map((row) => [
          row.side === 'sdk' ? 'SDK-direct' : 'mcptools',
          format.kib(row.points[0].heap),
          format.kib(row.points.at(-1).heap),
          format.kib(row.growth),
        ]),
      ),
    );
  }
}
