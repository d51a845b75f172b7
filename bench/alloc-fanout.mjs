// Bytes allocated per server by a fan-out, for the SDK's default client and mcptools, from V8's
// sampling heap profiler (every allocation counted, including what GC freed since). Unlike CPU
// time, this does not move with the machine's load, so it can compare two builds, or the two
// clients, on a busy machine; allocation is what the client's GC work follows.
//   node bench/alloc-fanout.mjs [servers=10] [rounds=3] [--sides=sdk,mcptools]
// Prints the bytes per server of each side, the functions whose self allocation differs most,
// and mcptools' own functions with everything allocated beneath them (inclusive).
// Servers: the minimal echo server (bench/servers/minimal-echo-server.mjs), whose start is cheap.
import { Session } from 'node:inspector/promises';
import { printTable } from './lib/report.mjs';
import { minimalEchoStdioCommand, settle } from './lib/servers.mjs';
import { loadSides } from './lib/sides.mjs';

const positional = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const servers = Number(positional[0] ?? 10);
const rounds = Number(positional[1] ?? 3);
const sidesFlag = process.argv.find((arg) => arg.startsWith('--sides='));
const names = sidesFlag ? sidesFlag.slice('--sides='.length).split(',') : ['sdk', 'mcptools'];

const { sides, skipped } = await loadSides(names);
for (const [name, reason] of Object.entries(skipped)) console.log(`${name} skipped: ${reason}`);
const targets = Array.from({ length: servers }, () => ({ stdio: minimalEchoStdioCommand() }));
// Warm up with the same N: code compiled during the first fan-outs is not the client's per-server cost.
for (const side of sides) {
  for (let warm = 0; warm < 2; warm++) {
    const handle = await side.open(targets);
    await handle.close();
  }
  await settle(200);
}

const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
const keyOf = ({ functionName, url, lineNumber }) =>
  `${functionName || '(anonymous)'}\t${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/')}:${lineNumber + 1}`;
const perServer = (bytes) => bytes / rounds / servers;
const runs = {};
for (const side of sides) {
  const run = { total: 0, self: new Map(), inclusive: new Map() };
  for (let round = 0; round < rounds; round++) {
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 128,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    const handle = await side.open(targets);
    const { profile } = await session.post('HeapProfiler.stopSampling');
    await handle.close();
    await settle(200);
    const walk = (node, own) => {
      // The profiler's own calls (starting and stopping it) are no side's.
      if (node.callFrame.url === 'node:inspector') return;
      const key = keyOf(node.callFrame);
      run.total += node.selfSize;
      run.self.set(key, (run.self.get(key) ?? 0) + node.selfSize);
      const mine = key.includes('\tdist/') && !own.includes(key) ? [...own, key] : own;
      for (const entry of mine) run.inclusive.set(entry, (run.inclusive.get(entry) ?? 0) + node.selfSize);
      for (const child of node.children) walk(child, mine);
    };
    walk(profile.head, []);
  }
  runs[side.name] = run;
}
session.disconnect();

const kib = (bytes) => `${(bytes / 1024).toFixed(2)} KiB`;
printTable(
  `Allocated per server in a fan-out of ${servers} (minimal echo server), mean of ${rounds}`,
  ['', ...sides.map((side) => side.name)],
  [['per server', ...sides.map((side) => kib(perServer(runs[side.name].total)))]],
);
const [reference, ...others] = sides.map((side) => side.name);
for (const other of others) {
  const keys = new Set([...runs[reference].self.keys(), ...runs[other].self.keys()]);
  printTable(
    `Functions whose self allocation differs most (${other} − ${reference}, per server)`,
    ['function', 'location', reference, other, 'difference'],
    [...keys]
      .map((key) => [
        key,
        perServer(runs[reference].self.get(key) ?? 0),
        perServer(runs[other].self.get(key) ?? 0),
      ])
      .sort((left, right) => Math.abs(right[2] - right[1]) - Math.abs(left[2] - left[1]))
      .slice(0, 25)
      .map(([key, ref, own]) => [...key.split('\t'), kib(ref), kib(own), kib(own - ref)]),
  );
  const inclusive = [...runs[other].inclusive].sort((left, right) => right[1] - left[1]).slice(0, 25);
  if (inclusive.length > 0)
    printTable(
      `${other}: its own functions, inclusive (per server)`,
      ['function', 'location', 'allocated'],
      inclusive.map(([key, bytes]) => [...key.split('\t'), kib(perServer(bytes))]),
    );
}
