import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { createGateway } from '../../src/gateway/create-gateway.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import type { Tool } from '../../src/tool/tool.js';
import { initializeRequest } from '../helpers/initialize-request.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, eras, type RunningGateway, startGateway } from './gateway-test-helpers.js';

const TOKEN = 'gw-secret-token-123';
const OWNER = 'gw-owner-token-456';

const ownerTool: Tool = {
  name: 'owner_secret',
  description: 'Only the owner may call this',
  parameters: { type: 'object', properties: {} },
  ownerOnly: true,
  execute: async () => ({ content: [{ type: 'text', text: 'owner only' }] }),
};

let running: RunningGateway;

beforeAll(async () => {
  const registry = new ToolRegistry();
  registry.register(ownerTool);
  running = await startGateway(
    { servers: { echo: stdioFixture('echo') } },
    { registry, token: TOKEN, ownerToken: OWNER, profiles: { small: { mode: 'router' } } },
  );
});

afterAll(async () => {
  await running?.close();
});

const initialize = JSON.stringify(initializeRequest());

function post(url: string, headers: Record<string, string>, body = initialize) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
}

/** The status of an initialize POSTed to `url` with `headers` (node:http, so that Host can be set). */
function rawPost(url: string, headers: Record<string, string>): Promise<number> {
  const target = new URL(url);
  return new Promise<number>((resolve, reject) => {
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(initialize);
  });
}

describe('the gateway front door', () => {
  it('answers 401 without a token and with a wrong one', async () => {
    expect((await post(running.url, {})).status).toBe(401);
    expect((await post(running.url, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await fetch(running.url.replace('/mcp', '/healthz'))).status).toBe(401);
  });

  it('accepts the token', async () => {
    const response = await post(running.url, { authorization: `Bearer ${TOKEN}` });
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it('refuses a foreign Host or Origin (DNS rebinding)', async () => {
    const port = new URL(running.url).port;
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          headers: {
            host: `evil.example:${port}`,
            authorization: `Bearer ${TOKEN}`,
            'content-type': 'application/json',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(initialize);
    });
    expect(status).toBe(403);
    const origin = await post(running.url, {
      authorization: `Bearer ${TOKEN}`,
      origin: 'http://evil.example',
    });
    expect(origin.status).toBe(403);
    const local = await post(running.url, {
      authorization: `Bearer ${TOKEN}`,
      origin: 'http://localhost:3000',
    });
    expect(local.status).toBe(200);
    await local.body?.cancel();
  });

  it('answers 413 to a body over 4 MiB', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(4 * 1024 * 1024 + 10) },
    });
    const response = await post(running.url, { authorization: `Bearer ${TOKEN}` }, big);
    expect(response.status).toBe(413);
  });

  it('answers 413 to a chunked body that grows past 4 MiB without declaring its length', async () => {
    const url = new URL(running.url);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${TOKEN}`,
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode);
        },
      );
      // The server may close the connection before every chunk is written.
      request.on('error', (error) => (request.writableEnded ? undefined : reject(error)));
      request.write('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"');
      const chunk = 'x'.repeat(256 * 1024);
      for (let sent = 0; sent <= 4 * 1024 * 1024; sent += chunk.length) request.write(chunk);
      request.end('"}}');
    });
    expect(status).toBe(413);
  });

  it('refuses to listen beyond loopback without a token, saying how to set one', async () => {
    const gateway = createGateway({ registry: running.registry, provider: running.hub });
    const error = await gateway.listen({ host: '0.0.0.0', port: 0 }).catch((caught: unknown) => caught);
    expect(McpToolsError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/--token.*MCPTOOLS_TOKEN/);
    await gateway.close();
  });

  it('serves the status page under a default-src none content security policy', async () => {
    const response = await fetch(running.url.replace('/mcp', '/'), {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'(;|$)/);
    await response.body?.cancel();
  });

  it('accepts a Host named in allowedHosts, and still refuses any other', async () => {
    const gateway = createGateway({
      registry: running.registry,
      provider: running.hub,
      token: TOKEN,
      allowedHosts: ['mcp.example'],
    });
    const { url } = await gateway.listen({ host: '127.0.0.1', port: 0 });
    try {
      const statusFor = (host: string) => rawPost(url, { host: `${host}:${new URL(url).port}` });
      expect(await statusFor('mcp.example')).toBe(200);
      expect(await statusFor('evil.example')).toBe(403);
    } finally {
      await gateway.close();
    }
  });

  it('binds a 2025 session to the token that opened it and to its endpoint', async () => {
    const opened = await post(running.url, { authorization: `Bearer ${TOKEN}` });
    expect(opened.status).toBe(200);
    await opened.body?.cancel();
    const session = opened.headers.get('mcp-session-id') as string;
    expect(session).toBeTruthy();
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    const use = async (url: string, token: string) => {
      const response = await post(
        url,
        { authorization: `Bearer ${token}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
        ping,
      );
      await response.body?.cancel();
      return response.status;
    };
    // The endpoint exists (a session opens there), it just is not this session's.
    const elsewhere = await post(`${running.url}/small`, { authorization: `Bearer ${TOKEN}` });
    expect(elsewhere.status).toBe(200);
    await elsewhere.body?.cancel();
    expect(await use(`${running.url}/small`, TOKEN)).toBe(404);
    expect(await use(running.url, OWNER)).toBe(404);
    expect(await use(running.url, TOKEN)).toBe(200);
  });

  it('never shows the token in its pages', async () => {
    const headers = { authorization: `Bearer ${TOKEN}` };
    const page = await (await fetch(running.url.replace('/mcp', '/'), { headers })).text();
    const health = await (await fetch(running.url.replace('/mcp', '/healthz'), { headers })).text();
    expect(page).toContain('echo');
    expect(JSON.parse(health).servers[0].name).toBe('echo');
    for (const text of [page, health]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(OWNER);
    }
  });
});

describe.each(eras)('ownerOnly tools for a $label', ({ era }) => {
  it('are listed and callable only with the owner token', async () => {
    const guest = await connectClient(running.url, era, { headers: { authorization: `Bearer ${TOKEN}` } });
    const owner = await connectClient(running.url, era, { headers: { authorization: `Bearer ${OWNER}` } });
    try {
      expect((await guest.listTools()).tools.map((tool) => tool.name)).not.toContain('owner_secret');
      await expect(guest.callTool({ name: 'owner_secret', arguments: {} })).rejects.toThrow(/Unknown tool/);
      expect((await owner.listTools()).tools.map((tool) => tool.name)).toContain('owner_secret');
      const result = await owner.callTool({ name: 'owner_secret', arguments: {} });
      expect(JSON.stringify(result.content)).toContain('owner only');
    } finally {
      await guest.close();
      await owner.close();
    }
  });
});
