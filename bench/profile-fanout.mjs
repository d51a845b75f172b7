// Where does a fan-out's client CPU go? Runs the SDK's default client and mcptools in ONE
// process, interleaved (order rotating), profiles each fan-out of N servers with the inspector
// (100 µs sampling; closing stays outside the profile) and prints, per fan-out: process CPU,
// sampled time by where the code lives, and the functions whose self time differs most.
//   node bench/profile-fanout.mjs [servers=20] [rounds=6] [--sides=sdk,mcptools]
// Sampled times are wall-clock (a busy machine inflates them); process CPU is the steadier
// figure. The last profile of each side goes to bench/results/profiles/ for Chrome DevTools.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { analyzeCpuProfile } from './lib/cpu-profile.mjs';
import { format, printTable } from './lib/report.mjs';
import { echoStdioCommand, settle } from './lib/servers.mjs';
import { balancedOrder, loadSides } from './lib/sides.mjs';
import { quantile } from './lib/stats.mjs';

const positional = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const servers = Number(positional[0] ?? 20);
const rounds = Number(positional[1] ?? 6);
const sidesFlag = process.argv.find((arg) => arg.startsWith('--sides='));
const names = sidesFlag ? sidesFlag.slice('--sides='.length).split(',') : ['sdk', 'mcptools'];
const PROFILES = fileURLToPath(new URL('./results/profiles/', import.meta.url));
mkdirSync(PROFILES, { recursive: true });

const { sides, skipped } = await loadSides(names);
for (const [name, reason] of Object.entries(skipped)) console.log(`${name} skipped: ${reason}`);
const targets = Array.from({ length: servers }, () => ({ stdio: echoStdioCommand() }));
for (const side of sides) {
  const handle = await side.open(targets.slice(0, Math.min(5, servers)));
  await handle.close();
  await settle(300);
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
const runs = Object.fromEntries(
  sides.map((side) => [side.name, { cpu: [], byCategory: {}, self: new Map(), inclusive: new Map() }]),
);
const add = (map, rows) => {
  for (const row of rows) {
    const key = `${row.name}\t${row.location}`;
    map.set(key, (map.get(key) ?? 0) + row.ms / rounds);
  }
};
for (let round = 0; round < rounds; round++) {
  for (const side of balancedOrder(sides, round)) {
    const run = runs[side.name];
    await session.post('Profiler.start');
    const cpuStart = process.cpuUsage();
    const handle = await side.open(targets);
    const cpu = process.cpuUsage(cpuStart);
    const { profile } = await session.post('Profiler.stop');
    run.cpu.push((cpu.user + cpu.system) / 1000);
    if (round === rounds - 1)
      writeFileSync(`${PROFILES}fanout-${side.name}.cpuprofile`, JSON.stringify(profile));
    const analysis = analyzeCpuProfile(profile);
    for (const [category, ms] of Object.entries(analysis.byCategory))
      run.byCategory[category] = (run.byCategory[category] ?? 0) + ms / rounds;
    add(run.self, analysis.topSelf);
    add(run.inclusive, analysis.ownInclusive);
    await handle.close();
    await settle(300);
  }
}
session.disconnect();

const [reference, ...others] = sides.map((side) => side.name);
printTable(
  `Fan-out of ${servers} servers, ${rounds} rounds: process CPU per fan-out (p50) and sampled time by category (mean)`,
  ['', ...sides.map((side) => side.name)],
  [
    ['process CPU', ...sides.map((side) => format.ms(quantile(runs[side.name].cpu, 0.5)))],
    ...[...new Set(sides.flatMap((side) => Object.keys(runs[side.name].byCategory)))]
      .map((category) => [category, ...sides.map((side) => runs[side.name].byCategory[category] ?? 0)])
      .sort((left, right) => right[1] - left[1])
      .map(([category, ...values]) => [category, ...values.map((ms) => format.ms(ms))]),
  ],
);
for (const other of others) {
  const keys = new Set([...runs[reference].self.keys(), ...runs[other].self.keys()]);
  printTable(
    `Functions whose self time differs most (${other} − ${reference}, ms per fan-out)`,
    ['function', 'location', reference, other, 'difference'],
    [...keys]
      .map((key) => [key, runs[reference].self.get(key) ?? 0, runs[other].self.get(key) ?? 0])
      .sort((left, right) => Math.abs(right[2] - right[1]) - Math.abs(left[2] - left[1]))
      .slice(0, 30)
      .map(([key, ref, own]) => [...key.split('\t'), ref.toFixed(1), own.toFixed(1), (own - ref).toFixed(1)]),
  );
  const inclusive = [...runs[other].inclusive].sort((left, right) => right[1] - left[1]).slice(0, 25);
  if (inclusive.length > 0)
    printTable(
      `${other}: its own functions, inclusive (ms per fan-out)`,
      ['function', 'location', 'ms'],
      inclusive.map(([key, ms]) => [...key.split('\t'), ms.toFixed(1)]),
    );
}
