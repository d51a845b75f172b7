import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tool } from '../../src/tool/tool.js';
import { waitUntil } from '../helpers/wait-until.js';
import { stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import {
  connectClient,
  eras,
  type RunningGateway,
  startGateway,
  toolNames,
  watchGetStream,
  watchToolChanges,
} from './gateway-test-helpers.js';

/*
 * A tool `list_changed` reaches exactly the profiles whose served tool list changed —
 * not a profile that denies the server (by server or by tool glob), not a router-mode profile
 * (its list is the router tools; `tool_index` answers from the live registry), and a hybrid
 * profile only for its pinned tools. Each negative case is proven with a later change that
 * reaches the same client: announcements go out one after the other on the same stream, so a
 * client that counts exactly the later one never got the earlier.
 */

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway(
    {
      servers: {
        echo: stdioFixture('echo'),
        crash: stdioFixture('crash'),
        changing: stdioFixture('changing'),
      },
    },
    {
      profiles: {
        denied: { servers: { deny: ['changing', 'crash'] } },
        filtered: { tools: { deny: ['changing__*', 'crash__*'] } },
        routed: { mode: 'router' },
        pinned: { mode: 'hybrid', pin: ['changing__*'] },
      },
    },
  );
});

afterAll(async () => {
  await running?.close();
});

function nativeTool(name: string): Tool {
  return {
    name,
    description: 'A native tool registered at run time',
    parameters: { type: 'object', properties: {} },
    execute: async () => ({ content: [{ type: 'text', text: name }] }),
  };
}

describe.each(eras)('tool list changes per profile, for a $label', ({ era }) => {
  const paths = ['', '/denied', '/filtered', '/routed', '/pinned'] as const;
  let clients: Client[] = [];
  let counts: (() => number)[] = [];

  beforeAll(async () => {
    const streams = paths.map(() => watchGetStream());
    clients = await Promise.all(
      paths.map((path, index) =>
        connectClient(`${running.url}${path}`, era, { fetch: streams[index]!.fetch }),
      ),
    );
    counts = await Promise.all(clients.map((client) => watchToolChanges(client, era)));
    // A 2025 client opens its GET stream (where unsolicited notifications go) after connecting.
    if (era === 'legacy')
      await waitUntil(
        () => streams.every((stream) => stream.open()),
        'until every 2025 client opened its GET stream',
      );
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
  });

  it("reach only the profiles that serve the upstream's changed tools", async () => {
    const [full, denied, filtered, routed, pinned] = clients as [Client, Client, Client, Client, Client];
    const before = counts.map((count) => count());
    const added = `profiled_${era}`;
    await full.callTool({ name: 'changing__add_tool', arguments: { name: added } });
    await waitUntil(
      () => counts[0]!() > before[0]! && counts[4]!() > before[4]!,
      'until counts[0]!() > before[0]! && counts[4]!() > before[4]!',
    );
    expect(await toolNames(full)).toContain(`changing__${added}`);
    expect(await toolNames(pinned)).toContain(`changing__${added}`);
    expect(await toolNames(denied)).not.toContain(`changing__${added}`);
    expect(await toolNames(filtered)).not.toContain(`changing__${added}`);

    // A native tool: every full-mode profile serves it, so denied and filtered hear this one…
    const marker = `marker_${era}`;
    const unregister = running.registry.register(nativeTool(marker));
    let registered = true;
    try {
      await waitUntil(
        () => counts[1]!() > before[1]! && counts[2]!() > before[2]!,
        'until counts[1]!() > before[1]! && counts[2]!() > before[2]!',
      );
      // …and only this one: the upstream's change, announced before it, never reached them.
      expect(counts[1]!() - before[1]!).toBe(1);
      expect(counts[2]!() - before[2]!).toBe(1);
      // The router profile's list (the router tools) changed for neither.
      expect(counts[3]!() - before[3]!).toBe(0);
      expect(await toolNames(routed)).not.toContain(marker);
      // …and tool_index, read on every call, already knows both.
      const index = await routed.callTool({ name: 'tool_index', arguments: { search: added } });
      expect(textOf(index as never)).toContain(`changing__${added}`);
      const nativeIndex = await routed.callTool({ name: 'tool_index', arguments: { search: marker } });
      expect(textOf(nativeIndex as never)).toContain(marker);
      // The hybrid profile pins only the upstream's tools: the native one is not its news.
      expect(await toolNames(pinned)).not.toContain(marker);
      expect(counts[4]!() - before[4]!).toBe(1);
      // The next test counts from here: its removal is heard before it starts.
      unregister();
      registered = false;
      await waitUntil(
        () => counts[1]!() - before[1]! === 2 && counts[2]!() - before[2]! === 2,
        'until denied and filtered heard the native tool removed',
      );
    } finally {
      if (registered) unregister();
    }
  });

  it('reach the profiles that serve a server when it returns from a crash, and only those', async () => {
    const [full, denied, filtered] = clients as [Client, Client, Client];
    const before = counts.map((count) => count());
    const states: string[] = [];
    const stop = running.hub.on('status', (status) => {
      if (status.name === 'crash') states.push(status.state);
    });
    try {
      const crashed = await full.callTool({ name: 'crash__crash_now', arguments: {} });
      expect(crashed.isError).toBe(true);
      await waitUntil(() => states.includes('connected'), "until states.includes('connected')", 20_000);
    } finally {
      stop();
    }
    await waitUntil(() => counts[0]!() > before[0]!, 'until counts[0]!() > before[0]!');
    expect(textOf((await full.callTool({ name: 'crash__ok', arguments: {} })) as never)).toBe('ok');
    const marker = `returned_${era}`;
    const unregister = running.registry.register(nativeTool(marker));
    try {
      await waitUntil(
        () => counts[1]!() > before[1]! && counts[2]!() > before[2]!,
        'until counts[1]!() > before[1]! && counts[2]!() > before[2]!',
      );
      // The return from the crash, announced before the native tool, never reached them.
      expect(counts[1]!() - before[1]!).toBe(1);
      expect(counts[2]!() - before[2]!).toBe(1);
      expect(await toolNames(denied)).toContain(marker);
      expect(await toolNames(filtered)).toContain(marker);
    } finally {
      unregister();
    }
  });
});

describe('tool list changes of ownerOnly tools', () => {
  it('reach a 2025 client with the owner token, not one without', async () => {
    const guarded = await startGateway(
      { servers: { echo: stdioFixture('echo') } },
      { token: 'access-secret', ownerToken: 'owner-secret' },
    );
    const streams = [watchGetStream(), watchGetStream()];
    const owner = await connectClient(guarded.url, 'legacy', {
      headers: { authorization: 'Bearer owner-secret' },
      fetch: streams[0]!.fetch,
    });
    const other = await connectClient(guarded.url, 'legacy', {
      headers: { authorization: 'Bearer access-secret' },
      fetch: streams[1]!.fetch,
    });
    try {
      const [ownerChanges, otherChanges] = await Promise.all([
        watchToolChanges(owner, 'legacy'),
        watchToolChanges(other, 'legacy'),
      ]);
      await waitUntil(
        () => streams.every((stream) => stream.open()),
        'until both clients opened their GET stream',
      );
      const unregisterSecret = guarded.registry.register({ ...nativeTool('owner_secret'), ownerOnly: true });
      await waitUntil(() => ownerChanges() === 1, 'until ownerChanges() === 1');
      expect(await toolNames(owner)).toContain('owner_secret');
      const unregisterShared = guarded.registry.register(nativeTool('shared_tool'));
      await waitUntil(
        () => otherChanges() === 1 && ownerChanges() === 2,
        'until otherChanges() === 1 && ownerChanges() === 2',
      );
      // The owner-only tool, announced before the shared one, never reached the other client.
      expect(otherChanges()).toBe(1);
      expect(await toolNames(other)).not.toContain('owner_secret');
      unregisterShared();
      unregisterSecret();
    } finally {
      await other.close();
      await owner.close();
      await guarded.close();
    }
  });
});
