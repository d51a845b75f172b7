import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { escapeHtml, statusPage } from '../../src/gateway/status/status-page.js';
import { waitUntil } from '../helpers/wait-until.js';
import { stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import { connectClient, type RunningGateway, startGateway } from './gateway-test-helpers.js';

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway(
    {
      servers: {
        notify: stdioFixture('notify', ['--era', 'legacy']),
        echo: stdioFixture('echo'),
        res: stdioFixture('resources', ['--name', 'r']),
      },
    },
    {
      profiles: {
        routed: { mode: 'router', servers: { deny: ['echo'] } },
        pinned: { mode: 'hybrid', pin: ['echo__echo'] },
      },
    },
  );
});

afterAll(async () => {
  await running?.close();
});

describe('2025-era pass-through', () => {
  let client: Client;

  beforeAll(async () => {
    client = await connectClient(running.url, 'legacy');
  });

  afterAll(async () => {
    await client?.close();
  });

  it('routes a resource subscription and its updates to the subscriber', async () => {
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      updates.push(notification.params.uri);
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Only one server offers notify://counter: it is subscribed to, and updated, by its own URI.
    await client.subscribeResource({ uri: 'notify://counter' });
    const touched = await client.callTool({ name: 'notify__touch', arguments: { uri: 'notify://counter' } });
    expect(textOf(touched as never)).toBe('touched notify://counter');
    await waitUntil(() => updates.includes('notify://counter'), "until updates.includes('notify://counter')");
    expect(updates.some((uri) => uri.startsWith('mcptools://'))).toBe(false);
    await client.unsubscribeResource({ uri: 'notify://counter' });
    const after = await client.callTool({ name: 'notify__touch', arguments: { uri: 'notify://counter' } });
    expect(after.isError).toBe(true);
  });

  it('forwards upstream log messages at or above the level the client asked for', async () => {
    const logs: { level: string; logger?: string; data: unknown }[] = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      logs.push(notification.params);
    });
    await client.callTool({ name: 'notify__log', arguments: { level: 'error', text: 'before setLevel' } });
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'notify__log', arguments: { level: 'info', text: 'too quiet' } });
    await client.callTool({ name: 'notify__log', arguments: { level: 'error', text: 'loud enough' } });
    await waitUntil(
      () => logs.some((log) => log.data === 'loud enough'),
      "until logs.some((log) => log.data === 'loud enough')",
    );
    expect(logs.map((log) => log.data)).not.toContain('too quiet');
    expect(logs.map((log) => log.data)).not.toContain('before setLevel');
    expect(logs.find((log) => log.data === 'loud enough')?.logger).toBe('notify/fixture');
  });

  it('completes prompt arguments through the upstream', async () => {
    const result = await client.complete({
      ref: { type: 'ref/prompt', name: 'notify__weather' },
      argument: { name: 'city', value: 'L' },
    });
    expect(result.completion.values).toEqual(['Lisbon', 'London', 'Lima']);
  });
});

describe('profiles', () => {
  it('serve only the router tools in router mode, over the servers the profile admits', async () => {
    const client = await connectClient(running.url.replace(/\/mcp$/, '/mcp/routed'), 'modern');
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'tool_index',
          'call_tool',
          'list_mcp_resources',
          'read_mcp_resource',
          'list_mcp_prompts',
          'get_mcp_prompt',
        ]),
      );
      expect(names).not.toContain('echo__echo');
      const denied = await client.callTool({
        name: 'call_tool',
        arguments: { name: 'echo__echo', arguments: { text: 'x' } },
      });
      expect(denied.isError).toBe(true);
      const allowed = await client.callTool({
        name: 'call_tool',
        arguments: { name: 'notify__touch', arguments: { uri: 'notify://nothing' } },
      });
      expect(textOf(allowed as never)).toContain('not subscribed');
      const { resources } = await client.listResources();
      expect(resources.some((resource) => resource.uri.startsWith('echo://'))).toBe(false);
      expect(resources.some((resource) => resource.uri.startsWith('notify://'))).toBe(true);
      // The denied server's resource reads by neither of its names.
      await expect(client.readResource({ uri: 'echo://static/hello' })).rejects.toThrow();
      await expect(client.readResource({ uri: 'mcptools://echo/echo://static/hello' })).rejects.toThrow();
    } finally {
      await client.close();
    }
  });

  it('serve pinned tools beside the router tools in hybrid mode', async () => {
    const client = await connectClient(running.url.replace(/\/mcp$/, '/mcp/pinned'), 'legacy');
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('echo__echo');
      expect(names).toContain('tool_index');
      expect(names).not.toContain('echo__add');
    } finally {
      await client.close();
    }
  });

  it('answer 404 for an unknown profile', async () => {
    const response = await fetch(running.url.replace(/\/mcp$/, '/mcp/nope'), { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
  });
});

describe('configuration and status page', () => {
  it('names the file and field of a bad gateway section', () => {
    let caught: unknown;
    try {
      parseConfig(
        { servers: {}, gateway: { profiles: { ro: { mode: 'readonly' } } } },
        { file: 'mcptools.json', cwd: '/' },
      );
    } catch (error) {
      caught = error;
    }
    expect(McpToolsError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toMatch(/mcptools\.json/);
    expect((caught as Error).message).toMatch(/gateway\.profiles\.ro\.mode/);
  });

  it('escapes everything it shows', () => {
    const html = statusPage(
      [
        {
          name: '<script>alert(1)</script>',
          state: 'error',
          toolCount: 0,
          resourceCount: 0,
          promptCount: 0,
          reconnectAttempts: 1,
          lastError: {
            code: 'CONNECTION_FAILED',
            message: '"><img src=x onerror=alert(1)>',
            recoverable: true,
          },
        },
      ],
      Date.now(),
      ['/mcp'],
    );
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img');
    expect(html).toContain(escapeHtml('<script>alert(1)</script>'));
  });
});
