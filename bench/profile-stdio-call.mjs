// The profile of one stdio echo call in the client: mcptools' hub (`Tool.execute`), the SDK v2
// client in its default mode and the SDK v1 client (`--sides=`; the peers mastra, mcporter and
// langchain too), each in this process against its own echo server, its CPU profiled over
// `--calls` sequential calls (default 3000, after 300 warm-up calls); sides alternate over
// `--rounds` (3). Prints CPU per call by layer (bench/lib/cpu-profile-layers.mjs), the bytes
// allocated per call (sampling heap profiler: a count the machine's load does not move) and the
// top functions of each side by both.
//   node bench/run.mjs profile-stdio [--calls=N] [--rounds=N] [--sides=mcptools,sdk,sdk-v1] [--top=N]
import { Session } from 'node:inspector/promises';
import { allocationLayers, profileLayers } from './lib/cpu-profile-layers.mjs';
import { printTable, warnIfBusy } from './lib/report.mjs';
import { echoStdioCommand } from './lib/servers.mjs';
import { loadSides, rotated } from './lib/sides.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) =>
  args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const calls = Number(flag('calls', 3000));
const rounds = Number(flag('rounds', 3));
const top = Number(flag('top', 25));
const names = flag('sides', 'mcptools,sdk,sdk-v1').split(',');

warnIfBusy();
const { sides, skipped } = await loadSides(names);
for (const [name, reason] of Object.entries(skipped)) console.log(`${name} skipped: ${reason}`);
const open = [];
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('HeapProfiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 50 });
try {
  for (const side of sides)
    open.push({ name: side.name, handle: await side.open([{ stdio: echoStdioCommand() }]) });
  for (const { handle } of open) for (let index = 0; index < 300; index++) await handle.call(0, 'hello');
  const merged = new Map(
    open.map(({ name }) => [
      name,
      { cpu: 0, wall: 0, bytes: 0, allocated: new Map(), layers: new Map(), functions: new Map() },
    ]),
  );
  for (let round = 0; round < rounds; round++) {
    for (const { name, handle } of rotated(open, round)) {
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: 64,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      await session.post('Profiler.start');
      const cpu = process.cpuUsage();
      const start = performance.now();
      for (let index = 0; index < calls; index++) await handle.call(0, 'hello');
      const wall = performance.now() - start;
      const used = process.cpuUsage(cpu);
      const { profile } = await session.post('Profiler.stop');
      const { profile: sampled } = await session.post('HeapProfiler.getSamplingProfile');
      await session.post('HeapProfiler.stopSampling');
      const own = merged.get(name);
      const allocations = allocationLayers(sampled);
      own.bytes += allocations.totalBytes;
      for (const [fn, bytes] of allocations.functions)
        own.allocated.set(fn, (own.allocated.get(fn) ?? 0) + bytes);
      own.cpu += used.user + used.system;
      own.wall += wall * 1000;
      const { layers, functions } = profileLayers(profile);
      for (const [layer, us] of layers) own.layers.set(layer, (own.layers.get(layer) ?? 0) + us);
      for (const [fn, us] of functions) own.functions.set(fn, (own.functions.get(fn) ?? 0) + us);
    }
  }
  const total = calls * rounds;
  const all = [...merged];
  const layerNames = [...new Set(all.flatMap(([, own]) => [...own.layers.keys()]))].filter((layer) =>
    all.some(([, own]) => (own.layers.get(layer) ?? 0) / total >= 0.5),
  );
  layerNames.sort(
    (left, right) =>
      (merged.get(all[0][0]).layers.get(right) ?? 0) - (merged.get(all[0][0]).layers.get(left) ?? 0),
  );
  printTable(
    `Client CPU per stdio call by layer (self time, µs; ${rounds} × ${calls} sequential calls per side)`,
    ['layer', ...all.map(([name]) => name)],
    [
      ...layerNames.map((layer) => [
        layer,
        ...all.map(([, own]) => ((own.layers.get(layer) ?? 0) / total).toFixed(1)),
      ]),
      [
        'profiled total',
        ...all.map(([, own]) =>
          ([...own.layers.values()].reduce((sum, us) => sum + us, 0) / total).toFixed(1),
        ),
      ],
      ['process CPU', ...all.map(([, own]) => (own.cpu / total).toFixed(1))],
      ['wall per call', ...all.map(([, own]) => (own.wall / total).toFixed(1))],
      ['bytes allocated per call', ...all.map(([, own]) => (own.bytes / total).toFixed(0))],
    ],
  );
  for (const [name, own] of all) {
    printTable(
      `Top ${top} functions by bytes allocated, ${name} (per call; sampled every 64 bytes, collected objects included)`,
      ['function', 'bytes'],
      [...own.allocated]
        .sort((left, right) => right[1] - left[1])
        .slice(0, top)
        .map(([fn, bytes]) => [fn, (bytes / total).toFixed(0)]),
    );
    printTable(
      `Top ${top} functions by self time, ${name} (µs per call)`,
      ['function', 'µs'],
      [...own.functions]
        .sort((left, right) => right[1] - left[1])
        .slice(0, top)
        .map(([fn, us]) => [fn, (us / total).toFixed(2)]),
    );
  }
} finally {
  await Promise.all(open.map(({ handle }) => handle.close()));
  session.disconnect();
}
