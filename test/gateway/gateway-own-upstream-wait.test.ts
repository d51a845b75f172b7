import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { gatewayServerRequests } from '../../src/gateway/calls/gateway-server-requests.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import { startMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, toolNames } from './gateway-test-helpers.js';

/*
 * While the first connect round runs, a request waits for its own servers only: `late` and
 * `slow` come up when the test creates their start files. With `late` up and `slow` still
 * connecting, a call of late's tool, a call of a tool late does not have, and a list at a
 * profile that admits late alone are answered (before: each waited for slow, the whole round);
 * a call of slow's tool still waits for slow (the control) and is answered once slow is up.
 * listWaitMs is far longer than the test, so no answer comes from the list's bound.
 */

let dir: string;
let provider: McpToolHub;
let gateway: Gateway;
let url: string;
const start = (server: 'late' | 'slow') => writeFileSync(join(dir, server), '');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-own-wait-'));
  const config = {
    servers: {
      late: stdioFixture('echo', ['--start-when', join(dir, 'late')], { connectTimeoutMs: 120_000 }),
      slow: stdioFixture('echo', ['--start-when', join(dir, 'slow')], { connectTimeoutMs: 120_000 }),
    },
    gateway: { listWaitMs: 600_000, profiles: { lateonly: { servers: { allow: ['late'] } } } },
  };
  const registry = new ToolRegistry();
  const started = await startMcpServers(config, registry, gatewayServerRequests());
  provider = started.hub;
  gateway = createGateway({ registry, provider, config, ready: started.connected });
  ({ url } = await gateway.listen({ host: '127.0.0.1', port: 0 }));
});

afterAll(async () => {
  for (const server of ['late', 'slow'] as const) if (!existsSync(join(dir, server))) start(server);
  await gateway?.close();
  await provider?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a request waits for its own servers only while the first round runs', () => {
  it('a call and a profile list of a server that is up are answered while another still connects; a call of that one waits for it', async () => {
    const clients: Client[] = [];
    try {
      const [modern, legacy, profiled] = await Promise.all([
        connectClient(url, 'modern'),
        connectClient(url, 'legacy'),
        connectClient(`${url}/lateonly`, 'modern'),
      ]);
      clients.push(modern!, legacy!, profiled!);
      // An HTTP+SSE client (the SDK v1 transport) waits the same way.
      const sse = new V1Client({ name: 'own-wait-sse', version: '1.0.0' });
      await sse.connect(new SSEClientTransport(new URL('/sse', url)));
      clients.push(sse as unknown as Client);
      expect(provider.status('late')?.state).toBe('connecting');
      let slowAnswered = false;
      const slowCall = modern!.callTool({ name: 'slow__echo', arguments: { text: 'slow' } }).finally(() => {
        slowAnswered = true;
      });
      const lateCalls = [
        ...[modern!, legacy!].map((client) =>
          client.callTool({ name: 'late__echo', arguments: { text: 'late' } }),
        ),
        sse.callTool({ name: 'late__echo', arguments: { text: 'late' } }),
      ];
      const missing = modern!.callTool({ name: 'late__no_such_tool', arguments: {} }).then(
        () => 'answered',
        (error: Error) => error.message,
      );
      const list = toolNames(profiled!);
      start('late');
      for (const call of lateCalls) expect((await call).content).toEqual([{ type: 'text', text: 'late' }]);
      expect(await list).toContain('late__echo');
      expect(await missing).toMatch(/Unknown tool: late__no_such_tool/);
      // These answers came while slow still connects, and its call still waits (not "unknown").
      expect(provider.status('slow')?.state).toBe('connecting');
      expect(slowAnswered).toBe(false);
      start('slow');
      expect((await slowCall).content).toEqual([{ type: 'text', text: 'slow' }]);
    } finally {
      await Promise.all(clients.map((client) => client.close().catch(() => {})));
    }
  });
});

describe('gateway.listWaitMs', () => {
  it('accepts 0 and a duration; refuses a negative or non-numeric value naming the file, the section and the field', () => {
    const parse = (listWaitMs: unknown) =>
      parseConfig({ servers: {}, gateway: { listWaitMs } }, { file: 'mcptools.json' });
    expect(parse(0).gateway?.listWaitMs).toBe(0);
    expect(parse(2500).gateway?.listWaitMs).toBe(2500);
    expect(() => parse(-1)).toThrow(/mcptools\.json.*gateway\.listWaitMs.*0 or more milliseconds/s);
    expect(() => parse('5s')).toThrow(/mcptools\.json.*gateway\.listWaitMs/s);
    expect(() =>
      parseConfig({ servers: {}, gateway: { listWaitMS: 10 } }, { file: 'mcptools.json' }),
    ).toThrow(/listWaitMS/);
  });
});
