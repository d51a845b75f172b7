import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, eras, type RunningGateway, startGateway } from '../gateway/gateway-test-helpers.js';
import { initializeRequest } from '../helpers/initialize-request.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';

/*
 * A script waiting for its caller's approval holds its sandbox: its memory counts against the
 * caller's quota of parked scripts, so one principal parking scripts gets its next run_script
 * refused (429, Retry-After) while another principal's scripts run.
 */

const TOKENS = { mallory: 'mallory-token-0123456789abcdef', bob: 'bob-token-0123456789abcdef' } as const;
type Who = keyof typeof TOKENS;
const auth = (who: Who) => ({ authorization: `Bearer ${TOKENS[who]}` });

const textOf = (result: { content: unknown }) =>
  (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('');

const ASKS = 'return await tools.echo.echo({ text: "held" })';

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway({
    servers: { echo: stdioFixture('echo') },
    policies: { requireApproval: [{ match: { tools: ['echo__echo'] }, reason: 'Echoing needs a yes' }] },
    gateway: {
      mode: 'router',
      tokens: Object.fromEntries(
        Object.entries(TOKENS).map(([name, token]) => [name, { token, principal: name }]),
      ),
      // Any one parked script fills a principal's quota.
      limits: { parkedScriptBytesPerPrincipal: 1 },
    },
  });
}, 120_000);

afterAll(async () => {
  await running?.close();
});

/** A client of `who` whose approvals wait for `answer()`; `asked` settles when the first one arrives. */
async function holdingClient(era: 'modern' | 'legacy', who: Who) {
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  let noteAsked!: () => void;
  const asked = new Promise<void>((resolve) => {
    noteAsked = resolve;
  });
  const client = await connectClient(running.url, era, {
    headers: auth(who),
    capabilities: { elicitation: { form: {} } },
    prepare: (prepared) => {
      prepared.setRequestHandler('elicitation/create', async () => {
        noteAsked();
        await answered;
        return { action: 'accept', content: { decision: 'allow-once' } };
      });
    },
  });
  return { client, asked, answer };
}

/** Opens a 2025 session of `who` with a raw `initialize`: its id. */
async function legacySession(who: Who): Promise<string> {
  const answer = await fetch(running.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...auth(who),
    },
    body: JSON.stringify(initializeRequest({ id: 0, client: who })),
  });
  await answer.text();
  return answer.headers.get('mcp-session-id')!;
}

/**
 * The HTTP status and `Retry-After` of a `run_script` call of `who`: sent raw in a 2025 session,
 * by an SDK client that records them in the 2026-07-28 era.
 */
async function scriptAnswer(era: 'modern' | 'legacy', who: Who) {
  if (era === 'legacy') {
    const answer = await fetch(running.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': await legacySession(who),
        'mcp-protocol-version': '2025-11-25',
        ...auth(who),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'run_script', arguments: { script: 'return 1' } },
      }),
    });
    await answer.text();
    return { status: answer.status, retryAfter: answer.headers.get('retry-after') };
  }
  let seen: { status: number; retryAfter: string | null } | undefined;
  const client = await connectClient(running.url, era, {
    headers: auth(who),
    fetch: async (input, init) => {
      const answer = await fetch(input, init);
      if (typeof init?.body === 'string' && init.body.includes('"tools/call"'))
        seen = { status: answer.status, retryAfter: answer.headers.get('retry-after') };
      return answer;
    },
  });
  try {
    await client.callTool({ name: 'run_script', arguments: { script: 'return 1' } }).catch(() => undefined);
  } finally {
    await client.close();
  }
  return seen;
}

describe.each(eras)('parked scripts in the per-principal quota, $label', ({ era }) => {
  it("refuses a principal's next script while one of its scripts waits for an answer, and runs another principal's", async () => {
    const mallory = await holdingClient(era, 'mallory');
    const clients: Client[] = [mallory.client];
    try {
      const first = mallory.client.callTool({ name: 'run_script', arguments: { script: ASKS } });
      await mallory.asked;
      // Mallory's next script is refused before it runs…
      expect(await scriptAnswer(era, 'mallory')).toEqual({
        status: 429,
        retryAfter: expect.stringMatching(/^\d+$/),
      });
      // …her other calls are not…
      const other = await connectClient(running.url, era, { headers: auth('mallory') });
      clients.push(other);
      const listed = await other.callTool({ name: 'tool_index', arguments: { search: 'echo' } });
      expect(listed.isError).toBeFalsy();
      // …and bob's scripts run.
      const bob = await connectClient(running.url, era, { headers: auth('bob') });
      clients.push(bob);
      expect(textOf(await bob.callTool({ name: 'run_script', arguments: { script: 'return 1 + 1' } }))).toBe(
        '2',
      );
      // Control: answered, the parked script ends and frees the quota.
      mallory.answer();
      expect(textOf(await first)).toBe('"held"');
      expect(textOf(await other.callTool({ name: 'run_script', arguments: { script: 'return 3' } }))).toBe(
        '3',
      );
    } finally {
      mallory.answer();
      for (const client of clients) await client.close();
    }
  });
});
