import { McpToolsError } from '../../errors/mcp-tools-error.js';
import type { McpToolHub } from '../../mcp/hub-types.js';
import { suggestToolNames } from '../../registry/suggest-tool-names.js';

/** Throws a usage error (exit 2) naming the configured servers when `name` is not one of them. */
export function requireServer(hub: McpToolHub, name: string): void {
  const servers = hub.servers();
  if (servers.includes(name)) return;
  const close = suggestToolNames(name, servers);
  throw new McpToolsError(
    'INVALID_ARGUMENTS',
    `No server named "${name}". ${close.length > 0 ? `Did you mean: ${close.join(', ')}? ` : ''}Configured: ${servers.join(', ') || 'none'}.`,
  );
}
