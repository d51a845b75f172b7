import type { McpToolsConfig } from '../config/config-types.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { LoadMcpServersOptions } from './mcp-tool-hub.js';
import type { MCPToolProvider } from './provider-types.js';

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
 * const provider = await loadMCPServers(
 *   { servers: { files: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } } },
 *   registry,
 * );
 * const tools = await registry.resolveAll();
 * await provider.close();
 *
 * The hub and the MCP SDK client load with the first call, not with an import of mcptools.
 */
export async function loadMCPServers(
  config: McpToolsConfig,
  registry: ToolRegistry,
  options: LoadMcpServersOptions = {},
): Promise<MCPToolProvider> {
  hubModule ??= import('./mcp-tool-hub.js');
  const { McpToolHub } = await hubModule;
  const hub = new McpToolHub(config, registry, options);
  await hub.start(options.signal);
  if (options.signal?.aborted) {
    await hub.close();
    throw new McpToolsError('ABORTED', 'loadMCPServers was aborted', { cause: options.signal.reason });
  }
  return hub;
}
