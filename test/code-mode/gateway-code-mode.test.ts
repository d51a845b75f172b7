import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectClient,
  eras,
  type RunningGateway,
  startGateway,
  toolNames,
} from '../gateway/gateway-test-helpers.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';

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

const LOOP = `
  const said = [];
  for (let i = 1; i <= 5; i++) said.push(await tools.echo.echo({ text: "line " + i }));
  return said.join(", ");
`;

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway({
    servers: { echo: stdioFixture('echo') },
    policies: { requireApproval: [{ match: { tools: ['echo__echo'] }, reason: 'Echoing needs a yes' }] },
    gateway: {
      mode: 'router',
      profiles: {
        full: { mode: 'full' },
        fullcode: { mode: 'full', codeMode: true },
        nocode: { mode: 'router', codeMode: false },
      },
    },
  });
}, 120_000);

afterAll(async () => {
  await running?.close();
});

describe.each(eras)('run_script through the gateway, $label', ({ era }) => {
  it('asks the caller once for a script that calls a write tool five times', async () => {
    const asked: string[] = [];
    const client = await deciding(running.url, era, 'allow-once', asked);
    try {
      const result = await client.callTool({ name: 'run_script', arguments: { script: LOOP } });
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe('"line 1, line 2, line 3, line 4, line 5"');
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('Echoing needs a yes');
      expect(asked[0]).toContain('{"text":"line 1"}');
      // Control: a second script is a new question.
      await client.callTool({
        name: 'run_script',
        arguments: { script: 'return await tools.echo.echo({ text: "x" })' },
      });
      expect(asked).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('refuses the write tool to a caller that cannot be asked, and the script can tell', async () => {
    const bare = await connectClient(running.url, era);
    try {
      const result = await bare.callTool({ name: 'run_script', arguments: { script: LOOP } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('Approval unavailable');
      const caught = await bare.callTool({
        name: 'run_script',
        arguments: {
          script: 'try { await tools.echo.echo({ text: "x" }) } catch (e) { return "refused" } return "ran"',
        },
      });
      expect(textOf(caught)).toBe('"refused"');
    } finally {
      await bare.close();
    }
  });
});

describe('code mode in gateway profiles', () => {
  it('is served in router mode, not in full mode unless configured, and can be turned off', async () => {
    const base = running.url.replace(/\/mcp$/, '/mcp');
    const names = async (url: string) => {
      const client = await connectClient(url, 'modern');
      try {
        return await toolNames(client);
      } finally {
        await client.close();
      }
    };
    expect(await names(base)).toEqual(expect.arrayContaining(['run_script', 'describe_tools', 'call_tool']));
    const full = await names(`${base}/full`);
    expect(full).toContain('echo__echo');
    expect(full).not.toContain('run_script');
    expect(await names(`${base}/fullcode`)).toEqual(
      expect.arrayContaining(['echo__echo', 'run_script', 'describe_tools']),
    );
    const off = await names(`${base}/nocode`);
    expect(off).toContain('call_tool');
    expect(off).not.toContain('run_script');
  });
});
