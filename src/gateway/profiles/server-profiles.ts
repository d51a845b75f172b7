import type { GatewayConfig, GatewayProfileConfig, McpToolsConfig } from '../../config/config-types.js';
import { compileToolFilter } from '../../config/tool-filter.js';

/**
 * The named profiles a gateway serves: the configured `gateway.profiles`, and with
 * `gateway.serverEndpoints` one more per server entry, named as the entry and served at
 * `/mcp/<server>`, that admits that server only. Such a profile never widens what the default
 * endpoint allows: it takes the default profile's `who`, tool filter, overrides and name length,
 * and a server the default profile's `servers` filter denies, or a disabled one, gets none. A
 * configured profile of the same name wins.
 */
export function servedProfiles(
  config: McpToolsConfig | undefined,
  configured: Record<string, GatewayProfileConfig> | undefined,
): Record<string, GatewayProfileConfig> {
  const gateway: GatewayConfig = config?.gateway ?? {};
  const named = { ...(configured ?? gateway.profiles ?? {}) };
  if (gateway.serverEndpoints !== true) return named;
  const admitted = compileToolFilter(gateway.servers);
  for (const [server, entry] of Object.entries(config?.servers ?? {})) {
    if (Object.hasOwn(named, server) || !admitted(server)) continue;
    if ((entry as { enabled?: boolean }).enabled === false) continue;
    named[server] = {
      mode: 'full',
      codeMode: false,
      servers: { allow: [server] },
      endpointOf: server,
      ...(gateway.who ? { who: gateway.who } : {}),
      ...(gateway.tools ? { tools: gateway.tools } : {}),
      ...(gateway.overrides ? { overrides: gateway.overrides } : {}),
      ...(gateway.maxNameLength ? { maxNameLength: gateway.maxNameLength } : {}),
    };
  }
  return named;
}
