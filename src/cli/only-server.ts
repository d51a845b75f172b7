import type { McpToolsConfig } from '../config/config-types.js';

/**
 * The `only` session option of a command that names its server (`read`, `prompt`): that server
 * alone when it is configured; otherwise all, so that the "No server named" error still lists
 * every configured server.
 */
export function onlyServer(server: string): (config: McpToolsConfig) => readonly string[] | undefined {
  return (config) => (Object.hasOwn(config.servers, server) ? [server] : undefined);
}
