import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SERVED_NAME_LENGTH } from '../../src/gateway/profiles/served-tool-names.js';
import { TOOL_NAME_PATTERN } from '../../src/registry/tool-name.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { everythingServer } from '../router/router-test-helpers.js';
import { connectClient, type RunningGateway, startGateway, toolNames } from './gateway-test-helpers.js';

/**
 * The name each host gives the model for a tool its MCP entry `entry` serves, and the host's
 * limit on that name, from each host's source: Claude Code and Codex `mcp__<entry>__<tool>`
 * (64), Gemini CLI `mcp_<entry>_<tool>` (cut above 63), OpenClaw `<entry>__<tool>` (64).
 */
const hosts = [
  { host: 'Claude Code', name: (entry: string, tool: string) => `mcp__${entry}__${tool}`, limit: 64 },
  { host: 'Codex', name: (entry: string, tool: string) => `mcp__${entry}__${tool}`, limit: 64 },
  { host: 'Gemini CLI', name: (entry: string, tool: string) => `mcp_${entry}_${tool}`, limit: 63 },
  { host: 'OpenClaw', name: (entry: string, tool: string) => `${entry}__${tool}`, limit: 64 },
];

const LONG = 'everything-server-with-a-rather-long-descriptive-name';
const AWKWARD = 'a-second-server-whose-name-is-long-too';

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway({
    servers: { [LONG]: everythingServer(), [AWKWARD]: stdioFixture('many-tools') },
    gateway: { profiles: { wide: { maxNameLength: 64 } } },
  });
});

afterAll(async () => {
  await running?.close();
});

/** The served names of each server's tools, by server (from the registry's record of their origin). */
async function servedByServer(client: Client, budget: number): Promise<Map<string, string[]>> {
  const served = await toolNames(client);
  const byServer = new Map<string, string[]>();
  for (const server of [LONG, AWKWARD]) {
    const originals = running.registry
      .list()
      .filter((entry) => entry.server === server)
      .map((entry) => entry.originalName);
    expect(originals.length).toBeGreaterThan(10);
    // Each server's tools are all served: as many names as the server has tools.
    const prefix = served.find((name) => originals.some((original) => name.endsWith(`__${original}`)));
    expect(prefix).toBeDefined();
    const part = prefix!.slice(0, prefix!.indexOf('__') + 2);
    byServer.set(
      server,
      served.filter((name) => name.startsWith(part)),
    );
    expect(byServer.get(server)).toHaveLength(originals.length);
  }
  for (const name of served) {
    expect(name.length).toBeLessThanOrEqual(budget);
    expect(name).toMatch(TOOL_NAME_PATTERN);
  }
  return byServer;
}

describe('served tool names', () => {
  it('fit under every host prefix with the entry name "mcptools", one prefix per server', async () => {
    const client = await connectClient(running.url, 'legacy');
    try {
      const byServer = await servedByServer(client, DEFAULT_SERVED_NAME_LENGTH);
      for (const names of byServer.values())
        for (const { host, name, limit } of hosts)
          for (const tool of names)
            expect(name('mcptools', tool).length, `${host}: ${tool}`).toBeLessThanOrEqual(limit);
      // The long server's prefix is one shortened part, the same for its short and long tools.
      const everything = byServer.get(LONG)!;
      expect(new Set(everything.map((name) => name.split('__')[0])).size).toBe(1);
      expect(everything[0]!.split('__')[0]!.length).toBeLessThanOrEqual(24);
      // …and the tools still run under their served names.
      const echo = everything.find((name) => name.endsWith('__echo'))!;
      const result = await client.callTool({ name: echo, arguments: { message: 'hi' } });
      expect(JSON.stringify(result.content)).toContain('hi');
    } finally {
      await client.close();
    }
  });

  it('take the budget a profile sets', async () => {
    const client = await connectClient(`${running.url}/wide`, 'modern');
    try {
      const byServer = await servedByServer(client, 64);
      const awkward = byServer.get(AWKWARD)!;
      expect(Math.max(...awkward.map((name) => name.length))).toBeGreaterThan(DEFAULT_SERVED_NAME_LENGTH);
      expect(new Set(awkward.map((name) => name.split('__')[0])).size).toBe(1);
    } finally {
      await client.close();
    }
  });
});
