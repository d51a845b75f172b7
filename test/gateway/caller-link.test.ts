import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect, it } from 'vitest';
import { currentCaller, runAsCaller } from '../../src/mcp/caller-scope.js';
import { linkResponsesToCallers } from '../../src/mcp/server-requests.js';
import type { CallContext } from '../../src/tool/call-context.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';

/** A call's context whose upstream part names `city` (as its session id). */
const callIn = (city: string): CallContext => ({
  toolCallId: city,
  upstream: {
    logLevel: undefined,
    capabilities: undefined,
    sessionId: city,
    ask: async () => undefined,
    log: () => {},
  },
});

it('runs a 2026-07-28 stdio input_required round in the context of the call that caused it', {
  timeout: 120_000,
}, async () => {
  const transport = new StdioClientTransport(fixtureCommand('sampling', ['--era', 'modern']));
  const client = new Client(
    { name: 'link-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const seen: unknown[] = [];
  client.setRequestHandler('elicitation/create', async () => {
    seen.push(currentCaller());
    return { action: 'accept', content: { city: String(currentCaller()?.upstream?.sessionId) } };
  });
  linkResponsesToCallers(transport);
  await client.connect(transport);
  try {
    expect(client.getProtocolEra()).toBe('modern');
    const first = callIn('Lima');
    const second = callIn('Riga');
    const [a, b] = await Promise.all([
      runAsCaller(first, () => client.callTool({ name: 'ask_user', arguments: {} })),
      runAsCaller(second, () => client.callTool({ name: 'ask_user', arguments: {} })),
    ]);
    expect(JSON.stringify(a.content)).toContain('city: Lima');
    expect(JSON.stringify(b.content)).toContain('city: Riga');
    expect(seen).toHaveLength(2);
    expect(seen).toEqual(expect.arrayContaining([first, second]));
  } finally {
    await client.close();
  }
});
