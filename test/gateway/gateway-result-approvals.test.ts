import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, eras, type RunningGateway, startGateway } from './gateway-test-helpers.js';

/** A GitHub token of the real format, made up for this run (never a real one). */
const CANARY = `ghp_${randomBytes(27).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;

/** A client that answers every approval elicitation with `decision`, recording what it was asked. */
function deciding(url: string, era: 'modern' | 'legacy', decision: string, asked: string[]): Promise<Client> {
  return connectClient(url, era, {
    capabilities: { elicitation: { form: {} } },
    prepare: (client) => {
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(JSON.stringify(request.params));
        return { action: 'accept', content: { decision } };
      });
    },
  });
}

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway({
    servers: { canary: stdioFixture('canary') },
    policies: { guards: { results: { secrets: 'requireApproval' } } },
  });
}, 120_000);

afterAll(async () => {
  await running?.close();
});

describe.each(eras)('a flagged result held for approval through the gateway, $label', ({ era }) => {
  it('asks the calling client after the call, gives the result on allow-once and a refusal without the value on deny', async () => {
    const yesAsked: string[] = [];
    const noAsked: string[] = [];
    const yes = await deciding(running.url, era, 'allow-once', yesAsked);
    const no = await deciding(running.url, era, 'deny', noAsked);
    try {
      const allowed = await yes.callTool({ name: 'canary__echo_everywhere', arguments: { text: CANARY } });
      expect(allowed.isError).toBeFalsy();
      expect(JSON.stringify(allowed.content)).toContain(CANARY);
      expect(yesAsked).toHaveLength(1);
      expect(yesAsked[0]).toContain('Result of canary__echo_everywhere');
      expect(yesAsked[0]).toContain('secret:GITHUB_TOKEN at content[0].text');
      expect(yesAsked[0]).toContain('asked by guards after canary__echo_everywhere');
      // The question names the detector and the place, never the value; allow-always is not offered.
      expect(yesAsked[0]).not.toContain(CANARY);
      expect(yesAsked[0]).not.toContain('allow-always');
      expect(noAsked).toHaveLength(0);

      const denied = await no.callTool({ name: 'canary__echo_everywhere', arguments: { text: CANARY } });
      expect(denied.isError).toBe(true);
      expect(JSON.stringify(denied)).not.toContain(CANARY);
      expect(JSON.stringify(denied.content)).toContain('Denied: Result of canary__echo_everywhere');
      expect(noAsked).toHaveLength(1);

      // The control: a result without a finding is given without asking anyone.
      const plain = await no.callTool({
        name: 'canary__echo_everywhere',
        arguments: { text: 'opening hours' },
      });
      expect(plain.isError).toBeFalsy();
      expect(JSON.stringify(plain.content)).toContain('echo: opening hours');
      expect(noAsked).toHaveLength(1);
    } finally {
      await yes.close();
      await no.close();
    }
  });

  it('refuses a flagged result to a client that cannot be asked', async () => {
    const bare = await connectClient(running.url, era);
    try {
      const held = await bare.callTool({ name: 'canary__echo_everywhere', arguments: { text: CANARY } });
      expect(held.isError).toBe(true);
      expect(JSON.stringify(held)).not.toContain(CANARY);
      expect(JSON.stringify(held.content)).toContain('its result was withheld');
    } finally {
      await bare.close();
    }
  });
});
