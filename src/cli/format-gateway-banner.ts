import type { ServerStatus } from '../mcp/provider-types.js';
import { formatStatusTable } from './print.js';

/** What {@link formatGatewayBanner} prints about a running gateway. */
export interface GatewayBanner {
  /** The MCP endpoint, e.g. `http://127.0.0.1:8808/mcp`. */
  mcpUrl: string;
  /** The status page, when the gateway serves one. */
  statusUrl?: string;
  statuses: ServerStatus[];
  connectMs?: ReadonlyMap<string, number>;
  /** Name the clients register it under. Default `mcptools`. */
  name?: string;
}

/**
 * The lines `npm start` / `mcptools serve` print once the gateway listens: the status
 * table, the MCP URL, the status page URL, and one line each for adding it to Claude Code
 * and Claude Desktop (which reaches HTTP servers through `mcp-remote`).
 *
 * @example
 * for (const line of formatGatewayBanner({ mcpUrl: 'http://127.0.0.1:8808/mcp', statuses })) console.log(line);
 */
export function formatGatewayBanner(banner: GatewayBanner): string[] {
  const name = banner.name ?? 'mcptools';
  const desktop = JSON.stringify({
    mcpServers: { [name]: { command: 'npx', args: ['-y', 'mcp-remote', banner.mcpUrl] } },
  });
  return [
    ...formatStatusTable(banner.statuses, banner.connectMs),
    '',
    `MCP endpoint:    ${banner.mcpUrl}`,
    ...(banner.statusUrl ? [`Status page:     ${banner.statusUrl}`] : []),
    `Claude Code:     claude mcp add --transport http ${name} ${banner.mcpUrl}`,
    `Claude Desktop:  ${desktop}`,
    '',
    'Serving until Ctrl-C.',
  ];
}
