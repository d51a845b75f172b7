import type { Client } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OidcFixture, startOidcProvider } from '../fixtures/oidc/oidc-fixture.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { freePort } from '../helpers/free-port.js';
import { statelessRpc } from '../helpers/stateless-rpc.js';
import { httpServer, stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import {
  connectClient,
  expectAllConnected,
  type RunningGateway,
  startGateway,
} from './gateway-test-helpers.js';

/*
 * A gateway `requestState` and task id belong to the principal AND the OAuth client they were
 * handed to: alice signs in at a real OpenID provider through two clients (app-a, app-b); a
 * state or task id app-a got is refused to app-b with the same answer as a forged one, and
 * app-a itself still continues its call (the control). Relayed rounds (a 2026-07-28 upstream),
 * parked calls (a 2025 stdio upstream) and task ids (a tasks-extension upstream) alike.
 */

let oidc: OidcFixture;
let sampling: HttpFixture;
let tasks: HttpFixture;
let running: RunningGateway;
const tokens = { appA: '', appB: '', bob: '' };

beforeAll(async () => {
  const port = await freePort();
  const audience = `http://127.0.0.1:${port}/mcp`;
  [oidc, sampling, tasks] = await Promise.all([
    startOidcProvider({
      jwtResources: [audience],
      users: { alice: { groups: [] }, bob: { groups: [] } },
      clients: { 'app-a': 'app-a-secret-0123456789', 'app-b': 'app-b-secret-0123456789' },
    }),
    startHttpFixture('sampling', ['--era', 'modern']),
    startHttpFixture('conformance', ['--no-resources', '--era', 'modern']),
  ]);
  const config = {
    servers: {
      ask: httpServer(sampling.url),
      ask25: stdioFixture('sampling', ['--era', 'legacy']),
      t: httpServer(tasks.url),
    },
    gateway: { auth: { type: 'oauth' as const, issuer: oidc.issuer, audience } },
  };
  running = await startGateway(config, {}, port);
  expectAllConnected(running.hub);
  tokens.appA = await oidc.userToken('alice', 'app-a', audience);
  tokens.appB = await oidc.userToken('alice', 'app-b', audience);
  tokens.bob = await oidc.userToken('bob', 'app-a', audience);
}, 120_000);

afterAll(async () => {
  await running?.close();
  await Promise.all([sampling?.close(), tasks?.close(), oidc?.close()]);
});

const as = (token: string) =>
  connectClient(running.url, 'modern', {
    capabilities: { elicitation: { form: {} } },
    headers: { authorization: `Bearer ${token}` },
  });

/** The first round of `tool` (`input_required`), and the retry that answers it with `city`. */
async function firstRound(caller: Client, tool: string, city: string) {
  const round = (await caller.callTool(
    { name: tool, arguments: {} },
    { allowInputRequired: true },
  )) as unknown as {
    resultType?: string;
    requestState?: string;
    inputRequests?: Record<string, unknown>;
  };
  expect(round.resultType).toBe('input_required');
  const key = Object.keys(round.inputRequests ?? {})[0] as string;
  return {
    name: tool,
    arguments: {},
    requestState: round.requestState,
    inputResponses: { [key]: { action: 'accept', content: { city } } },
  } as never;
}

describe('a requestState is bound to the principal and its OAuth client', () => {
  it.each([
    ['ask', 'relayed round'],
    ['ask25', 'parked call'],
  ])(
    'another client of the same user, and another user, are refused; its own client continues (%s, %s)',
    async (server) => {
      const [appA, appB, bob] = await Promise.all([as(tokens.appA), as(tokens.appB), as(tokens.bob)]);
      try {
        const retry = await firstRound(appA, `${server}__ask_user`, 'Accra');
        for (const other of [appB, bob]) {
          const stolen = other.callTool(retry);
          await expect(stolen).rejects.toMatchObject({ code: -32602 });
          // The same answer as a state that does not open at all: nothing says whose it is.
          await expect(stolen).rejects.toThrow(/Invalid or expired requestState/);
        }
        expect(textOf((await appA.callTool(retry)) as never)).toBe('city: Accra');
        expect(running.gateway.calls()).toEqual({ running: 0, parked: 0 });
      } finally {
        await Promise.all([appA.close(), appB.close(), bob.close()]);
      }
    },
  );
});

/** One stateless 2026-07-28 request with `token`, declaring the tasks extension. */
async function rpc(token: string, method: string, params: Record<string, unknown>) {
  const { body } = await statelessRpc(running.url, method, params, {
    headers: { authorization: `Bearer ${token}` },
    client: 'binding-test',
  });
  return body;
}

describe('a task id is bound to the principal and its OAuth client', () => {
  it('another client of the same user gets -32602 as for an unknown id; its own client reads and cancels it', async () => {
    const created = await rpc(tokens.appA, 'tools/call', {
      name: 't__slow_compute',
      arguments: { seconds: 60 },
    });
    expect(created.result?.resultType).toBe('task');
    const taskId = created.result.taskId as string;
    const stolen = await rpc(tokens.appB, 'tasks/get', { taskId });
    const unknown = await rpc(tokens.appB, 'tasks/get', { taskId: `${taskId.slice(0, -6)}AAAAAA` });
    expect(stolen.error?.code).toBe(-32602);
    expect(stolen.error.message.replace(taskId, 'X')).toBe(unknown.error.message.replace(/mts1\S*/, 'X'));
    expect((await rpc(tokens.appB, 'tasks/cancel', { taskId })).error?.code).toBe(-32602);
    expect((await rpc(tokens.appA, 'tasks/get', { taskId })).result).toMatchObject({
      taskId,
      status: 'working',
    });
    expect((await rpc(tokens.appA, 'tasks/cancel', { taskId })).result?.resultType).toBe('complete');
  });
});

describe('an HTTP+SSE session is bound to the principal and its OAuth client', () => {
  it('a message POSTed with another client’s token of the same user is refused; its own client is served', async () => {
    const headers = { authorization: `Bearer ${tokens.appA}` };
    const client = new V1Client({ name: 'sse-binding', version: '1.0.0' });
    await client.connect(new SSEClientTransport(new URL('/sse', running.url), { requestInit: { headers } }));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('ask__ask_user');
      headers.authorization = `Bearer ${tokens.appB}`;
      await expect(client.listTools()).rejects.toThrow(/404/);
      headers.authorization = `Bearer ${tokens.appA}`;
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('ask__ask_user');
    } finally {
      await client.close();
    }
  });
});
