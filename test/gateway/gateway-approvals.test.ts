import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, eras, type RunningGateway, startGateway } from './gateway-test-helpers.js';

const textOf = (result: { content: unknown }) =>
  (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('');

/** A client that answers every approval elicitation with `decision`, recording what it was asked. */
function deciding(url: string, era: 'modern' | 'legacy', decision: string, asked: string[]): Promise<Client> {
  return connectClient(url, era, {
    capabilities: { elicitation: { form: {} } },
    prepare: (client) => {
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(String(request.params.message));
        return { action: 'accept', content: { decision } };
      });
    },
  });
}

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway({
    servers: { echo: stdioFixture('echo') },
    policies: {
      deny: [{ match: { tools: ['echo__fail'] }, reason: 'failing is not allowed here' }],
      requireApproval: [{ match: { tools: ['echo__echo'] }, reason: 'Echoing needs a yes' }],
    },
  });
}, 120_000);

afterAll(async () => {
  await running?.close();
});

describe.each(eras)('approvals through the gateway, $label', ({ era }) => {
  it('asks the calling client (and no other), and proceeds or denies on its answer', async () => {
    const yesAsked: string[] = [];
    const noAsked: string[] = [];
    const yes = await deciding(running.url, era, 'allow-once', yesAsked);
    const no = await deciding(running.url, era, 'deny', noAsked);
    try {
      const allowed = await yes.callTool({ name: 'echo__echo', arguments: { text: 'hi' } });
      expect(textOf(allowed)).toBe('hi');
      expect(yesAsked).toHaveLength(1);
      expect(yesAsked[0]).toContain('Echoing needs a yes');
      expect(noAsked).toHaveLength(0);
      const denied = await no.callTool({ name: 'echo__echo', arguments: { text: 'hi' } });
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toContain('Denied: Call echo__echo');
      expect(yesAsked).toHaveLength(1);
    } finally {
      await yes.close();
      await no.close();
    }
  });

  it('denies when the client cannot elicit, and blocks a denied tool with the reason', async () => {
    const bare = await connectClient(running.url, era);
    try {
      const asked = await bare.callTool({ name: 'echo__echo', arguments: { text: 'hi' } });
      expect(asked.isError).toBe(true);
      expect(textOf(asked)).toContain('Approval unavailable');
      const blocked = await bare.callTool({ name: 'echo__fail', arguments: { message: 'x' } });
      expect(blocked.isError).toBe(true);
      expect(textOf(blocked)).toBe('failing is not allowed here');
    } finally {
      await bare.close();
    }
  });
});
