// The measured side: mcptools' hub (`loadMcpServers`) and `Tool.execute`, loaded from dist/.
import { existsSync } from 'node:fs';

const BUILT = new URL('../../dist/', import.meta.url);

/** The hub's loader of `module`: `loadMcpServers`, or `loadMCPServers` in a build before the rename. */
const loaderOf = (module) => module.loadMcpServers ?? module.loadMCPServers;

/**
 * Imports `loadMcpServers` and `ToolRegistry` from the built package: from dist/index.js once it
 * exports them, else from their own modules. Resolves `{ loadMcpServers, ToolRegistry, entry }`
 * or `{ unavailable: reason }`. `dist` (a file URL of a `dist/` folder) loads another build, to
 * compare two builds in one process.
 */
export async function loadMcpTools(dist = BUILT) {
  const index = new URL('index.js', dist);
  if (existsSync(index)) {
    try {
      const module = await import(index.href);
      if (typeof loaderOf(module) === 'function' && typeof module.ToolRegistry === 'function') {
        return {
          loadMcpServers: loaderOf(module),
          ToolRegistry: module.ToolRegistry,
          entry: 'dist/index.js',
        };
      }
    } catch {
      // An unfinished index must not stop the direct imports below.
    }
  }
  // `hub/` since the hub receives its policies; `mcp/` in the commits before (a comparison run).
  const hub = ['hub/load-mcp-servers.js', 'mcp/load-mcp-servers.js']
    .map((file) => new URL(file, dist))
    .find((url) => existsSync(url));
  const registry = new URL('pipeline/tool-registry.js', dist);
  if (hub === undefined || !existsSync(registry)) {
    return { unavailable: 'dist/hub/load-mcp-servers.js not built yet (run npm run build)' };
  }
  try {
    const [hubModule, { ToolRegistry }] = await Promise.all([import(hub.href), import(registry.href)]);
    const loadMcpServers = loaderOf(hubModule);
    if (typeof loadMcpServers !== 'function') return { unavailable: 'loadMcpServers is not exported' };
    return { loadMcpServers, ToolRegistry, entry: `dist/${hub.href.slice(dist.href.length)}` };
  } catch (error) {
    return {
      unavailable: `importing dist failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** A normalized server entry for a stdio command or an HTTP URL; `mode` `default` leaves `protocol` unset. */
export function serverConfig({ stdio, url, mode }) {
  const protocol = mode === 'default' ? {} : { protocol: mode === 'auto' ? 'auto' : 'legacy' };
  return stdio
    ? { type: 'stdio', command: stdio.command, args: stdio.args, ...protocol }
    : { type: 'streamable-http', url, ...protocol };
}

/**
 * Loads `servers` (name → entry) through the hub. Resolves once every server's tools are in
 * the registry: if `loadMcpServers` returned earlier, the wait for the rest is part of the time.
 */
export async function loadHub(lib, servers, expectedTools) {
  const registry = new lib.ToolRegistry();
  // The SDK client has no connect timeout; on a loaded machine 20 servers can take over 30 s.
  const provider = await lib.loadMcpServers({ servers }, registry, { connectTimeoutMs: 180_000 });
  await waitForTools(registry, provider, expectedTools);
  return { registry, provider };
}

async function waitForTools(registry, provider, expectedTools) {
  const count = () => registry.list().filter((row) => row.source === 'mcp').length;
  if (count() >= expectedTools) return;
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      const states = provider.status().map((status) => `${status.name}:${status.state}`);
      reject(new Error(`mcptools: ${count()}/${expectedTools} tools after 180 s (${states.join(', ')})`));
    }, 180_000);
    const unsubscribe = registry.onChange(() => {
      if (count() < expectedTools) return;
      clearTimeout(timer);
      unsubscribe();
      resolve();
    });
  });
}

/** The `Tool` the hub made of `<server>`'s `<tool>`, whatever name it was exposed under. */
export async function findTool(registry, server, originalName) {
  const tools = await registry.resolveAll();
  const tool = tools.find(
    (candidate) => candidate.server === server && candidate.originalName === originalName,
  );
  if (!tool)
    throw new Error(`mcptools: no tool for ${server}/${originalName} in ${tools.map((t) => t.name)}`);
  return tool;
}
