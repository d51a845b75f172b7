import type { ServerStatus } from '../mcp/hub-types.js';
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
 * table, the MCP URL, the HTTP+SSE URL (2024-11-05 clients), the status page URL, and one line
 * each for adding it to Claude Code, Claude Desktop (which reaches HTTP servers through
 * `mcp-remote`) and OpenClaw (`mcp add` defaults to HTTP+SSE, which the gateway also serves
 * at that URL; Streamable HTTP is the better of the two).
 *
 * @example
 * for (const line of formatGatewayBanner({ mcpUrl: 'http://127.0.0.1:8808/mcp', statuses })) console.log(line);
 */
export function formatGatewayBanner(banner: GatewayBanner): string[] {
  const name = banner.name ?? 'mcptools';
  const desktop = JSON.stringify({
    mcpServers: { [name]: { command: 'npx', args: ['-y', 'mcp-remote', banner.mcpUrl] } },
  });
  const sseUrl = banner.mcpUrl.replace(/\/mcp(\/[^/]*)?$/, '/sse$1');
  return [
    ...formatStatusTable(banner.statuses, banner.connectMs),
    '',
    `MCP endpoint:    ${banner.mcpUrl}`,
    `SSE endpoint:    ${sseUrl}  (2024-11-05 HTTP+SSE clients)`,
    ...(banner.statusUrl ? [`Status page:     ${banner.statusUrl}`] : []),
    `Claude Code:     claude mcp add --transport http ${name} ${banner.mcpUrl}`,
    `Claude Desktop:  ${desktop}`,
    `OpenClaw:        openclaw mcp add ${name} --url ${banner.mcpUrl} --transport streamable-http`,
    'Other hosts:     Cursor, VS Code, Gemini CLI, Codex, Windsurf: docs/hosts/ in the mcptools repository',
    '',
    'Serving until Ctrl-C.',
  ];
}
