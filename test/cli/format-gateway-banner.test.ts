import { describe, expect, it } from 'vitest';
import { formatGatewayBanner } from '../../src/cli/format-gateway-banner.js';

describe('formatGatewayBanner', () => {
  it('prints the status table, both URLs and a working line for Claude Code and Claude Desktop', () => {
    const lines = formatGatewayBanner({
      mcpUrl: 'http://127.0.0.1:8808/mcp',
      statusUrl: 'http://127.0.0.1:8808/',
      statuses: [
        {
          name: 'everything',
          state: 'connected',
          toolCount: 14,
          resourceCount: 7,
          promptCount: 4,
          reconnectAttempts: 0,
        },
      ],
      connectMs: new Map([['everything', 420]]),
    });
    expect(lines[0]).toMatch(/^SERVER\s+STATE/);
    expect(lines[1]).toMatch(/^everything\s+connected\s.*420 ms/);
    expect(lines).toContain('MCP endpoint:    http://127.0.0.1:8808/mcp');
    expect(lines).toContain('Status page:     http://127.0.0.1:8808/');
    expect(lines).toContain(
      'Claude Code:     claude mcp add --transport http mcptools http://127.0.0.1:8808/mcp',
    );
    expect(lines).toContain('SSE endpoint:    http://127.0.0.1:8808/sse  (2024-11-05 HTTP+SSE clients)');
    expect(lines).toContain(
      'OpenClaw:        openclaw mcp add mcptools --url http://127.0.0.1:8808/mcp --transport streamable-http',
    );
    expect(lines.find((line) => line.startsWith('Other hosts:'))).toContain('docs/hosts/');
    const desktop = lines.find((line) => line.startsWith('Claude Desktop:'))?.slice('Claude Desktop:'.length);
    expect(JSON.parse(desktop ?? '')).toEqual({
      mcpServers: { mcptools: { command: 'npx', args: ['-y', 'mcp-remote', 'http://127.0.0.1:8808/mcp'] } },
    });
  });
});
