import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type RunningGateway, startGateway } from '../gateway/gateway-test-helpers.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { openLegacySession, sendRaw } from './raw-http.js';

/** The HTTP status of a `ping` in session `id`. */
async function ping(url: string, id: string): Promise<number> {
  const answer = await fetch(url, {
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
}

describe('a client opening 2025 sessions without end cannot grow the gateway without bound', () => {
  let running: RunningGateway;

  beforeAll(async () => {
    running = await startGateway(
      { servers: { echo: stdioFixture('echo', [], { protocol: '2025' }) } },
      { maxSessions: 3 },
    );
  });

  afterAll(async () => {
    await running?.close();
  });

  it('keeps at most maxSessions: the least recently used idle one ends (404), the others serve', async () => {
    const [first, second, third] = [
      await openLegacySession(running.url),
      await openLegacySession(running.url),
      await openLegacySession(running.url),
    ];
    // `first` is used again, so `second` is now the least recently used.
    expect(await ping(running.url, first!)).toBe(200);
    const fourth = await openLegacySession(running.url);
    expect(await ping(running.url, second!)).toBe(404);
    for (const id of [first!, third!, fourth]) expect(await ping(running.url, id)).toBe(200);
  });

  it('never ends a session with a call in flight', async () => {
    const busy = await connectClient(running.url, 'legacy');
    const call = busy.callTool({ name: 'echo__slow', arguments: { ms: 1500, steps: 3 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (let index = 0; index < 4; index++) await openLegacySession(running.url);
    const result = (await call) as { content: { text: string }[] };
    expect(result.content[0]?.text).toBe('slept 1500ms in 3 steps');
    await busy.close();
  });

  it('answers 429 to a new session when every kept one has a call in flight, and ends none of them', async () => {
    const busy = [
      await connectClient(running.url, 'legacy'),
      await connectClient(running.url, 'legacy'),
      await connectClient(running.url, 'legacy'),
    ];
    const calls = busy.map((client) =>
      client.callTool({ name: 'echo__slow', arguments: { ms: 4000, steps: 2 } }),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expect(openLegacySession(running.url)).rejects.toThrow(/answered 429/);
    for (const call of calls) {
      const result = (await call) as { content: { text: string }[] };
      expect(result.content[0]?.text).toBe('slept 4000ms in 2 steps');
    }
    // Once their calls are answered the sessions are idle again, and a new one is let in.
    expect(await openLegacySession(running.url)).toMatch(/./);
    await Promise.all(busy.map((client) => client.close()));
  });

  it('opens a GET event stream at once, and lets a client that dropped it open another at once', async () => {
    const id = await openLegacySession(running.url);
    const origin = new URL(running.url).origin;
    const get = () =>
      sendRaw(
        origin,
        {
          method: 'GET',
          path: '/mcp',
          headers: {
            accept: 'text/event-stream',
            'mcp-session-id': id,
            'mcp-protocol-version': '2025-11-25',
          },
        },
        5000,
      );
    // Before: the headers came with the first keep-alive (15 s), and a dropped stream kept
    // answering 409 until a keep-alive write failed.
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await get();
      expect(answer).toMatchObject({ status: 200, openStream: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});
