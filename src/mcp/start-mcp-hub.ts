import type { McpToolsConfig, ServerConfig } from '../config/config-types.js';
import { inferServerType } from '../config/normalize-server.js';
import { withSandboxDefault } from '../config/sandbox-default.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import type { ToolRegistry } from '../pipeline/tool-registry.js';
import type { HubPolicies } from './hub-policies.js';
import type { McpChangingHub } from './hub-types.js';
import type { LoadMcpServersOptions } from './mcp-tool-hub.js';

/** The hub module, imported by the first call (a later `import()` would still go through the module loader). */
let hubModule: Promise<typeof import('./mcp-tool-hub.js')> | undefined;

/**
 * Makes the hub of `config`'s servers with `policies` (the hub installs their middlewares in
 * `registry`'s pipeline, applies their overrides and guards, and closes them when it closes)
 * and starts connecting: resolves with the hub at once, and `connected`, which settles once
 * each server has connected or failed (rejects only with `ABORTED` when `options.signal`
 * aborts, after closing what it started). `loadMcpServers` gives it the policies of
 * `config.policies`; the hub and the MCP SDK client load with the first call.
 */
export async function startMcpHub(
  config: McpToolsConfig,
  registry: ToolRegistry,
  policies: HubPolicies,
  options: LoadMcpServersOptions = {},
): Promise<{ hub: McpChangingHub; connected: Promise<void> }> {
  hubModule ??= import('./mcp-tool-hub.js');
  const { McpToolHubImpl } = await hubModule;
  let hub: InstanceType<typeof McpToolHubImpl>;
  try {
    hub = new McpToolHubImpl(withServerTypes(config), registry, policies, options);
  } catch (error) {
    // A refused hub takes nothing with it: the policies it was given are closed all the same.
    await policies.close();
    throw error;
  }
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
