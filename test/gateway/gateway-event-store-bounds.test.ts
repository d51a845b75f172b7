import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryEventStores } from '../../src/gateway/sessions/memory-event-stores.js';
import { initializeRequest } from '../helpers/initialize-request.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, type RunningGateway, startGateway } from './gateway-test-helpers.js';

/** A tool result of about `bytes` bytes of JSON, as the gateway would store it. */
const result = (id: number, bytes: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  result: { content: [{ type: 'text', text: 'x'.repeat(bytes) }] },
});

describe('MemoryEventStores bounds what idle sessions keep', () => {
  it('drops the events of sessions nobody uses again once they are past their age (a timer, not the next store)', async () => {
    const stores = new MemoryEventStores({ ttlMs: 300, pruneIntervalMs: 50 });
    // 1,000 idle sessions with a large result each, then never touched again.
    for (let session = 0; session < 1000; session++)
      await stores.forSession(`s${session}`, 'anyone').storeEvent('stream', result(session, 10_000));
    expect(stores.events).toBe(1000);
    expect(stores.bytes()).toBeGreaterThan(10_000_000);
    await expect
      .poll(() => [stores.events, stores.bytes(), stores.bytes('anyone')], {
        message: 'the idle sessions’ events should be pruned once past ttlMs',
        timeout: 10_000,
      })
      .toEqual([0, 0, 0]);
    // The sessions themselves are not the store's to end: their logs stay, empty.
    expect(stores.sessions).toBe(1000);
    stores.close();
  });

  it('control: a prune keeps the events still within their age, and they replay', async () => {
    const stores = new MemoryEventStores({ ttlMs: 60_000 });
    const store = stores.forSession('s', 'anyone');
    const start = await store.storeEvent('stream', {} as JSONRPCMessage);
    await store.storeEvent('stream', result(1, 1000));
    stores.prune();
    expect(stores.events).toBe(2);
    const sent: unknown[] = [];
    await store.replayEventsAfter(start, { send: async (_id, message) => void sent.push(message) });
    expect(sent).toEqual([result(1, 1000)]);
    stores.close();
  });

  it('keeps at most maxTotalBytes in all, dropping the oldest events of any session first', async () => {
    const budget = 1024 * 1024;
    const stores = new MemoryEventStores({ maxTotalBytes: budget });
    const newest: { store: ReturnType<MemoryEventStores['forSession']>; id: string }[] = [];
    for (let session = 0; session < 1000; session++) {
      const store = stores.forSession(`s${session}`, `p${session % 10}`);
      for (let event = 0; event < 3; event++) {
        const id = await store.storeEvent('stream', result(event, 4000));
        expect(stores.bytes()).toBeLessThanOrEqual(budget);
        if (event === 2) newest.push({ store, id });
      }
    }
    // The oldest sessions lost their events; the newest still have theirs.
    expect(await newest[0]!.store.getStreamIdForEventId!(newest[0]!.id)).toBeUndefined();
    expect(await newest[999]!.store.getStreamIdForEventId!(newest[999]!.id)).toBe('stream');
    expect(stores.bytes()).toBeGreaterThan(budget - 5000);
    stores.close();
  });

  it('counts UTF-8 bytes of the JSON it keeps, not string length', async () => {
    const stores = new MemoryEventStores();
    const message: JSONRPCMessage = {
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: '€'.repeat(1000) }] },
    };
    await stores.forSession('s', 'anyone').storeEvent('stream', message);
    expect(stores.bytes()).toBe(Buffer.byteLength(JSON.stringify(message)));
    expect(stores.bytes()).toBeGreaterThan(JSON.stringify(message).length + 1900);
    stores.close();
  });

  it("keeps one principal within its own byte quota without dropping another principal's events", async () => {
    const stores = new MemoryEventStores({ maxBytesPerPrincipal: 100_000, maxTotalBytes: 1_000_000 });
    const bob = stores.forSession('bob-1', 'bob');
    const bobsEvent = await bob.storeEvent('stream', result(1, 10_000));
    for (let session = 0; session < 50; session++)
      await stores.forSession(`mallory-${session}`, 'mallory').storeEvent('stream', result(session, 10_000));
    expect(stores.bytes('mallory')).toBeLessThanOrEqual(100_000);
    expect(stores.bytes('mallory')).toBeGreaterThan(80_000);
    expect(await bob.getStreamIdForEventId!(bobsEvent)).toBe('stream');
    expect(stores.bytes('bob')).toBeGreaterThan(10_000);
    stores.close();
  });
});

describe('a gateway with idle 2025 sessions holding large results', () => {
  let running: RunningGateway;
  const stores = new MemoryEventStores({ ttlMs: 2000, pruneIntervalMs: 100 });

  beforeAll(async () => {
    running = await startGateway(
      { servers: { echo: stdioFixture('echo', [], { protocol: '2025' }) } },
      { eventStore: stores },
    );
  });

  afterAll(async () => {
    await running?.close();
    stores.close();
  });

  it("drops their events after the events' age while the sessions themselves keep serving", async () => {
    const clients = await Promise.all(Array.from({ length: 8 }, () => connectClient(running.url, 'legacy')));
    const text = 'y'.repeat(100_000);
    for (const client of clients)
      for (let call = 0; call < 3; call++) await client.callTool({ name: 'echo__echo', arguments: { text } });
    // At least the last call's result is still within its age.
    expect(stores.bytes()).toBeGreaterThan(100_000);
    await expect
      .poll(() => stores.bytes(), { message: 'the idle sessions’ events should expire', timeout: 30_000 })
      .toBe(0);
    // The session record outlives its events: each client calls again in the same session.
    for (const client of clients) {
      const answer = (await client.callTool({ name: 'echo__echo', arguments: { text: 'again' } })) as {
        content: { text: string }[];
      };
      expect(answer.content[0]?.text).toBe('again');
    }
    await Promise.all(clients.map((client) => client.close()));
  });
});

describe('a gateway ending 2025 sessions unused for gateway.limits.sessionIdleMs', () => {
  let running: RunningGateway;
  const lines: string[] = [];

  beforeAll(async () => {
    running = await startGateway(
      {
        servers: { echo: stdioFixture('echo', [], { protocol: '2025' }) },
        gateway: { limits: { sessionIdleMs: 400 } },
      },
      { log: (line) => lines.push(line) },
    );
  });

  afterAll(async () => {
    await running?.close();
  });

  /** The HTTP status of a `ping` in session `id`. */
  const ping = async (id: string) => {
    const answer = await fetch(running.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    await answer.text();
    return answer.status;
  };

  it('ends an unused session (404) and keeps one whose client holds its GET stream', async () => {
    const open = async () => {
      const answer = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(initializeRequest({ id: 0, client: 'idle' })),
      });
      await answer.text();
      return answer.headers.get('mcp-session-id')!;
    };
    // The listening session is opened first: by the time the unused one ends, it was as idle.
    const listening = await open();
    const stream = await fetch(running.url, {
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': listening,
        'mcp-protocol-version': '2025-11-25',
      },
    });
    expect(stream.status).toBe(200);
    const unused = await open();
    // Watched in the log: a ping would use the session it asks about.
    await expect
      .poll(() => lines.some((line) => line.includes('unused for 400 ms')), {
        message: 'the unused session should be ended',
        timeout: 10_000,
      })
      .toBe(true);
    expect(await ping(unused)).toBe(404);
    expect(await ping(listening)).toBe(200);
    await stream.body?.cancel();
  });
});
