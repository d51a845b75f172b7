import type { EventSourceMessage } from 'eventsource-parser/stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryEventStores } from '../../src/gateway/sessions/memory-event-stores.js';
import { waitUntil } from '../helpers/wait-until.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, type RunningGateway, startGateway } from './gateway-test-helpers.js';
import {
  callAndCut,
  expectResumedOnce,
  openRawSession,
  sseEvents,
  ssePayload,
} from './raw-legacy-session.js';

/*
 * Resumable 2025-era response streams. A client that loses a call's response stream
 * (the fetch cut mid-stream) gets the rest with `GET` + `Last-Event-ID`: the result arrives
 * once, and the call was not cancelled. Without a resumption the call is cancelled after the
 * grace period; an event id of another session is refused.
 */
const GRACE_MS = 2000;

let running: RunningGateway;
let stores: MemoryEventStores;

beforeAll(async () => {
  stores = new MemoryEventStores();
  running = await startGateway(
    { servers: { echo: stdioFixture('echo') } },
    { eventStore: stores, resumeGraceMs: GRACE_MS },
  );
});

afterAll(async () => {
  await running?.close();
});

const ACCEPT = 'application/json, text/event-stream';
const openSession = (version?: string) => openRawSession(running.url, version);
const events = sseEvents;
const payload = ssePayload;

async function counts() {
  const observer = await connectClient(running.url, 'modern');
  try {
    const result = await observer.callTool({ name: 'echo__cancelled_count', arguments: {} });
    return result.structuredContent as { cancelled: number; completed: number };
  } finally {
    await observer.close();
  }
}

describe('a 2025-era response stream cut mid-call', () => {
  it('is resumed with Last-Event-ID: the result arrives once, the call was not cancelled', async () => {
    const before = await counts();
    const session = await openSession();
    const progress = await callAndCut(session, 1500, 3);
    await expectResumedOnce(await session.resume(progress), progress, 'slept 1500ms');
    const after = await counts();
    expect(after.cancelled).toBe(before.cancelled);
    expect(after.completed).toBe(before.completed + 1);
  });

  it('is primed by the version the session negotiated, whatever version a request header names', async () => {
    const session = await openSession();
    const response = await fetch(running.url, {
      method: 'POST',
      headers: {
        accept: ACCEPT,
        'content-type': 'application/json',
        'mcp-session-id': session.id,
        // What the conformance suite 0.1.16 sends inside a 2025-11-25 session.
        'mcp-protocol-version': '2025-03-26',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    });
    const reader = events(response);
    const first = (await reader.read()).value!;
    expect(first.id).toBeTruthy();
    expect(first.data).toBe('');
    for (let next = await reader.read(); !next.done; next = await reader.read()) {}
  });

  it('is cancelled after the grace period when nobody resumes it', async () => {
    const before = await counts();
    const session = await openSession();
    const { response, abort } = session.call(20_000, 200);
    const reader = events(await response);
    await reader.read();
    await reader.read();
    abort.abort();
    await reader.cancel().catch(() => {});
    await waitUntil(
      async () => (await counts()).cancelled === before.cancelled + 1,
      'until (await counts()).cancelled === before.cancelled + 1',
      15_000,
    );
  });

  it('refuses an event id of another session', async () => {
    const owner = await openSession();
    const { response } = owner.call(300, 1);
    const reader = events(await response);
    const priming = (await reader.read()).value!;
    const other = await openSession();
    const stolen = await other.resume(priming.id!);
    expect(stolen.status).toBe(400);
    for (let next = await reader.read(); !next.done; next = await reader.read()) {}
    const unknown = await owner.resume('no-such-event');
    expect(unknown.status).toBe(400);
  });

  it('is not resumable before its first event for a client older than 2025-11-25: cancelled at once', async () => {
    const before = await counts();
    const session = await openSession('2025-06-18');
    // No progress token: no event until the result, and no priming event for this version (so
    // not even the headers come before the result): the client gives up after a while.
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 500);
    const response = fetch(running.url, {
      signal: abort.signal,
      method: 'POST',
      headers: {
        accept: ACCEPT,
        'content-type': 'application/json',
        'mcp-session-id': session.id,
        'mcp-protocol-version': session.version,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'echo__slow', arguments: { ms: 20_000, steps: 200 } },
      }),
    });
    await expect(response).rejects.toThrow();
    // Well within the grace period.
    await waitUntil(
      async () => (await counts()).cancelled === before.cancelled + 1,
      'until (await counts()).cancelled === before.cancelled + 1',
      GRACE_MS / 2,
    );
  });

  it('is resumable after its first event for a client older than 2025-11-25', async () => {
    const before = await counts();
    const session = await openSession('2025-06-18');
    const { response, abort } = session.call(1200, 3);
    const reader = events(await response);
    const first = (await reader.read()).value!;
    // No priming event: the first is the first progress notification, with an id.
    expect(payload(first)?.method).toBe('notifications/progress');
    expect(first.id).toBeTruthy();
    abort.abort();
    await reader.cancel().catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 300));
    const resumed = await session.resume(first.id!);
    expect(resumed.status).toBe(200);
    const rest: EventSourceMessage[] = [];
    const again = events(resumed);
    for (let next = await again.read(); !next.done; next = await again.read()) rest.push(next.value);
    expect(
      rest.map(payload).filter((message) => message?.id === 7),
      JSON.stringify(rest),
    ).toHaveLength(1);
    expect((await counts()).cancelled).toBe(before.cancelled);
  });

  it('drops a session’s events when the session ends', async () => {
    const session = await openSession();
    const { response } = session.call(100, 1);
    const reader = events(await response);
    for (let next = await reader.read(); !next.done; next = await reader.read()) {}
    const held = stores.sessions;
    const ended = await fetch(running.url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': session.id, 'mcp-protocol-version': session.version },
    });
    expect(ended.status).toBe(200);
    expect(stores.sessions).toBe(held - 1);
  });
});

describe('MemoryEventStores', () => {
  const message = (id: number) => ({
    jsonrpc: '2.0' as const,
    method: 'notifications/message',
    params: { id },
  });

  it('keeps at most maxEvents per session, oldest out first', async () => {
    const store = new MemoryEventStores({ maxEvents: 3 }).forSession('s');
    const ids = [];
    for (let index = 0; index < 5; index++) ids.push(await store.storeEvent('stream', message(index)));
    expect(await store.getStreamIdForEventId!(ids[1]!)).toBeUndefined();
    expect(await store.getStreamIdForEventId!(ids[2]!)).toBe('stream');
    const sent: unknown[] = [];
    await store.replayEventsAfter(ids[2]!, { send: async (_id, sentMessage) => void sent.push(sentMessage) });
    expect(sent).toEqual([message(3), message(4)]);
  });

  it('forgets events past their age', async () => {
    const store = new MemoryEventStores({ ttlMs: 50 }).forSession('s');
    const id = await store.storeEvent('stream', message(1));
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await store.getStreamIdForEventId!(id)).toBeUndefined();
  });

  it('replays one stream only, and knows no id of another session', async () => {
    const stores = new MemoryEventStores();
    const first = stores.forSession('a');
    const start = await first.storeEvent('one', {} as never);
    await first.storeEvent('two', message(2));
    await first.storeEvent('one', message(1));
    const sent: unknown[] = [];
    expect(await first.replayEventsAfter(start, { send: async (_id, sent1) => void sent.push(sent1) })).toBe(
      'one',
    );
    expect(sent).toEqual([message(1)]);
    expect(await stores.forSession('b').getStreamIdForEventId!(start)).toBeUndefined();
  });
});
