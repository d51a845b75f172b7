import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBin } from '../cli/cli-process.js';
import { fixtureCommand, type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { SERVE_BOX_OFF } from '../helpers/serve-box-off.js';
import { waitUntil } from '../helpers/wait-until.js';
import { httpServer, stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import { connectClient, eras, type RunningGateway, startGateway } from './gateway-test-helpers.js';

/*
 * Resource updates reach a 2026-07-28 client that listens for them
 * (`subscriptions/listen` with `resourceSubscriptions`), subscribed upstream on its behalf and
 * counted together with 2025-era sessions' subscriptions. The notify fixture refuses `touch`
 * for a URI nobody subscribed to upstream, so each step shows the upstream subscription state.
 */

/** Three notify servers serve notify://counter here: it is shared, and named qualified. */
const COUNTER = 'mcptools://notify/notify://counter';
/** Where notify is the only server (the stdio gateway below), by the URI it gave. */
const BARE = 'notify://counter';
/** The counter of the 2025 HTTP notify server, which every profile here admits. */
const HTTP_COUNTER = 'mcptools://notifyhttp/notify://counter';

let running: RunningGateway;
let notifyHttp: HttpFixture;
let notifyModern: HttpFixture;

beforeAll(async () => {
  [notifyHttp, notifyModern] = await Promise.all([
    startHttpFixture('notify', ['--era', 'legacy']),
    startHttpFixture('notify', ['--era', 'modern']),
  ]);
  running = await startGateway(
    {
      servers: {
        notifyhttp: httpServer(notifyHttp.url),
        notifymodern: httpServer(notifyModern.url),
        notify: stdioFixture('notify', ['--era', 'legacy']),
        undeclared: stdioFixture('undeclared-changes'),
      },
    },
    { profiles: { without: { servers: { deny: ['notify', 'undeclared'] } } } },
  );
});

afterAll(async () => {
  await running?.close();
  await Promise.all([notifyHttp?.close(), notifyModern?.close()]);
});

const touch = async (client: Client) =>
  client.callTool({ name: 'notify__touch', arguments: { uri: 'notify://counter' } });

function updatesOf(client: Client): string[] {
  const updates: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    updates.push(notification.params.uri);
  });
  return updates;
}

describe('a 2026-07-28 client listening for resource updates', () => {
  it('gets them: the gateway subscribes upstream while it listens, and unsubscribes after', async () => {
    const client = await connectClient(running.url, 'modern');
    try {
      const updates = updatesOf(client);
      expect((await touch(client)).isError).toBe(true);
      const subscription = await client.listen({ resourceSubscriptions: [COUNTER] });
      expect(subscription.honoredFilter.resourceSubscriptions).toEqual([COUNTER]);
      const touched = await touch(client);
      expect(textOf(touched as never)).toBe('touched notify://counter');
      await waitUntil(() => updates.includes(COUNTER), 'until updates.includes(COUNTER)');
      await subscription.close();
      await waitUntil(
        async () => (await touch(client)).isError === true,
        'until (await touch(client)).isError === true',
      );
    } finally {
      await client.close();
    }
  });

  it('cannot subscribe to a shared URI by its bare name: the error names the servers and their qualified URIs', async () => {
    const legacy = await connectClient(running.url, 'legacy');
    const modern = await connectClient(running.url, 'modern');
    try {
      await expect(legacy.subscribeResource({ uri: BARE })).rejects.toThrow(
        /"notifyhttp" \(mcptools:\/\/notifyhttp\/notify:\/\/counter\)/,
      );
      // A 2026-07-28 listener is acknowledged without it.
      const subscription = await modern.listen({ resourceSubscriptions: [BARE, COUNTER] });
      expect(subscription.honoredFilter.resourceSubscriptions).toEqual([COUNTER]);
      await subscription.close();
    } finally {
      await modern.close();
      await legacy.close();
    }
  });

  it('gets them over mcptools serve --stdio (built binary) too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcptools-listen-'));
    const config = join(dir, 'mcptools.json');
    writeFileSync(
      config,
      JSON.stringify({ servers: { notify: fixtureCommand('notify', ['--era', 'legacy']) } }),
    );
    const client = new Client(
      { name: 'stdio-listener', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 30_000 } } },
    );
    try {
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [cliBin, 'serve', '--stdio', '--config', config],
          env: SERVE_BOX_OFF,
          stderr: 'pipe',
        }),
      );
      expect(client.getProtocolEra()).toBe('modern');
      const updates = updatesOf(client);
      expect((await touch(client)).isError).toBe(true);
      // The upstream refuses the second URI: the acknowledged filter leaves it out.
      const subscription = await client.listen({
        resourceSubscriptions: [BARE, 'notify://refused'],
      });
      expect(subscription.honoredFilter.resourceSubscriptions).toEqual([BARE]);
      await waitUntil(async () => !(await touch(client)).isError, 'until !(await touch(client)).isError');
      await waitUntil(() => updates.includes(BARE), 'until updates.includes(BARE)');
      await subscription.close();
      await waitUntil(
        async () => (await touch(client)).isError === true,
        'until (await touch(client)).isError === true',
      );
    } finally {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shares the upstream subscription with a 2025 session: the last one out unsubscribes', async () => {
    const modern = await connectClient(running.url, 'modern');
    const legacy = await connectClient(running.url, 'legacy');
    try {
      const modernUpdates = updatesOf(modern);
      const legacyUpdates = updatesOf(legacy);
      await legacy.subscribeResource({ uri: COUNTER });
      const subscription = await modern.listen({ resourceSubscriptions: [COUNTER] });
      await legacy.unsubscribeResource({ uri: COUNTER });
      // The listener still holds the upstream subscription.
      expect((await touch(modern)).isError).toBeFalsy();
      await waitUntil(() => modernUpdates.includes(COUNTER), 'until modernUpdates.includes(COUNTER)');
      expect(legacyUpdates).toEqual([]);
      await legacy.subscribeResource({ uri: COUNTER });
      await subscription.close();
      // …and now the 2025 session does.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await touch(legacy)).isError).toBeFalsy();
      await waitUntil(() => legacyUpdates.includes(COUNTER), 'until legacyUpdates.includes(COUNTER)');
      await legacy.unsubscribeResource({ uri: COUNTER });
      expect((await touch(legacy)).isError).toBe(true);
    } finally {
      await legacy.close();
      await modern.close();
    }
  });

  it('serves the prompts of the servers a profile admits, and refuses the others as unknown', async () => {
    const denied = await connectClient(`${running.url}/without`, 'modern');
    try {
      const { prompts } = await denied.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).not.toContain('notify__weather');
      expect(prompts.map((prompt) => prompt.name)).toContain('notifyhttp__weather');
      await expect(
        denied.getPrompt({ name: 'notify__weather', arguments: { city: 'Lima' } }),
      ).rejects.toThrow(/Unknown prompt/);
      const allowed = await denied.getPrompt({ name: 'notifyhttp__weather', arguments: { city: 'Lima' } });
      expect(JSON.stringify(allowed.messages)).toContain('Weather in Lima?');
    } finally {
      await denied.close();
    }
  });

  it('does not subscribe upstream for a profile that denies the server', async () => {
    const denied = await connectClient(`${running.url}/without`, 'modern');
    const observer = await connectClient(running.url, 'modern');
    try {
      const subscription = await denied.listen({ resourceSubscriptions: [COUNTER] });
      expect((await touch(observer)).isError).toBe(true);
      await subscription.close();
    } finally {
      await denied.close();
      await observer.close();
    }
  });
});

describe('upstream log messages', () => {
  const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

  function logsOf(client: Client): { level: string; logger?: string; data: unknown }[] {
    const logs: { level: string; logger?: string; data: unknown }[] = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      logs.push(notification.params);
    });
    return logs;
  }

  const log = (client: Client, level: string, text: string, asked?: string) =>
    client.callTool({
      name: 'notify__log',
      arguments: { level, text },
      ...(asked === undefined ? {} : { _meta: { [LOG_LEVEL]: asked } }),
    });

  /** What a 2025 session logs once its GET stream is open; assertions leave it out. */
  const OPEN = 'stream open';
  const dataOf = (logs: { data: unknown }[]) =>
    logs.map((entry) => entry.data).filter((data) => data !== OPEN);

  /**
   * Waits until each 2025 session's GET stream (opened after it connects, and where its log
   * messages go) delivers a log from notifyhttp, so that a message missing later was not sent.
   */
  async function untilStreamsOpen(sender: Client, logs: { data: unknown }[][]): Promise<void> {
    await waitUntil(async () => {
      await sender.callTool({ name: 'notifyhttp__log', arguments: { level: 'error', text: OPEN } });
      return logs.every((entries) => entries.some((entry) => entry.data === OPEN));
    }, 'until every 2025 session got a log message on its GET stream');
  }

  it('reach a 2026-07-28 request that asked for them in its envelope, at its level', async () => {
    const client = await connectClient(running.url, 'modern');
    try {
      const logs = logsOf(client);
      await log(client, 'error', 'not asked');
      await log(client, 'info', 'too quiet', 'warning');
      await log(client, 'error', 'loud enough', 'warning');
      await waitUntil(
        () => logs.some((entry) => entry.data === 'loud enough'),
        "until logs.some((entry) => entry.data === 'loud enough')",
      );
      expect(logs.map((entry) => entry.data)).toEqual(['loud enough']);
      expect(logs[0]).toMatchObject({ level: 'error', logger: 'notify/fixture' });
    } finally {
      await client.close();
    }
  });

  it('reach 2025 sessions and 2026 requests of both eras at once, each at its own level', async () => {
    const modern = await connectClient(running.url, 'modern');
    const legacy = await connectClient(running.url, 'legacy');
    const quiet = await connectClient(running.url, 'legacy');
    try {
      const modernLogs = logsOf(modern);
      const legacyLogs = logsOf(legacy);
      const quietLogs = logsOf(quiet);
      await legacy.setLoggingLevel('debug');
      await quiet.setLoggingLevel('error');
      // Repeated until the level has reached the upstream: no fixed wait for it.
      await waitUntil(async () => {
        await log(modern, 'warning', 'from the 2026 call', 'debug');
        return legacyLogs.some((entry) => entry.data === 'from the 2026 call');
      }, "until legacyLogs.some((entry) => entry.data === 'from the 2026 call')");
      expect(modernLogs.map((entry) => entry.data)).toContain('from the 2026 call');
      await log(legacy, 'error', 'from the 2025 call');
      await waitUntil(
        () => quietLogs.some((entry) => entry.data === 'from the 2025 call'),
        "until quietLogs.some((entry) => entry.data === 'from the 2025 call')",
      );
      expect(quietLogs.map((entry) => entry.data)).not.toContain('from the 2026 call');
    } finally {
      await quiet.close();
      await legacy.close();
      await modern.close();
    }
  });

  it("that arrive on a call's own stream reach only that call's client", async () => {
    const caller = await connectClient(running.url, 'legacy');
    const other = await connectClient(running.url, 'legacy');
    const modern = await connectClient(running.url, 'modern');
    try {
      const callerLogs = logsOf(caller);
      const otherLogs = logsOf(other);
      const modernLogs = logsOf(modern);
      await caller.setLoggingLevel('debug');
      await other.setLoggingLevel('debug');
      await untilStreamsOpen(caller, [callerLogs, otherLogs]);
      await caller.callTool({
        name: 'notifyhttp__log_here',
        arguments: { level: 'info', text: 'for the caller' },
      });
      await modern.callTool({
        name: 'notifyhttp__log_here',
        arguments: { level: 'info', text: 'for the 2026 caller' },
        _meta: { [LOG_LEVEL]: 'info' },
      });
      await waitUntil(
        () => callerLogs.some((entry) => entry.data === 'for the caller'),
        "until callerLogs.some((entry) => entry.data === 'for the caller')",
      );
      expect(modernLogs.map((entry) => entry.data)).toEqual(['for the 2026 caller']);
      expect(modernLogs[0]?.logger).toBe('notifyhttp/fixture');
      // On the call's own response stream (not only the session's GET stream).
      const transport = caller.transport as unknown as { sessionId?: string; protocolVersion?: string };
      const raw = await fetch(running.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': transport.sessionId ?? '',
          'mcp-protocol-version': transport.protocolVersion ?? '2025-11-25',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 77,
          method: 'tools/call',
          params: {
            name: 'notifyhttp__log_here',
            arguments: { level: 'warning', text: 'on the POST stream' },
          },
        }),
      });
      const stream = await raw.text();
      expect(stream).toContain('"method":"notifications/message"');
      expect(stream).toContain('on the POST stream');
      // End marker: a log sent to every session after the ones that must reach only their caller.
      await caller.callTool({ name: 'notifyhttp__log', arguments: { level: 'error', text: 'end marker' } });
      await waitUntil(
        () => [otherLogs, callerLogs].every((logs) => logs.some((entry) => entry.data === 'end marker')),
        'until the end marker reached the caller and the other session',
      );
      expect(dataOf(otherLogs)).toEqual(['end marker']);
      expect(dataOf(callerLogs)).toEqual(['for the caller', 'end marker']);
    } finally {
      await modern.close();
      await other.close();
      await caller.close();
    }
  });

  it('are asked of a 2026-07-28 upstream at the level of the client whose call it is', async () => {
    const modern = await connectClient(running.url, 'modern');
    const legacy = await connectClient(running.url, 'legacy');
    const silent = await connectClient(running.url, 'modern');
    try {
      expect(running.hub.status('notifymodern')?.era).toBe('modern');
      const modernLogs = logsOf(modern);
      const legacyLogs = logsOf(legacy);
      const silentLogs = logsOf(silent);
      await legacy.setLoggingLevel('info');
      const logHere = (client: Client, level: string, text: string, asked?: string) =>
        client.callTool({
          name: 'notifymodern__log_here',
          arguments: { level, text },
          ...(asked === undefined ? {} : { _meta: { [LOG_LEVEL]: asked } }),
        });
      await logHere(modern, 'warning', 'modern asked', 'info');
      await logHere(modern, 'debug', 'below the level', 'info');
      await logHere(legacy, 'info', 'legacy asked');
      await logHere(silent, 'error', 'nobody asked');
      await waitUntil(
        () => legacyLogs.some((entry) => entry.data === 'legacy asked'),
        "until legacyLogs.some((entry) => entry.data === 'legacy asked')",
      );
      expect(modernLogs).toEqual([
        { level: 'warning', logger: 'notifymodern/fixture', data: 'modern asked' },
      ]);
      expect(legacyLogs.map((entry) => entry.data)).toEqual(['legacy asked']);
      expect(silentLogs).toEqual([]);
    } finally {
      await silent.close();
      await legacy.close();
      await modern.close();
    }
  });

  it('reach a 2026-07-28 client during its resources/read and prompts/get, from every kind of upstream', async () => {
    const client = await connectClient(running.url, 'modern');
    const silent = await connectClient(running.url, 'modern');
    try {
      const logs = logsOf(client);
      const silentLogs = logsOf(silent);
      // A 2025 stdio upstream (no link: to every request in flight that asked), a 2025 HTTP
      // upstream (on the read's own stream) and a 2026-07-28 one (asked at the envelope level).
      for (const server of ['notify', 'notifyhttp', 'notifymodern']) {
        const uri = `mcptools://${server}/notify://logged`;
        const read = await client.readResource({ uri, _meta: { [LOG_LEVEL]: 'info' } });
        expect(read.contents[0]).toMatchObject({ uri, text: 'logged' });
        await client.getPrompt({ name: `${server}__logged`, _meta: { [LOG_LEVEL]: 'info' } });
        await silent.readResource({ uri });
        await silent.getPrompt({ name: `${server}__logged` });
        await waitUntil(
          () =>
            logs.some(
              (entry) => entry.logger === `${server}/fixture` && entry.data === 'reading notify://logged',
            ) &&
            logs.some(
              (entry) => entry.logger === `${server}/fixture` && entry.data === 'getting the logged prompt',
            ),
          `until both log messages of ${server}/fixture arrived`,
        );
      }
      // Above the level it asked for, nothing.
      const before = logs.length;
      await client.readResource({
        uri: 'mcptools://notifyhttp/notify://logged',
        _meta: { [LOG_LEVEL]: 'error' },
      });
      // End marker: a prompts/get that asked for info logs, after the read that must log nothing.
      await client.getPrompt({ name: 'notifyhttp__logged', _meta: { [LOG_LEVEL]: 'info' } });
      await waitUntil(
        () => logs.slice(before).some((entry) => entry.data === 'getting the logged prompt'),
        'until the end marker (the logged prompt) arrived',
      );
      expect(logs.slice(before).map((entry) => entry.data)).toEqual(['getting the logged prompt']);
      expect(silentLogs).toEqual([]);
    } finally {
      await silent.close();
      await client.close();
    }
  });

  it('never reach a client whose profile denies the server', async () => {
    const denied = await connectClient(`${running.url}/without`, 'legacy');
    const caller = await connectClient(running.url, 'legacy');
    try {
      const deniedLogs = logsOf(denied);
      await denied.setLoggingLevel('debug');
      await untilStreamsOpen(caller, [deniedLogs]);
      await log(caller, 'error', 'not for the denied profile');
      // End marker: a log from a server the profile admits, which must arrive.
      await caller.callTool({ name: 'notifyhttp__log', arguments: { level: 'error', text: 'end marker' } });
      await waitUntil(
        () => deniedLogs.some((entry) => entry.data === 'end marker'),
        'until the end marker reached the denied profile',
      );
      expect(dataOf(deniedLogs)).toEqual(['end marker']);
    } finally {
      await caller.close();
      await denied.close();
    }
  });
});

describe.each(eras)('resource and prompt list changes seen by a $label', ({ era }) => {
  it("are announced when an upstream's resources and prompts change, and the new ones are served", async () => {
    const client = await connectClient(running.url, era);
    const denied = await connectClient(`${running.url}/without`, era);
    try {
      const watchers = await Promise.all(
        [client, denied].map(async (watcher) => {
          const counts = { resources: 0, prompts: 0 };
          watcher.setNotificationHandler('notifications/resources/list_changed', () => {
            counts.resources++;
          });
          watcher.setNotificationHandler('notifications/prompts/list_changed', () => {
            counts.prompts++;
          });
          const updates = updatesOf(watcher);
          if (era === 'modern')
            await watcher.listen({
              resourcesListChanged: true,
              promptsListChanged: true,
              resourceSubscriptions: [HTTP_COUNTER],
            });
          else await watcher.subscribeResource({ uri: HTTP_COUNTER });
          return { counts, updates };
        }),
      );
      // Each watcher's stream (a 2025 session opens its GET stream after connecting) delivers an
      // update before the change: the same stream later carries the end marker.
      const touchHttp = () =>
        client.callTool({ name: 'notifyhttp__touch', arguments: { uri: 'notify://counter' } });
      await waitUntil(async () => {
        if (watchers.every(({ updates }) => updates.includes(HTTP_COUNTER))) return true;
        await touchHttp();
        return false;
      }, 'until both watchers got an update of notifyhttp on their stream');
      const counters = watchers.map(({ counts }) => counts);
      const name = `added_${era}`;
      await client.callTool({ name: 'undeclared__add_tool', arguments: { name } });
      await waitUntil(
        () => counters[0]!.resources > 0 && counters[0]!.prompts > 0,
        'until counters[0]!.resources > 0 && counters[0]!.prompts > 0',
      );
      // A profile that denies the server hears nothing of it: the update sent after the change
      // (the end marker) reaches it on the same stream, the change does not.
      const heard = watchers[1]!.updates.length;
      await touchHttp();
      await waitUntil(
        () => watchers[1]!.updates.length > heard,
        'until the end marker reached the denied profile',
      );
      expect(counters[1]).toEqual({ resources: 0, prompts: 0 });
      // The gateway's resource index forgot the server's old list on list_changed: a read of the
      // new URI, before any listing, reaches that server (this fixture cannot read: its own
      // "method not found" comes back, not the gateway's miss).
      await expect(client.readResource({ uri: `added://${name}` })).rejects.toMatchObject({ code: -32601 });
      // Only that server offers it: listed by the URI it gave.
      const listed = await client.listResources();
      expect(listed.resources.map((resource) => resource.uri)).toContain(`added://${name}`);
      const { prompts: served } = await client.listPrompts();
      expect(served.map((prompt) => prompt.name)).toContain(`undeclared__${name}_prompt`);
    } finally {
      await denied.close();
      await client.close();
    }
  });
});

describe.each(eras)('completions for a $label', ({ era }) => {
  it('complete prompt arguments and resource template variables through the upstream', async () => {
    const client = await connectClient(running.url, era);
    try {
      const prompt = await client.complete({
        ref: { type: 'ref/prompt', name: 'notify__weather' },
        argument: { name: 'city', value: 'Li' },
      });
      expect(prompt.completion.values).toEqual(['Lisbon', 'Lima']);
      const { resourceTemplates } = await client.listResourceTemplates();
      const rooms = 'mcptools://notify/notify://rooms/{room}';
      expect(resourceTemplates.map((template) => template.uriTemplate)).toContain(rooms);
      const template = await client.complete({
        ref: { type: 'ref/resource', uri: rooms },
        argument: { name: 'room', value: 'kit' },
      });
      expect(template.completion.values).toEqual(['kitchen', 'kitchenette']);
      const read = await client.readResource({ uri: 'mcptools://notify/notify://rooms/lounge' });
      expect(read.contents[0]).toMatchObject({
        uri: 'mcptools://notify/notify://rooms/lounge',
        text: 'room lounge',
      });
    } finally {
      await client.close();
    }
  });
});

describe('resource subscriptions to a 2026-07-28 upstream', () => {
  it('are held upstream with subscriptions/listen, for clients of both eras', async () => {
    const uri = 'mcptools://notifymodern/notify://counter';
    const legacy = await connectClient(running.url, 'legacy');
    const modern = await connectClient(running.url, 'modern');
    const bystander = await connectClient(running.url, 'legacy');
    try {
      const legacyUpdates = updatesOf(legacy);
      const modernUpdates = updatesOf(modern);
      const bystanderUpdates = updatesOf(bystander);
      await legacy.subscribeResource({ uri });
      const subscription = await modern.listen({ resourceSubscriptions: [uri] });
      const touchModern = (target = 'notify://counter') =>
        legacy.callTool({ name: 'notifymodern__touch', arguments: { uri: target } });
      const touched = await touchModern();
      expect(textOf(touched as never)).toBe('published notify://counter');
      // Touched again until the gateway's upstream listen stream is open.
      await waitUntil(async () => {
        if (legacyUpdates.includes(uri) && modernUpdates.includes(uri)) return true;
        await touchModern();
        return false;
      }, 'until legacyUpdates.includes(uri) && modernUpdates.includes(uri)');
      expect(bystanderUpdates).toEqual([]);
      await subscription.close();
      await legacy.unsubscribeResource({ uri });
      const before = legacyUpdates.filter((updated) => updated === uri).length;
      await touchModern();
      // End marker: an update of another resource of the same upstream, subscribed after.
      const marker = 'mcptools://notifymodern/notify://logged';
      await legacy.subscribeResource({ uri: marker });
      await waitUntil(async () => {
        if (legacyUpdates.includes(marker)) return true;
        await touchModern('notify://logged');
        return false;
      }, 'until the end marker (an update of notify://logged) arrived');
      expect(legacyUpdates.filter((updated) => updated === uri).length).toBe(before);
    } finally {
      await bystander.close();
      await modern.close();
      await legacy.close();
    }
  });
});

describe('an upstream that restarts', () => {
  it('is subscribed again to the resources sessions and listeners still hold', async () => {
    const legacy = await connectClient(running.url, 'legacy');
    const modern = await connectClient(running.url, 'modern');
    try {
      const legacyUpdates = updatesOf(legacy);
      const modernUpdates = updatesOf(modern);
      await legacy.subscribeResource({ uri: COUNTER });
      const subscription = await modern.listen({ resourceSubscriptions: [COUNTER] });
      const states: string[] = [];
      const stop = running.hub.on('status', (status) => {
        if (status.name === 'notify') states.push(status.state);
      });
      await legacy.callTool({ name: 'notify__die', arguments: {} }).catch(() => {});
      await waitUntil(() => states.includes('connected'), "until states.includes('connected')", 20_000);
      stop();
      await waitUntil(async () => !(await touch(legacy)).isError, 'until !(await touch(legacy)).isError');
      await waitUntil(
        () => legacyUpdates.includes(COUNTER) && modernUpdates.includes(COUNTER),
        'until legacyUpdates.includes(COUNTER) && modernUpdates.includes(COUNTER)',
      );
      await subscription.close();
      await legacy.unsubscribeResource({ uri: COUNTER });
      await waitUntil(
        async () => (await touch(legacy)).isError === true,
        'until (await touch(legacy)).isError === true',
      );
    } finally {
      await modern.close();
      await legacy.close();
    }
  });
});
