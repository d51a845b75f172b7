import type { McpToolsConfig } from '../config/config-types.js';
import { namespacePrefix } from '../registry/tool-name.js';

/**
 * The one configured server a tool (or prompt) name designates, so that `call` starts only it:
 * the server of `server.tool` (as mcporter writes it), or the only server whose namespace
 * prefix (its `prefix`, else its name, as `namespace` shapes it) the name starts with.
 * `undefined` when no server or more than one matches (a prefix may begin another's): then
 * every server must connect, as the name may be a native, router or plugin tool, or any server's.
 */
export function serverOfToolName(config: McpToolsConfig, name: string): string | undefined {
  const servers = Object.keys(config.servers ?? {});
  const dot = name.indexOf('.');
  if (dot > 0) {
    const server = name.slice(0, dot);
    if (servers.includes(server)) return server;
  }
  const naming = config.namespace ?? {};
  // The router's per-server tools are `mcp<separator><server>…`: such a name needs the hub whole.
  if (name.startsWith(namespacePrefix('mcp', naming))) return undefined;
  const matching = servers.filter((server) =>
    name.startsWith(namespacePrefix(config.servers[server]?.prefix ?? server, naming)),
  );
  return matching.length === 1 ? matching[0] : undefined;
}
