// Every client a benchmark compares, behind one shape:
//
//   side.open(targets) → { call(index, text) → Promise<text>, era, close() }
//
// `targets` are `{ stdio: { command, args } }` or `{ url }`; `open` connects to all of them at
// once and lists their tools (what a user waits for before the first call); `call` runs the
// `echo` tool of target `index` and resolves with the echoed text.
//
// - `sdk`       — the SDK's `Client` in its DEFAULT mode: one process, `initialize` (the reference)
// - `sdk-auto`  — the SDK's `Client` with `versionNegotiation: { mode: 'auto' }` (probes
//                 `server/discover`, on a throw-away sibling process over stdio)
// - `mcptools`  — `loadMcpServers` in its default mode, `Tool.execute`
// - `mcptools-auto` — the same with `protocol: "auto"` (asks `server/discover` on the one process)
// - `sdk-v1`    — the SDK v1 client (`@modelcontextprotocol/sdk`, a devDependency), 2025 era
// - `mcporter`, `mastra`, `langchain` — the peers, from bench/peers (see peers.mjs)
import { loadHub, loadMcpTools } from './mcptools-side.mjs';
import { loadPeers } from './peers.mjs';
import { connectAndListSdk } from './sdk-side.mjs';
import { sdkV1Side } from './sdk-v1-side.mjs';

function textOf(result) {
  const text = result?.content?.[0]?.text;
  if (typeof text !== 'string' || result?.isError)
    throw new Error(`not an echo: ${JSON.stringify(result).slice(0, 200)}`);
  return text;
}

/** The SDK v2 client in era negotiation `mode` (`default` or `auto`) as a side. */
export function sdkSide(name, mode) {
  return {
    name,
    async open(targets) {
      // Each server's tool list is kept beside its client (see connectAndListSdk).
      const connected = await Promise.all(targets.map((target) => connectAndListSdk(target, mode)));
      const clients = connected.map(({ client }) => client);
      return {
        era: clients[0]?.getProtocolEra(),
        tools: connected.map(({ tools }) => tools),
        call: async (index, text) =>
          textOf(await clients[index].callTool({ name: 'echo', arguments: { text } })),
        close: () => Promise.all(clients.map((client) => client.close().catch(() => {}))),
      };
    },
  };
}

/** The hub of `lib` (see loadMcpTools) as a side; `name` defaults to `mcptools[-protocol]`. */
export function mcptoolsSide(lib, protocol, name) {
  const extra = protocol === undefined ? {} : { protocol };
  return {
    name: name ?? (protocol === undefined ? 'mcptools' : `mcptools-${protocol}`),
    async open(targets) {
      const servers = Object.fromEntries(
        targets.map((target, index) => [
          `echo${index}`,
          target.stdio
            ? { type: 'stdio', command: target.stdio.command, args: target.stdio.args, ...extra }
            : { type: 'streamable-http', url: target.url, ...extra },
        ]),
      );
      const { registry, provider } = await loadHub(lib, servers, targets.length);
      const tools = targets.map((_target, index) => registry.get(`echo${index}__echo`));
      let id = 0;
      return {
        era: provider.status('echo0')?.era,
        call: async (index, text) => textOf(await tools[index].execute(`bench-${id++}`, { text })),
        close: () => provider.close(),
      };
    },
  };
}

/**
 * The sides to run, in this order: `names` picks and orders them (default: all that load).
 * Resolves `{ sides, skipped }`; a side that cannot load is skipped with its reason.
 */
export async function loadSides(names = ['sdk', 'sdk-auto', 'mcptools', 'mcporter', 'mastra', 'langchain']) {
  const sides = [];
  const skipped = {};
  const lib = names.some((name) => name.startsWith('mcptools')) ? await loadMcpTools() : undefined;
  const peerNames = names.filter((name) => ['mcporter', 'mastra', 'langchain'].includes(name));
  const peers = peerNames.length > 0 ? await loadPeers(peerNames) : { sides: {}, skipped: {} };
  for (const name of names) {
    if (name === 'sdk') sides.push(sdkSide('sdk', 'default'));
    else if (name === 'sdk-v1') sides.push(sdkV1Side);
    else if (name === 'sdk-auto') sides.push(sdkSide('sdk-auto', 'auto'));
    else if (name === 'mcptools' || name === 'mcptools-auto') {
      if (lib.unavailable) skipped[name] = lib.unavailable;
      else sides.push(mcptoolsSide(lib, name === 'mcptools' ? undefined : 'auto'));
    } else if (peers.sides[name]) sides.push(peers.sides[name]);
    else skipped[name] = peers.skipped[name] ?? 'unknown side';
  }
  return { sides, skipped };
}

/** `sides` rotated by `round` places: each side goes first in turn. */
export function rotated(sides, round) {
  const shift = round % sides.length;
  return [...sides.slice(shift), ...sides.slice(0, shift)];
}

/**
 * The order of `round` when what ran just before matters: a rotation, reversed every other
 * round (ABC, CBA, BCA, ACB, CAB, BAC for three sides), so that over 2 × sides rounds each side
 * runs right after each other side equally often, and not always after the same one as in
 * {@link rotated}. Timings of a fan-out at N = 1 depend on it: a side that runs right after a
 * different side was measured 7–13 % slower than right after itself (100 rounds, load 6–17).
 */
export function balancedOrder(sides, round) {
  const base = rotated(sides, Math.floor(round / 2));
  return round % 2 === 1 ? base.reverse() : base;
}
