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
  console.log(`### Call overhead (${machine(call)})\n`);
  console.log(
    table(
      [
        'transport',
        'mode → era',
        'SDK p50',
        'mcptools p50',
        'ratio p50',
        'SDK p95',
        'mcptools p95',
        'ratio p95',
      ],
      call.results.map((result) => [
        result.transport,
        `${result.mode} → ${result.era.mcptools ?? result.era.sdk}`,
        format.us(result.sdk.p50),
        format.us(result.mcptools?.p50),
        `**${format.ratio(result.ratioP50)}**`,
        format.us(result.sdk.p95),
        format.us(result.mcptools?.p95),
        format.ratio(result.ratioP95),
      ]),
    ),
  );
}
for (const name of ['fanout', 'fanout-sdk-server']) {
  const fanout = read(name);
  if (!fanout) continue;
  console.log(`\n### Fan-out, ${fanout.server} echo server, mode ${fanout.mode} (${machine(fanout)})\n`);
  console.log(
    table(
      ['start delay', 'N', 'SDK-direct p50', 'mcptools p50', 'ratio'],
      fanout.results.map((result) => [
        `${result.delayMs} ms`,
        result.servers,
        format.ms(result.sdk.p50),
        format.ms(result.mcptools?.p50),
        `**${format.ratio(result.ratioP50)}**`,
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
      ['per connected server', 'JS heap + external (p50)', 'RSS (p50, not steady)'],
      memory.perServer.map((row) => [
        row.side === 'sdk' ? 'SDK-direct' : 'mcptools',
        format.kib(row.heap.p50),
        format.kib(row.rss.p50),
      ]),
    ),
  );
}
