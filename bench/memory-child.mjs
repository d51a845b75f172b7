// Child process of the memory benchmark; prints one JSON line and exits. Run with --expose-gc.
//   node --expose-gc bench/memory-child.mjs import <bare|sdk|sdk-stdio|mcptools|mcptools-hub>
//   node --expose-gc bench/memory-child.mjs module <file URL of one dist module>
//   node --expose-gc bench/memory-child.mjs servers <sdk|mcptools> <N> <default|auto|legacy> [warm-up rounds=1]
//   node --expose-gc bench/memory-child.mjs calls <sdk|mcptools> <count>
//   node --expose-gc bench/memory-child.mjs first-connect <sdk|mcptools>
//   node --expose-gc bench/memory-child.mjs connected <sdk|mcptools> <N>   (the guard's RSS figure)
//   (MCPTOOLS_BENCH_DIST=<file URL of a dist/ folder> measures another build on the mcptools side)
//   (first-connect with `--import ./bench/lib/module-trace.mjs`: also lists every module loaded)
// Only dynamic imports below, so `bare` measures a process that loaded nothing of either side.
const [task, side, count, mode, warmupArg] = process.argv.slice(2);

const rss = () => process.memoryUsage().rss;
let getHeapSpaceStatistics;
const snapshot = () => {
  const { rss: resident, heapTotal, heapUsed, external } = process.memoryUsage();
  // Code space apart: JIT code compiled once per process lands there, objects elsewhere.
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((space) => [space.space_name, space.space_used_size]),
  );
  return { rss: resident, heapTotal, heapUsed, external, spaces };
};
// Imported dynamically as everything here: `bare` loads nothing of either side.
const { fullCollection: collect } = await import('./lib/full-collection.mjs');

if (task === 'import') {
  // mcptools is measured through its package entry, dist/index.js, as users import it (the hub
  // and the SDK load on first use); `mcptools-hub` is the hub's own modules (which load the SDK client) and the registry alone.
  const targets =
    {
      sdk: ['@modelcontextprotocol/client'],
      'sdk-stdio': ['@modelcontextprotocol/client', '@modelcontextprotocol/client/stdio'],
      mcptools: [new URL('../dist/index.js', import.meta.url).href],
      'mcptools-hub': [
        new URL('../dist/mcp/mcp-tool-hub.js', import.meta.url).href,
        new URL('../dist/pipeline/tool-registry.js', import.meta.url).href,
      ],
    }[side] ?? [];
  const before = rss();
  const start = performance.now();
  let error = null;
  try {
    for (const target of targets) await import(target);
  } catch (failure) {
    error = failure instanceof Error ? failure.message.split('\n')[0] : String(failure);
  }
  const importMs = performance.now() - start;
  const after = rss();
  await collect();
  console.log(JSON.stringify({ before, after, afterGc: rss(), importMs, error }));
} else if (task === 'module') {
  // One module of dist/ (argument: its file URL) on top of the hub's own modules, to see what
  // each part of dist/index.js adds to what every user of the hub already pays.
  await import(new URL('../dist/mcp/mcp-tool-hub.js', import.meta.url).href);
  await import(new URL('../dist/pipeline/tool-registry.js', import.meta.url).href);
  const before = rss();
  const start = performance.now();
  await import(side);
  const importMs = performance.now() - start;
  console.log(JSON.stringify({ cost: rss() - before, importMs }));
} else if (task === 'servers') {
  ({ getHeapSpaceStatistics } = await import('node:v8'));
  const size = Number(count);
  const { echoStdioCommand } = await import('./lib/servers.mjs');
  const commands = (n) => Array.from({ length: n }, () => echoStdioCommand());
  let open;
  let close;
  if (side === 'sdk') {
    const { closeSdkClients, fanOutSdk } = await import('./lib/sdk-side.mjs');
    open = (n) => fanOutSdk(commands(n), mode);
    close = (clients) => closeSdkClients(clients);
  } else {
    const { loadHub, loadMcpTools, serverConfig } = await import('./lib/mcptools-side.mjs');
    const lib = await loadMcpTools();
    if (lib.unavailable) throw new Error(lib.unavailable);
    let hubs = 0;
    open = (n) => {
      hubs++;
      const servers = Object.fromEntries(
        commands(n).map((stdio, index) => [`echo${hubs}_${index}`, serverConfig({ stdio, mode })]),
      );
      return loadHub(lib, servers, n);
    };
    close = (hub) => hub.provider.close();
  }
  // The figure kept from before 2026-11-24 (`first`): one warm-up round of the same size
  // (connect and close N servers: loads every lazy module, JITs the paths), then N servers
  // measured. Code, feedback vectors and hidden classes V8 still makes during those N connects
  // are paid once per process, yet divided by N as if per server (see bench/README.md).
  const window = async (n) => {
    await collect();
    const before = snapshot();
    const opened = await open(n);
    await collect();
    const after = snapshot();
    await close(opened);
    return { before, after };
  };
  const warmups = Number(warmupArg ?? 1);
  for (let round = 0; round < warmups; round++) {
    await close(await open(size));
    await collect();
  }
  const first = await window(size);
  // The marginal cost of one more server (`small`, `large`): after two more warm-up rounds of
  // 2N, N servers then 2N servers measured in this same process; (large − small) / N. What is
  // paid once per process or per hub is in both windows alike and cancels out. (After one
  // round of 2N the N window still varied by 1.3–2.6 KiB per server from process to process,
  // the 2N window after it by 0.3.)
  for (let round = 0; round < 2; round++) await close(await open(2 * size));
  const small = await window(size);
  const large = await window(2 * size);
  console.log(JSON.stringify({ size, before: first.before, after: first.after, small, large }));
} else if (task === 'calls') {
  // Heap growth over many calls on one connection: 2,000 warm-up calls, then `count` calls with
  // 50 in flight; JS heap + external after a full collection at each quarter.
  const total = Number(count);
  const { echoStdioCommand } = await import('./lib/servers.mjs');
  const { loadSides } = await import('./lib/sides.mjs');
  const { sides } = await loadSides([side]);
  const handle = await sides[0].open([{ stdio: echoStdioCommand() }]);
  const run = async (calls) => {
    let started = 0;
    const worker = async () => {
      while (started < calls) {
        started++;
        await handle.call(0, 'hello');
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));
  };
  await run(2000);
  await collect();
  const heap = () => {
    const { heapUsed, external } = process.memoryUsage();
    return heapUsed + external;
  };
  const points = [{ calls: 0, heap: heap() }];
  for (let quarter = 1; quarter <= 4; quarter++) {
    await run(total / 4);
    await collect();
    points.push({ calls: (total / 4) * quarter, heap: heap() });
  }
  await handle.close();
  console.log(JSON.stringify({ side, total, points }));
} else if (task === 'first-connect') {
  // What a user pays for one server: import, connect one stdio echo server, list its tools (no
  // call), then a full collection. The SDK side imports the client and its stdio transport; the
  // mcptools side its package entry, `loadMcpServers` and `registry.resolveAll()`.
  const { echoStdioCommand } = await import('./lib/servers.mjs');
  const stdio = echoStdioCommand();
  const start = performance.now();
  let close;
  if (side === 'sdk') {
    const { connectAndListSdk } = await import('./lib/sdk-side.mjs');
    const { client } = await connectAndListSdk({ stdio }, 'default');
    close = () => client.close();
  } else {
    const { loadHub, loadMcpTools, serverConfig } = await import('./lib/mcptools-side.mjs');
    const lib = await loadMcpTools();
    if (lib.unavailable) throw new Error(lib.unavailable);
    const { registry, provider } = await loadHub(lib, { echo: serverConfig({ stdio, mode: 'default' }) }, 1);
    if ((await registry.resolveAll()).length !== 1) throw new Error('mcptools: expected one tool');
    close = () => provider.close();
  }
  const connectMs = performance.now() - start;
  await collect();
  const { rss: resident, heapUsed, external } = process.memoryUsage();
  const modules = globalThis.__moduleTrace?.() ?? null;
  await close();
  console.log(JSON.stringify({ side, rss: resident, heapUsed, external, connectMs, modules }));
} else if (task === 'connected') {
  // What a user pays for N servers (the guard, bench/guard.mjs): import, connect N stdio echo
  // servers at once and list their tools, full collection, RSS. The SDK client keeps each tool
  // list beside its client (connectAndListSdk), as mcptools keeps them in its registry.
  const size = Number(count);
  const { echoStdioCommand } = await import('./lib/servers.mjs');
  const commands = Array.from({ length: size }, () => echoStdioCommand());
  const start = performance.now();
  let close;
  if (side === 'sdk') {
    const { closeSdkClients, fanOutSdk } = await import('./lib/sdk-side.mjs');
    const connected = await fanOutSdk(commands, 'default');
    close = () => closeSdkClients(connected);
  } else {
    const { loadHub, loadMcpTools, serverConfig } = await import('./lib/mcptools-side.mjs');
    const dist = process.env.MCPTOOLS_BENCH_DIST;
    const lib = await loadMcpTools(dist ? new URL(dist) : undefined);
    if (lib.unavailable) throw new Error(lib.unavailable);
    const servers = Object.fromEntries(
      commands.map((stdio, index) => [`echo${index}`, serverConfig({ stdio, mode: 'default' })]),
    );
    const { registry, provider } = await loadHub(lib, servers, size);
    if ((await registry.resolveAll()).length !== size) throw new Error(`mcptools: expected ${size} tools`);
    close = () => provider.close();
  }
  const connectMs = performance.now() - start;
  await collect();
  const { rss: resident, heapUsed, external } = process.memoryUsage();
  const modules = globalThis.__moduleTrace?.().length ?? null;
  // Where RSS goes beyond the JS heap: V8's committed spaces, and the kernel's split of RSS.
  const { getHeapSpaceStatistics: spacesOf } = await import('node:v8');
  const committed = Object.fromEntries(
    spacesOf().map((space) => [space.space_name, space.physical_space_size]),
  );
  const { readFileSync } = await import('node:fs');
  const status = readFileSync('/proc/self/status', 'utf8');
  const kib = (field) =>
    Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  const proc = { rssAnon: kib('RssAnon'), rssFile: kib('RssFile'), threads: kib('Threads') / 1024 };
  // V8 keeps the young generation it grew while the process allocated fast (a fast connect of
  // many servers: up to 16 MiB of semi-spaces) until its allocation rate over the last 5 s is
  // low; a full collection then gives it back. So RSS is read again once the process has been
  // idle for 6 s: what the process holds, apart from how fast it just connected.
  await new Promise((resolve) => setTimeout(resolve, 6000));
  await collect();
  const settled = {
    rss: process.memoryUsage().rss,
    newSpace: spacesOf().find((space) => space.space_name === 'new_space')?.physical_space_size,
  };
  await close();
  console.log(
    JSON.stringify({
      side,
      size,
      rss: resident,
      heapUsed,
      external,
      connectMs,
      modules,
      committed,
      proc,
      settled,
    }),
  );
} else {
  throw new Error(`unknown task ${task}`);
}
