import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { waitUntil } from '../helpers/wait-until.js';
import { httpServer, stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import {
  cityClient,
  connectClient,
  eras,
  expectAllConnected,
  type RunningGateway,
  startGateway,
} from './gateway-test-helpers.js';

/*
 * "Correct routing over shared upstreams": every case runs with two concurrent
 * downstream SDK clients calling the same upstream, for both downstream eras.
 */

let running: RunningGateway;
let samplingHttp: HttpFixture;
let samplingModern: HttpFixture;
let echoModern: HttpFixture;

beforeAll(async () => {
  [samplingHttp, samplingModern, echoModern] = await Promise.all([
    startHttpFixture('sampling', ['--era', 'legacy']),
    startHttpFixture('sampling', ['--era', 'modern']),
    startHttpFixture('echo', ['--era', 'modern']),
  ]);
  running = await startGateway({
    servers: {
      echo: httpServer(echoModern.url),
      echo25: stdioFixture('echo', ['--era', 'legacy']),
      ask: httpServer(samplingModern.url),
      ask25: stdioFixture('sampling', ['--era', 'legacy']),
      ask25http: httpServer(samplingHttp.url),
    },
  });
  expectAllConnected(running.hub);
  expect(running.hub.status('ask')?.era).toBe('modern');
  expect(running.hub.status('ask25')?.era).toBe('legacy');
});

afterAll(async () => {
  await running?.close();
  await Promise.all([samplingHttp?.close(), samplingModern?.close(), echoModern?.close()]);
});

const cancelledCount = async (client: Client, server: string) => {
  const result = await client.callTool({ name: `${server}__cancelled_count`, arguments: {} });
  return (result.structuredContent as { cancelled: number }).cancelled;
};

describe.each(eras)('routing for a $label', ({ era }) => {
  let first: Client;
  let second: Client;

  beforeAll(async () => {
    first = await cityClient(running.url, era, 'Lisbon');
    second = await cityClient(running.url, era, 'Oslo');
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it.each(['echo', 'echo25'])(
    'delivers progress from %s only to the request that caused it, under its own token',
    async (server) => {
      const seen = { first: [] as number[], second: [] as number[] };
      await Promise.all([
        first.callTool(
          { name: `${server}__slow`, arguments: { ms: 300, steps: 3 } },
          { onprogress: (progress) => seen.first.push(progress.progress) },
        ),
        second.callTool(
          { name: `${server}__slow`, arguments: { ms: 300, steps: 6 } },
          { onprogress: (progress) => seen.second.push(progress.progress) },
        ),
      ]);
      expect(seen.first).toEqual([1, 2, 3]);
      expect(seen.second).toEqual([1, 2, 3, 4, 5, 6]);
    },
  );

  it.each(['echo', 'echo25'])('cancels on %s only the request the client cancelled', async (server) => {
    const before = await cancelledCount(first, server);
    const abort = new AbortController();
    const cancelled = first.callTool(
      { name: `${server}__slow`, arguments: { ms: 4000, steps: 40 } },
      { signal: abort.signal, onprogress: () => abort.abort() },
    );
    const survivor = second.callTool({ name: `${server}__slow`, arguments: { ms: 600, steps: 2 } });
    await expect(cancelled).rejects.toThrow();
    const result = await survivor;
    expect(textOf(result as never)).toContain('slept 600ms');
    await waitUntil(
      async () => (await cancelledCount(second, server)) === before + 1,
      'until (await cancelledCount(second, server)) === before + 1',
    );
  });

  it('sends the input requests of a 2026-07-28 upstream to the client whose call caused them', async () => {
    const [lisbon, oslo, roots] = await Promise.all([
      first.callTool({ name: 'ask__ask_user', arguments: {} }),
      second.callTool({ name: 'ask__ask_user', arguments: {} }),
      second.callTool({ name: 'ask__list_roots', arguments: {} }),
    ]);
    expect(textOf(lisbon as never)).toBe('city: Lisbon');
    expect(textOf(oslo as never)).toBe('city: Oslo');
    expect(textOf(roots as never)).toBe('file:///Oslo');
  });

  it("sends a 2025 HTTP upstream's request made on a call's own stream to that call's client", async () => {
    // The fixture's roots/list is related to its call (ctx.mcpReq.send), so it rides the call's stream.
    const [lisbon, oslo] = await Promise.all([
      first.callTool({ name: 'ask25http__list_roots', arguments: {} }),
      second.callTool({ name: 'ask25http__list_roots', arguments: {} }),
    ]);
    expect(textOf(lisbon as never)).toBe('file:///Lisbon');
    expect(textOf(oslo as never)).toBe('file:///Oslo');
  });

  it.each(['ask', 'ask25http', 'ask25'])(
    'routes sampling and roots of %s to the calling client',
    async (server) => {
      const sampled = await second.callTool({ name: `${server}__ask_llm`, arguments: { prompt: 'hi' } });
      expect(textOf(sampled as never)).toBe('sampled by Oslo');
      const roots = await first.callTool({ name: `${server}__list_roots`, arguments: {} });
      expect(textOf(roots as never)).toBe('file:///Lisbon');
    },
  );

  it('refuses, rather than guesses, a 2025 stdio request while two sessions have calls in flight', async () => {
    let releaseFirst!: () => void;
    const firstMayAnswer = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let firstAsked!: () => void;
    const firstWasAsked = new Promise<void>((resolve) => {
      firstAsked = resolve;
    });
    const waiting = await cityClient(running.url, era, 'Quito', () => {
      firstAsked();
      return firstMayAnswer;
    });
    try {
      const pending = waiting.callTool({ name: 'ask25__ask_user', arguments: {} });
      // The upstream has asked the first (then only) caller, whose answer waits.
      await firstWasAsked;
      const refused = await second.callTool({ name: 'ask25__ask_user', arguments: {} });
      releaseFirst();
      expect(refused.isError).toBe(true);
      expect(textOf(refused as never)).toMatch(/refused rather than guessed/);
      expect(textOf((await pending) as never)).toBe('city: Quito');
    } finally {
      releaseFirst();
      await waiting.close();
    }
  });

  it('refuses an elicitation to a client that did not declare the capability instead of hanging', async () => {
    const bare = await connectClient(running.url, era);
    try {
      // A 2026-07-28 upstream is told the caller's capabilities and refuses itself with -32021
      // (MissingRequiredClientCapability), passed through as that error; a 2025 upstream's
      // request is refused by the gateway, which the upstream reports as a failed tool call.
      const expected = { ask: { code: -32021 }, ask25: { isError: true }, ask25http: { isError: true } };
      for (const [server, outcome] of Object.entries(expected)) {
        const got = await bare.callTool({ name: `${server}__ask_user`, arguments: {} }).then(
          (result) => ({ isError: result.isError }),
          (error: { code?: number }) => ({ code: error.code }),
        );
        expect(got, server).toEqual(outcome);
      }
    } finally {
      await bare.close();
    }
  });
});

describe('a 2025-era session that ends', () => {
  it('cancels its calls in flight upstream', async () => {
    const observer = await connectClient(running.url, 'modern');
    const leaving = await connectClient(running.url, 'legacy');
    try {
      const before = await cancelledCount(observer, 'echo');
      const started = new Promise<void>((resolve) => {
        void leaving
          .callTool(
            { name: 'echo__slow', arguments: { ms: 5000, steps: 50 } },
            { onprogress: () => resolve() },
          )
          .catch(() => {});
      });
      await started;
      const transport = leaving.transport as unknown as { terminateSession(): Promise<void> };
      await transport.terminateSession();
      await waitUntil(
        async () => (await cancelledCount(observer, 'echo')) === before + 1,
        "until (await cancelledCount(observer, 'echo')) === before + 1",
      );
    } finally {
      await leaving.close().catch(() => {});
      await observer.close();
    }
  });
});
