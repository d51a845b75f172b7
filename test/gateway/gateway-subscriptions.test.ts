import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { waitUntil } from '../helpers/wait-until.js';
import { eventually, httpServer, stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import { type FaultProxy, startFaultProxy } from '../reliability/fault-proxy.js';
import { connectClient, type RunningGateway, startGateway } from './gateway-test-helpers.js';

/*
 * Upstream resource subscriptions survive their upstream and fail loudly. A
 * subscription made while its server is away is held and subscribed when the server returns;
 * one that fails for a passing reason is retried; after every reconnect the subscribers are
 * told to read again; an upstream that refuses is an error for a 2025 `resources/subscribe`
 * and leaves the URI out of a 2026 listen's acknowledged filter; one that refuses after a
 * reconnect ends the subscription with a warning and an update to read. Two clients, one of
 * each era, hold every subscription together. The notify fixture refuses `touch` for a URI
 * nobody subscribed to upstream, so a successful touch proves the upstream subscription.
 */

const REMOTE = 'mcptools://remote/notify://counter';
const LOCAL = 'mcptools://notify/notify://counter';
const REFUSED = 'mcptools://notify/notify://refused';

const PROXIED = 'mcptools://proxied/notify://counter';

let running: RunningGateway;
let remote: HttpFixture;
let port: string;
let modern: HttpFixture;
let proxy: FaultProxy;

beforeAll(async () => {
  [remote, modern] = await Promise.all([
    startHttpFixture('notify', ['--era', 'legacy']),
    startHttpFixture('notify', ['--era', 'modern']),
  ]);
  port = new URL(remote.url).port;
  proxy = await startFaultProxy(modern.url);
  running = await startGateway(
    {
      servers: {
        remote: httpServer(remote.url),
        notify: stdioFixture('notify', ['--era', 'legacy']),
        echo: stdioFixture('echo'),
        echomodern: stdioFixture('echo', ['--era', 'modern']),
        proxied: httpServer(proxy.url),
      },
    },
    { profiles: { without: { servers: { deny: ['notify'] } } } },
  );
});

afterAll(async () => {
  await running?.close();
  await Promise.all([remote?.close(), proxy?.close(), modern?.close()]);
});

function updatesOf(client: Client): string[] {
  const updates: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    updates.push(notification.params.uri);
  });
  return updates;
}

const touch = (client: Client, server: string) =>
  client.callTool({ name: `${server}__touch`, arguments: { uri: 'notify://counter' } });

/** Stops the remote fixture and waits until the gateway has noticed. */
async function stopRemote(client: Client): Promise<void> {
  await remote.close();
  // A call is what notices a dead HTTP server at once (the reconnect loop then takes over).
  await touch(client, 'remote').catch(() => {});
  await waitUntil(
    () => running.hub.status('remote')?.state !== 'connected',
    "until running.hub.status('remote')?.state !== 'connected'",
    10_000,
  );
}

async function startRemote(args: string[] = []): Promise<void> {
  remote = await startHttpFixture('notify', ['--era', 'legacy', '--port', port, ...args]);
  await waitUntil(
    () => running.hub.status('remote')?.state === 'connected',
    "until running.hub.status('remote')?.state === 'connected'",
    20_000,
  );
}

describe('an upstream subscription', () => {
  it('is refused clearly: an error for a 2025 subscribe, left out of a 2026 acknowledged filter', async () => {
    const legacy = await connectClient(running.url, 'legacy');
    const modern = await connectClient(running.url, 'modern');
    const denied = await connectClient(`${running.url}/without`, 'modern');
    try {
      await expect(legacy.subscribeResource({ uri: REFUSED })).rejects.toThrow(/not found/i);
      // A server without resource subscriptions refuses too.
      await expect(legacy.subscribeResource({ uri: 'mcptools://echo/echo://x' })).rejects.toThrow();
      // …and a 2026-07-28 one, whose listen stream is acknowledged without the URI.
      expect(running.hub.status('echomodern')?.era).toBe('modern');
      await expect(legacy.subscribeResource({ uri: 'mcptools://echomodern/echo://x' })).rejects.toThrow(
        /did not accept a subscription/,
      );
      const subscription = await modern.listen({
        resourceSubscriptions: [REFUSED, LOCAL, 'mcptools://nosuch/x://y', 'not-a-gateway-uri'],
      });
      expect(subscription.honoredFilter.resourceSubscriptions).toEqual([LOCAL]);
      expect((await touch(modern, 'notify')).isError).toBeFalsy();
      await subscription.close();
      // A profile that denies the server is not acknowledged a subscription to it.
      const none = await denied.listen({ resourceSubscriptions: [LOCAL], toolsListChanged: true });
      expect(none.honoredFilter.resourceSubscriptions).toBeUndefined();
      expect(none.honoredFilter.toolsListChanged).toBe(true);
      await none.close();
    } finally {
      await denied.close();
      await modern.close();
      await legacy.close();
    }
  });

  it('made while its server is away is held, and subscribed upstream when the server returns', async () => {
    const legacy = await connectClient(running.url, 'legacy');
    const modern = await connectClient(running.url, 'modern');
    try {
      const legacyUpdates = updatesOf(legacy);
      const modernUpdates = updatesOf(modern);
      await stopRemote(legacy);
      await legacy.subscribeResource({ uri: REMOTE });
      const subscription = await modern.listen({ resourceSubscriptions: [REMOTE] });
      expect(subscription.honoredFilter.resourceSubscriptions).toEqual([REMOTE]);
      await startRemote();
      // Subscribed upstream again: the fixture accepts a touch, and the update reaches both.
      await waitUntil(
        async () => !(await touch(legacy, 'remote')).isError,
        "until !(await touch(legacy, 'remote')).isError",
      );
      const [legacyBefore, modernBefore] = [legacyUpdates.length, modernUpdates.length];
      expect(textOf((await touch(modern, 'remote')) as never)).toBe('touched notify://counter');
      await waitUntil(
        () => legacyUpdates.length > legacyBefore && modernUpdates.length > modernBefore,
        'until legacyUpdates.length > legacyBefore && modernUpdates.length > modernBefore',
      );
      expect(new Set([...legacyUpdates, ...modernUpdates])).toEqual(new Set([REMOTE]));
      await subscription.close();
      await legacy.unsubscribeResource({ uri: REMOTE });
      await waitUntil(
        async () => (await touch(legacy, 'remote')).isError === true,
        "until (await touch(legacy, 'remote')).isError === true",
      );
    } finally {
      await modern.close();
      await legacy.close();
    }
  });

  it('tells its subscribers to read again when its server returns, and ends loudly when it is refused then', async () => {
    const legacy = await connectClient(running.url, 'legacy');
    const modern = await connectClient(running.url, 'modern');
    try {
      const legacyUpdates = updatesOf(legacy);
      const modernUpdates = updatesOf(modern);
      const warnings: unknown[] = [];
      legacy.setNotificationHandler('notifications/message', (notification) => {
        if (notification.params.logger === 'mcptools') warnings.push(notification.params.data);
      });
      await legacy.setLoggingLevel('warning');
      await legacy.subscribeResource({ uri: REMOTE });
      const subscription = await modern.listen({ resourceSubscriptions: [REMOTE] });
      expect((await touch(legacy, 'remote')).isError).toBeFalsy();
      await waitUntil(
        () => legacyUpdates.length > 0 && modernUpdates.length > 0,
        'until legacyUpdates.length > 0 && modernUpdates.length > 0',
      );

      // The server returns, the same: subscribed again, and both are told to read again.
      let [legacyBefore, modernBefore] = [legacyUpdates.length, modernUpdates.length];
      await stopRemote(legacy);
      await startRemote();
      await waitUntil(
        () => legacyUpdates.length > legacyBefore && modernUpdates.length > modernBefore,
        'until legacyUpdates.length > legacyBefore && modernUpdates.length > modernBefore',
      );
      [legacyBefore, modernBefore] = [legacyUpdates.length, modernUpdates.length];
      expect((await touch(legacy, 'remote')).isError).toBeFalsy();
      // The touch's own update reaches both before the next step counts from here.
      await waitUntil(
        () => legacyUpdates.length > legacyBefore && modernUpdates.length > modernBefore,
        "until the touch's update reached both",
      );

      // The server returns without the resource: the subscription ends, and both hear it.
      [legacyBefore, modernBefore] = [legacyUpdates.length, modernUpdates.length];
      await stopRemote(legacy);
      await startRemote(['--refuse', 'notify://counter']);
      await waitUntil(
        () => legacyUpdates.length > legacyBefore && modernUpdates.length > modernBefore,
        'until legacyUpdates.length > legacyBefore && modernUpdates.length > modernBefore',
      );
      await waitUntil(() => warnings.length > 0, 'until warnings.length > 0');
      expect(String(warnings[0])).toContain(`the subscription to ${REMOTE} ended`);
      // Nothing is held upstream any more.
      expect((await touch(legacy, 'remote')).isError).toBe(true);
      await subscription.close();
    } finally {
      await modern.close();
      await legacy.close();
    }
  });

  it('that fails for a passing reason while its server is up is retried', async () => {
    const legacy = await connectClient(running.url, 'legacy');
    const modern = await connectClient(running.url, 'modern');
    const resources = running.hub.resources;
    const subscribe = resources.subscribe!.bind(resources);
    let failures = 2;
    // The injected fault: the first two upstream subscribes time out.
    (resources as { subscribe: typeof subscribe }).subscribe = async (server, uri, options) => {
      if (failures-- > 0) throw new McpToolsError('TIMEOUT', 'injected: the upstream did not answer in time');
      return subscribe(server, uri, options);
    };
    try {
      const legacyUpdates = updatesOf(legacy);
      const modernUpdates = updatesOf(modern);
      await legacy.subscribeResource({ uri: LOCAL });
      const subscription = await modern.listen({ resourceSubscriptions: [LOCAL] });
      expect(subscription.honoredFilter.resourceSubscriptions).toEqual([LOCAL]);
      expect((await touch(legacy, 'notify')).isError).toBe(true);
      await waitUntil(
        async () => !(await touch(legacy, 'notify')).isError,
        "until !(await touch(legacy, 'notify')).isError",
        10_000,
      );
      expect(failures).toBeLessThan(0);
      await waitUntil(
        () => legacyUpdates.includes(LOCAL) && modernUpdates.includes(LOCAL),
        'until legacyUpdates.includes(LOCAL) && modernUpdates.includes(LOCAL)',
      );
      await subscription.close();
      await legacy.unsubscribeResource({ uri: LOCAL });
      await waitUntil(
        async () => (await touch(legacy, 'notify')).isError === true,
        "until (await touch(legacy, 'notify')).isError === true",
      );
    } finally {
      (resources as { subscribe: typeof subscribe }).subscribe = subscribe;
      await modern.close();
      await legacy.close();
    }
  });

  it.each([
    ['ends its stream on purpose (the same connection listens again)', 'end-sse'],
    ['cuts its stream (the hub reconnects and the gateway subscribes again)', 'break-sse'],
  ] as const)('to a 2026-07-28 upstream survives when the upstream %s', async (_case, fault) => {
    const legacy = await connectClient(running.url, 'legacy');
    try {
      expect(running.hub.status('proxied')?.era).toBe('modern');
      const updates = updatesOf(legacy);
      // The injected fault: the upstream listen stream ends right after its acknowledgement.
      proxy.mode = fault;
      const cut = proxy.cut;
      try {
        await legacy.subscribeResource({ uri: PROXIED });
        await waitUntil(() => proxy.cut > cut, 'until proxy.cut > cut');
      } finally {
        proxy.mode = 'pass';
      }
      // Listening again: an update published upstream (to whoever listens) reaches the client.
      expect(
        await eventually(async () => {
          await legacy.callTool({ name: 'proxied__touch', arguments: { uri: 'notify://counter' } });
          return updates.includes(PROXIED);
        }, 15_000),
      ).toBe(true);
      await legacy.unsubscribeResource({ uri: PROXIED });
    } finally {
      await legacy.close();
    }
  });
});
