import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { expectAllConnected, type RunningGateway, startGateway } from './gateway-test-helpers.js';

// What the 2026-07-28 scenarios of the conformance suite (0.2) ask of a server, through the
// gateway in front of a 2026-07-28 upstream (the conformance fixture): custom `Mcp-Param-*`
// headers checked against the arguments (SEP-2243), a capability the caller did not declare
// refused with -32021 and HTTP 400, the caller's capabilities told upstream, and answers brought
// without a requestState handed to the upstream (SEP-2322). Raw requests: the suite's own shape.

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway({
    namespace: { separator: '_' },
    servers: {
      test: {
        type: 'stdio',
        ...fixtureCommand('conformance', ['--no-resources']),
        protocol: '2026-07-28-first',
      },
    },
  });
  expectAllConnected(running.hub);
}, 90_000);

afterAll(async () => {
  await running?.close();
});

/** One stateless 2026-07-28 request; `capabilities` is the envelope's client capabilities. */
async function call(
  name: string,
  extra: {
    arguments?: Record<string, unknown>;
    headers?: Record<string, string>;
    capabilities?: object;
  } & Record<string, unknown> = {},
) {
  const { arguments: args = {}, headers = {}, capabilities = {}, ...params } = extra;
  const response = await fetch(running.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      },
    }),
  });
  const text = await response.text();
  // A streamed answer is one SSE `data:` line; a JSON one is the body.
  const data = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
  return { status: response.status, body: JSON.parse(data) };
}

describe('the gateway in front of a 2026-07-28 upstream, as the 2026-07-28 conformance scenarios ask', () => {
  it('checks Mcp-Param headers against the arguments (SEP-2243): missing, mismatched or bad Base64 → 400 -32020', async () => {
    const ok = await call('test_custom_header', {
      arguments: { region: 'eu-west' },
      headers: { 'mcp-param-region': 'eu-west' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.result.content).toEqual([{ type: 'text', text: 'region: eu-west' }]);
    const encoded = await call('test_custom_header', {
      arguments: { region: 'Zürich' },
      headers: { 'mcp-param-region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=` },
    });
    expect(encoded.body.result.content).toEqual([{ type: 'text', text: 'region: Zürich' }]);
    const cases: Record<string, string>[] = [
      {},
      { 'mcp-param-region': 'us-east' },
      { 'mcp-param-region': '=?base64?%%%?=' },
    ];
    for (const headers of cases) {
      const refused = await call('test_custom_header', { arguments: { region: 'eu-west' }, headers });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe(-32020);
      expect(refused.body.id).toBe(7);
    }
  });

  it('refuses a call that needs a capability the caller did not declare with -32021 and HTTP 400', async () => {
    const refused = await call('test_missing_capability');
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe(-32021);
    expect(refused.body.error.data.requiredCapabilities).toEqual({ sampling: {} });
    const asked = await call('test_missing_capability', { capabilities: { sampling: {} } });
    expect(asked.body.result.resultType).toBe('input_required');
  });

  it("tells the upstream the caller's capabilities: it asks only what the caller can answer", async () => {
    const { body } = await call('test_input_required_result_capabilities', {
      capabilities: { sampling: {} },
    });
    expect(body.result.resultType).toBe('input_required');
    expect(
      Object.values(body.result.inputRequests).map((request) => (request as { method: string }).method),
    ).toEqual(['sampling/createMessage']);
  });

  it('passes the upstream input request keys through and completes a retry that brings no requestState', async () => {
    const first = await call('test_input_required_result_elicitation', { capabilities: { elicitation: {} } });
    expect(Object.keys(first.body.result.inputRequests)).toEqual(['user_name']);
    const answered = await call('test_input_required_result_elicitation', {
      capabilities: { elicitation: {} },
      inputResponses: {
        user_name: { action: 'accept', content: { name: 'Alice' } },
        unknown_extra_key: { action: 'accept', content: {} },
      },
    });
    expect(answered.body.result.content).toEqual([{ type: 'text', text: 'Hello, Alice!' }]);
  });
});
