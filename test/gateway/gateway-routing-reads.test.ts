import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/gateway/create-gateway.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { waitUntil } from '../helpers/wait-until.js';
import { httpServer, stdioFixture } from '../mcp/hub-test-helpers.js';
import {
  cityClient,
  connectClient,
  eras,
  expectAllConnected,
  type RunningGateway,
  startGateway,
} from './gateway-test-helpers.js';

/*
 * "Correct routing over shared upstreams" for the two other methods whose
 * 2026-07-28 results may be `input_required`: an elicitation an upstream makes during a
 * `resources/read` or a `prompts/get` goes to the downstream client whose read or get caused
 * it. Two concurrent downstream SDK clients of the same upstream, in both downstream eras,
 * against upstreams of both eras (the `sampling` fixture's `ask://city` and `ask_city`).
 */

let running: RunningGateway;
let samplingHttp: HttpFixture;
let samplingModern: HttpFixture;

beforeAll(async () => {
  [samplingHttp, samplingModern] = await Promise.all([
    startHttpFixture('sampling', ['--era', 'legacy']),
    startHttpFixture('sampling', ['--era', 'modern']),
  ]);
  running = await startGateway({
    servers: {
      ask: httpServer(samplingModern.url),
      askstdio: stdioFixture('sampling', ['--era', 'modern']),
      ask25: stdioFixture('sampling', ['--era', 'legacy']),
      ask25http: httpServer(samplingHttp.url),
    },
  });
  expectAllConnected(running.hub);
  expect(running.hub.status('ask')?.era).toBe('modern');
  expect(running.hub.status('askstdio')?.era).toBe('modern');
  expect(running.hub.status('ask25')?.era).toBe('legacy');
  expect(running.hub.status('ask25http')?.era).toBe('legacy');
});

afterAll(async () => {
  await running?.close();
  await Promise.all([samplingHttp?.close(), samplingModern?.close()]);
});

/** Resolves for everyone once `count` have arrived (or after 10 s, so a wrong route fails, not hangs). */
function meeting(count: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const all = new Promise<void>((resolve) => {
    open = resolve;
    setTimeout(resolve, 10_000).unref();
  });
  return async () => {
    if (++arrived >= count) open();
    await all;
  };
}

const readText = async (client: Client, server: string) => {
  const { contents } = await client.readResource(
    { uri: `mcptools://${server}/ask://city` },
    { timeout: 10_000 },
  );
  return contents.map((item) => ('text' in item ? item.text : '')).join('');
};

const promptText = async (client: Client, server: string) => {
  const { messages } = await client.getPrompt({ name: `${server}__ask_city` }, { timeout: 10_000 });
  return messages.map((message) => ('text' in message.content ? message.content.text : '')).join('');
};

const linked = ['ask', 'askstdio', 'ask25http'];

describe.each(eras)('input requests during reads and prompts for a $label', ({ era }) => {
  let first: Client;
  let second: Client;
  const hooks = { before: undefined as (() => Promise<void>) | undefined };

  beforeAll(async () => {
    first = await cityClient(running.url, era, 'Lisbon', async () => hooks.before?.());
    second = await cityClient(running.url, era, 'Oslo', async () => hooks.before?.());
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it.each(linked)(
    'sends an elicitation during resources/read on %s only to the reading client',
    async (server) => {
      // Neither client answers before both were asked: the two reads are in flight together.
      hooks.before = meeting(2);
      try {
        const [lisbon, oslo] = await Promise.all([readText(first, server), readText(second, server)]);
        expect(lisbon).toBe('city: Lisbon');
        expect(oslo).toBe('city: Oslo');
      } finally {
        hooks.before = undefined;
      }
    },
  );

  it.each(linked)(
    'sends an elicitation during prompts/get on %s only to the client getting it',
    async (server) => {
      hooks.before = meeting(2);
      try {
        const [lisbon, oslo] = await Promise.all([promptText(first, server), promptText(second, server)]);
        expect(lisbon).toBe('city: Lisbon');
        expect(oslo).toBe('city: Oslo');
      } finally {
        hooks.before = undefined;
      }
    },
  );

  it('gives a 2025 stdio upstream’s elicitation during a read or get to the only session with one in flight', async () => {
    expect(await readText(second, 'ask25')).toBe('city: Oslo');
    expect(await promptText(first, 'ask25')).toBe('city: Lisbon');
  });

  it('refuses, rather than guesses, a 2025 stdio elicitation while two sessions read or get', async () => {
    let asked!: () => void;
    const waitingWasAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let release!: () => void;
    const mayAnswer = new Promise<void>((resolve) => {
      release = resolve;
    });
    const waiting = await cityClient(running.url, era, 'Quito', async () => {
      asked();
      await mayAnswer;
    });
    try {
      const pending = readText(waiting, 'ask25');
      // The waiting client's read is in flight (it was asked, and has not answered yet).
      await waitingWasAsked;
      await expect(promptText(second, 'ask25')).rejects.toThrow(/refused rather than guessed/);
      release();
      expect(await pending).toBe('city: Quito');
    } finally {
      release();
      await waiting.close();
    }
  });

  it('refuses an elicitation during a read or get to a client that did not declare it, instead of hanging', async () => {
    const bare = await connectClient(running.url, era);
    try {
      for (const server of [...linked, 'ask25']) {
        await expect(readText(bare, server)).rejects.toThrow(/did not declare the "elicitation" capability/);
        await expect(promptText(bare, server)).rejects.toThrow(
          /did not declare the "elicitation" capability/,
        );
      }
    } finally {
      await bare.close();
    }
  });
});

describe('a 2025-era session that ends', () => {
  it('cancels its reads in flight, so they no longer count as calls in flight', async () => {
    let asked!: () => void;
    const leavingWasAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const leaving = await cityClient(running.url, 'legacy', 'Nowhere', () => {
      asked();
      return new Promise<void>(() => {});
    });
    const staying = await cityClient(running.url, 'legacy', 'Oslo');
    try {
      void readText(leaving, 'ask25').catch(() => {});
      await leavingWasAsked;
      const transport = leaving.transport as unknown as { terminateSession(): Promise<void> };
      await transport.terminateSession();
      // Were the ended session's read still in flight, this one would be refused as ambiguous.
      expect(await readText(staying, 'ask25')).toBe('city: Oslo');
    } finally {
      await leaving.close().catch(() => {});
      await staying.close();
    }
  });
});

describe('a 2025-era client that opens no standalone GET stream', () => {
  it('gets the requests of its tools/call, resources/read and prompts/get on their own response streams', async () => {
    // Answering GET with 405 leaves the client nothing but each request's own POST stream: a
    // request the gateway sent unrelated (on the GET stream) would never arrive.
    const noGet: typeof fetch = (input, init) =>
      (init?.method ?? 'GET') === 'GET'
        ? Promise.resolve(new Response(null, { status: 405 }))
        : fetch(input, init);
    const client = new Client(
      { name: 'no-get', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} }, sampling: {} } },
    );
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { city: 'Bern' },
    }));
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'sampled by Bern' },
      model: 'test',
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url), { fetch: noGet }));
    try {
      for (const server of [...linked, 'ask25']) {
        expect(await readText(client, server)).toBe('city: Bern');
        expect(await promptText(client, server)).toBe('city: Bern');
        const sampled = await client.callTool(
          { name: `${server}__ask_llm`, arguments: { prompt: 'hi' } },
          { timeout: 10_000 },
        );
        expect(sampled.content).toEqual([{ type: 'text', text: 'sampled by Bern' }]);
      }
    } finally {
      await client.close();
    }
  });
});

/** A 2026-07-28 `ask__ask_user` round left parked: its `requestState` and the answer to send. */
async function parkedAskUser(client: Client, city: string) {
  const round = (await client.callTool(
    { name: 'ask__ask_user', arguments: {} },
    { allowInputRequired: true },
  )) as unknown as { resultType?: string; requestState?: string; inputRequests?: Record<string, unknown> };
  expect(round.resultType).toBe('input_required');
  const [key] = Object.keys(round.inputRequests ?? {});
  return {
    name: 'ask__ask_user',
    arguments: {},
    requestState: round.requestState,
    inputResponses: { [key as string]: { action: 'accept', content: { city } } },
  } as never;
}

describe('a 2026-07-28 retry', () => {
  it('resumes a call only for the token that started it', async () => {
    const gateway = createGateway({
      registry: running.registry,
      provider: running.hub,
      token: 'guest-token-1',
      ownerToken: 'owner-token-2',
    });
    const { url } = await gateway.listen({ host: '127.0.0.1', port: 0 });
    const as = (token: string) =>
      connectClient(url, 'modern', {
        capabilities: { elicitation: { form: {} } },
        headers: { authorization: `Bearer ${token}` },
      });
    const [guest, owner] = await Promise.all([as('guest-token-1'), as('owner-token-2')]);
    try {
      const retry = await parkedAskUser(guest, 'Tunis');
      await expect(owner.callTool(retry)).rejects.toThrow(/Invalid or expired requestState/);
      expect((await guest.callTool(retry)).content).toEqual([{ type: 'text', text: 'city: Tunis' }]);
    } finally {
      await Promise.all([guest.close(), owner.close()]);
      await gateway.close();
    }
  });

  it('no longer resumes a call whose client did not retry within inputTimeoutMs', async () => {
    const gateway = createGateway({
      registry: running.registry,
      provider: running.hub,
      inputTimeoutMs: 200,
    });
    const { url } = await gateway.listen({ host: '127.0.0.1', port: 0 });
    const client = await connectClient(url, 'modern', { capabilities: { elicitation: { form: {} } } });
    try {
      const late = await parkedAskUser(client, 'Accra');
      // Its requestState was sealed before this answer arrived, to expire inputTimeoutMs later:
      // waited for by the clock it is checked against, not a fixed sleep.
      const expiresBy = Date.now() + 200;
      await waitUntil(() => Date.now() >= expiresBy, 'until the requestState is past inputTimeoutMs');
      await expect(client.callTool(late)).rejects.toThrow(/Invalid or expired requestState/);
    } finally {
      await client.close();
      await gateway.close();
    }
  });

  it('resumes a parked read only with the method it retries', async () => {
    const client = await connectClient(running.url, 'modern', {
      capabilities: { elicitation: { form: {} } },
    });
    try {
      const uri = 'mcptools://ask/ask://city';
      const round = (await client.readResource({ uri }, { allowInputRequired: true })) as unknown as {
        resultType?: string;
        requestState?: string;
        inputRequests?: Record<string, { method: string }>;
      };
      expect(round.resultType).toBe('input_required');
      const keys = Object.keys(round.inputRequests ?? {});
      expect(keys.map((key) => round.inputRequests?.[key]?.method)).toEqual(['elicitation/create']);
      const retry = {
        requestState: round.requestState,
        inputResponses: { [keys[0] as string]: { action: 'accept', content: { city: 'Kyiv' } } },
      };
      await expect(client.getPrompt({ name: 'ask__ask_city', ...retry } as never)).rejects.toThrow(
        /Invalid or expired requestState/,
      );
      const { contents } = await client.readResource({ uri, ...retry } as never);
      expect(contents).toEqual([expect.objectContaining({ uri, text: 'city: Kyiv' })]);
    } finally {
      await client.close();
    }
  });
});
