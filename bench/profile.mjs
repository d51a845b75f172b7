// Where does a call's time go? Profiles `calls` echo calls for SDK-direct and for mcptools
// (each in its own child, inspector CPU profiler, 100 µs sampling) and prints CPU µs per call by
// package and the heaviest functions. Profiles are kept in bench/results/profiles/ for DevTools.
//   node bench/profile.mjs [stdio|http] [calls]
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyzeCpuProfile } from './lib/cpu-profile.mjs';
import { format, printTable } from './lib/report.mjs';
import { startHttpEcho } from './lib/servers.mjs';

const transport = process.argv[2] ?? 'stdio';
const calls = Number(process.argv[3] ?? 5000);
const PROFILES = fileURLToPath(new URL('./results/profiles/', import.meta.url));
const CHILD = fileURLToPath(new URL('./profile-child.mjs', import.meta.url));
mkdirSync(PROFILES, { recursive: true });

const http = transport === 'http' ? await startHttpEcho() : undefined;
const runs = {};
try {
  for (const side of ['sdk', 'mcptools']) {
    const out = `${PROFILES}${side}-${transport}.cpuprofile`;
    const facts = await run([CHILD, side, transport, String(calls), out, http?.url ?? '']);
    runs[side] = { ...facts, ...analyzeCpuProfile(JSON.parse(readFileSync(out, 'utf8'))), out };
  }
} finally {
  await http?.close();
}

const perCall = (ms) => ms / calls;
printTable(
  `Profile of ${calls} echo calls over ${transport} (mode auto): wall and CPU per call`,
  ['side', 'wall / call', 'process CPU / call', 'profile file'],
  Object.entries(runs).map(([side, data]) => [
    side,
    format.us(perCall(data.wallMs)),
    format.us(perCall(data.cpuMs)),
    data.out,
  ]),
);
const categories = [...new Set(Object.values(runs).flatMap((data) => Object.keys(data.byCategory)))];
printTable(
  'Sampled CPU per call by where the code lives (self time; idle excluded)',
  ['category', 'SDK-direct', 'mcptools', 'difference'],
  categories
    .map((category) => {
      const sdk = perCall(runs.sdk.byCategory[category] ?? 0);
      const mcptools = perCall(runs.mcptools.byCategory[category] ?? 0);
      return [category, sdk, mcptools, mcptools - sdk];
    })
    .sort((left, right) => Math.abs(right[3]) - Math.abs(left[3]))
    .map(([category, sdk, mcptools, difference]) => [
      category,
      format.us(sdk),
      format.us(mcptools),
      format.us(difference),
    ]),
);
printTable(
  'SDK-direct: heaviest functions by self time',
  ['function', 'location', 'self / call'],
  runs.sdk.topSelf.slice(0, 20).map((row) => [row.name, row.location, format.us(perCall(row.ms))]),
);
printTable(
  'mcptools: heaviest functions by self time',
  ['function', 'location', 'self / call'],
  runs.mcptools.topSelf.slice(0, 20).map((row) => [row.name, row.location, format.us(perCall(row.ms))]),
);
const sdkSelf = new Map(runs.sdk.topSelf.map((row) => [`${row.name}\t${row.location}`, row.ms]));
const mcptoolsSelf = new Map(runs.mcptools.topSelf.map((row) => [`${row.name}\t${row.location}`, row.ms]));
const differences = [...new Set([...sdkSelf.keys(), ...mcptoolsSelf.keys()])]
  .map((key) => ({ key, sdk: sdkSelf.get(key) ?? 0, mcptools: mcptoolsSelf.get(key) ?? 0 }))
  .map((row) => ({ ...row, difference: row.mcptools - row.sdk }))
  .sort((left, right) => right.difference - left.difference);
printTable(
  'Where mcptools spends more than SDK-direct: self time per call, largest differences',
  ['function', 'location', 'SDK-direct', 'mcptools', 'difference'],
  differences.slice(0, 15).map((row) => {
    const [name, location] = row.key.split('\t');
    return [
      name,
      location,
      format.us(perCall(row.sdk)),
      format.us(perCall(row.mcptools)),
      format.us(perCall(row.difference)),
    ];
  }),
);
printTable(
  'mcptools: its own functions by inclusive time (what each costs with everything it calls)',
  ['function', 'location', 'total / call'],
  runs.mcptools.ownInclusive.slice(0, 20).map((row) => [row.name, row.location, format.us(perCall(row.ms))]),
);

function run(args) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { timeout: 300_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${args.join(' ')}: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').at(-1)));
    });
  });
}
