import type { McpToolsConfig, ServerConfig } from '../config/config-types.js';
import { inferServerType } from '../config/normalize-server.js';
import { withSandboxDefault } from '../config/sandbox-default.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import type { ToolRegistry } from '../pipeline/tool-registry.js';
import type { McpChangingHub, McpToolHub } from './hub-types.js';
import type { LoadMcpServersOptions } from './mcp-tool-hub.js';

/** The hub module, imported by the first call (a later `import()` would still go through the module loader). */
let hubModule: Promise<typeof import('./mcp-tool-hub.js')> | undefined;

/**
 * Connects every enabled server of `config` in parallel, registers their tools into
 * `registry` (owner `mcp:<server>`, names `<server>__<tool>`), and resolves once each server
 * has connected or failed. One server's failure never rejects it: the server's status says
 * why and it is retried in the background. Rejects only with `ABORTED` when `options.signal`
 * aborts, after closing what it started.
 *
 * @example
 * const registry = new ToolRegistry();
 * const hub = await loadMcpServers(
 *   { servers: { files: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } } },
 *   registry,
 * );
 * const tools = await registry.resolveAll();
 * await hub.close();
 *
 * The hub and the MCP SDK client load with the first call, not with an import of mcptools.
 */
export async function loadMcpServers(
  config: McpToolsConfig,
  registry: ToolRegistry,
  options: LoadMcpServersOptions = {},
): Promise<McpToolHub> {
  const { hub, connected } = await startMcpServers(config, registry, options);
  await connected;
  return hub;
}

/**
 * @deprecated Renamed {@link loadMcpServers} (`Mcp…`, as `McpToolsError` and the SDK's
 * `McpServer` are written). Removed in the next release.
 */
export const loadMCPServers = loadMcpServers;

/**
 * {@link loadMcpServers} without the wait: resolves with the hub as soon as the servers
 * start connecting, and `connected`, which settles like `loadMcpServers` (rejects only with
 * `ABORTED`, after closing what it started). `serve` uses it to answer `initialize` at once.
 */
export async function startMcpServers(
  config: McpToolsConfig,
  registry: ToolRegistry,
  options: LoadMcpServersOptions = {},
): Promise<{ hub: McpChangingHub; connected: Promise<void> }> {
  hubModule ??= import('./mcp-tool-hub.js');
  const { McpToolHubImpl } = await hubModule;
  const hub = new McpToolHubImpl(withServerTypes(config), registry, options);
  const connected = hub.start(options.signal).then(async () => {
    if (!options.signal?.aborted) return;
    await hub.close();
    throw new McpToolsError('ABORTED', 'loadMcpServers was aborted', { cause: options.signal.reason });
  });
  return { hub, connected };
}

/**
 * `config` with a `type` on every server, and the top-level `sandbox` given to the stdio servers
 * it covers: a JavaScript caller may hand over entries as Claude Desktop writes them
 * (`{ command, args }`, `{ url }`) and a default box, which the configuration reader applies but
 * a literal passed here skips.
 */
function withServerTypes(config: McpToolsConfig): McpToolsConfig {
  const typedConfig = withTypes(config);
  if (typedConfig.sandbox === undefined) return typedConfig;
  return { ...typedConfig, servers: withSandboxDefault(typedConfig.servers, typedConfig.sandbox) };
}

/** `config` with a `type` on every server (see {@link withServerTypes}). */
function withTypes(config: McpToolsConfig): McpToolsConfig {
  const servers = Object.entries(config.servers ?? {});
  if (servers.every(([, server]) => typeof server?.type === 'string')) return config;
  const typed: Record<string, ServerConfig> = {};
  for (const [name, server] of servers) {
    const type = server?.type ?? (server ? inferServerType(server) : undefined);
    typed[name] = (type === undefined ? server : { ...server, type }) as ServerConfig;
  }
  return { ...config, servers: typed };
}
