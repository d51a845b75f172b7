import type { McpToolsConfig } from '../config/config-types.js';
import type { McpChangingHub, McpToolHub } from '../mcp/hub-types.js';
import type { LoadMcpServersOptions } from '../mcp/mcp-tool-hub.js';
import { startMcpHub } from '../mcp/start-mcp-hub.js';
import type { ToolRegistry } from '../pipeline/tool-registry.js';

/** The policies module, imported by the first call, as the hub is: `import 'mcptools'` loads neither. */
let policiesModule: Promise<typeof import('../policies/configured-policies.js')> | undefined;

/**
 * Connects every enabled server of `config` in parallel, registers their tools into
 * `registry` (owner `mcp:<server>`, names `<server>__<tool>`), and resolves once each server
 * has connected or failed. One server's failure never rejects it: the server's status says
 * why and it is retried in the background. Rejects only with `ABORTED` when `options.signal`
 * aborts, after closing what it started. The configuration's `policies` apply to every call
 * through `registry` (and to resource reads and prompt gets) until the hub closes.
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
 * The hub is given the policies the policies layer builds from `config.policies`.
 */
export async function startMcpServers(
  config: McpToolsConfig,
  registry: ToolRegistry,
  options: LoadMcpServersOptions = {},
): Promise<{ hub: McpChangingHub; connected: Promise<void> }> {
  policiesModule ??= import('../policies/configured-policies.js');
  const { ConfiguredPolicies } = await policiesModule;
  return startMcpHub(config, registry, new ConfiguredPolicies(config.policies), options);
}
