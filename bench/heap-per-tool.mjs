// What each side keeps per listed tool: one stdio server (bench/servers/minimal-echo-server.mjs
// with `--tools`) listing K tools, then 2K; the JS heap after a full collection, minus the heap
// before connecting, with the server open. (growth with 2K − growth with K) / K is what one more
// tool keeps: what a connection, a hub or a client costs once is in both and cancels out. Two
// warm-up rounds of 2K first (code, hidden classes and feedback are made once per process).
// `sdk` keeps the SDK client's listed tools (as a user hands them to an agent); `mcptools` keeps
// the hub's `Tool`s, the registry's entries and the tool list the connection holds.
// `--annotations`: every tool but the first carries behaviour hints (as published servers' do).
//   node bench/heap-per-tool.mjs [--tools=2000] [--rounds=5] [--sides=sdk,mcptools] [--annotations]
// Needs `npm run build`. Each side runs in a child process of its own (`--expose-gc`).
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, printTable, warnIfBusy, writeResult } from './lib/report.mjs';
import { summarize } from './lib/stats.mjs';

const SELF = fileURLToPath(import.meta.url);
const flag = (name, fallback) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

if (process.argv[2] === 'child') {
  await child(
    process.argv[3],
    Number(process.argv[4]),
    Number(process.argv[5]),
    process.argv[6],
    process.argv[7] === 'annotations',
  );
} else {
  const tools = Number(flag('tools', 2000));
  const annotations = process.argv.includes('--annotations');
  const rounds = Number(flag('rounds', 5));
  warnIfBusy();
  const results = {};
  for (const side of flag('sides', 'sdk,mcptools').split(',')) {
    const out = join(tmpdir(), `heap-per-tool-${process.pid}-${side}.json`);
    execFileSync(
      process.execPath,
      [
        '--expose-gc',
        SELF,
        'child',
        side,
        String(tools),
        String(rounds),
        out,
        annotations ? 'annotations' : 'plain',
      ],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
        timeout: 300_000,
      },
    );
    results[side] = JSON.parse(readFileSync(out, 'utf8'));
    rmSync(out, { force: true });
  }
  const rows = Object.entries(results).map(([side, samples]) => {
    const perTool = summarize(samples.map(({ once, twice }) => (twice - once) / tools));
    return [side, format.kib(perTool.p50, 2), format.kib(perTool.min, 2), format.kib(perTool.max, 2)];
  });
  printTable(
    `JS heap kept per listed tool (${tools} → ${2 * tools} tools${annotations ? ' with annotations' : ''} on one stdio server, ${rounds} rounds)`,
    ['side', 'median', 'least', 'most'],
    rows,
  );
  console.log(
    `results: ${writeResult(annotations ? 'heap-per-tool-annotated' : 'heap-per-tool', {
      tools,
      annotations,
      rounds,
      samples: results,
    })}`,
  );
}

async function child(side, tools, rounds, out, annotations) {
  const { minimalEchoStdioCommand } = await import('./lib/servers.mjs');
  const { loadSides } = await import('./lib/sides.mjs');
  const { sides } = await loadSides([side]);
  const { fullCollection } = await import('./lib/full-collection.mjs');
  const collect = () => fullCollection(50);
  const target = (count) => [
    { stdio: minimalEchoStdioCommand(['--tools', String(count), ...(annotations ? ['--annotations'] : [])]) },
  ];
  /** Heap growth with one server of `count` tools open. */
  const growth = async (count) => {
    await collect();
    const before = process.memoryUsage().heapUsed;
    const handle = await sides[0].open(target(count));
    await collect();
    const grown = process.memoryUsage().heapUsed - before;
    await handle.close();
    return grown;
  };
  for (let round = 0; round < 2; round++) await growth(2 * tools);
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    // Alternating which size goes first, so that a drift over the run does not favour one.
    if (round % 2 === 0) {
      const once = await growth(tools);
      samples.push({ once, twice: await growth(2 * tools) });
    } else {
      const twice = await growth(2 * tools);
      samples.push({ once: await growth(tools), twice });
    }
  }
  const { writeFileSync } = await import('node:fs');
  writeFileSync(out, JSON.stringify(samples));
}
