import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { cliScratch, runCli } from './cli-process.js';

describe('mcptools call under configured policies (built binary)', { timeout: 120_000 }, () => {
  let dir: string;
  let config: string;
  let env: NodeJS.ProcessEnv;
  const cli = (args: string[]) => runCli(args, dir, env);

  beforeAll(() => {
    ({ dir, env } = cliScratch('mcptools-cli-policies-'));
    config = join(dir, 'mcptools.json');
    writeFileSync(
      config,
      JSON.stringify({
        servers: { echo: { ...fixtureCommand('echo'), protocol: '2025' } },
        policies: {
          deny: [{ match: { tools: ['echo__fail'] }, reason: 'failing is not allowed here' }],
          requireApproval: [
            { match: { tools: ['echo__echo', 'no_such_tool'] }, reason: 'Echoing needs a yes' },
          ],
          overrides: { echo: { add: { name: 'add_forty', arguments: { b: 40 } } } },
        },
      }),
    );
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('denies an approval without a terminal, blocks a denied tool, applies an override, warns of a dead glob', async () => {
    const asked = await cli(['call', 'echo__echo', 'text=hi', '--config', config]);
    expect(asked.code).not.toBe(0);
    expect(asked.stdout + asked.stderr).toContain('Approval unavailable: nobody could be asked');
    expect(asked.stderr).toContain(
      'mcptools: policies.requireApproval[0].match.tools: "no_such_tool" matches no tool',
    );
    const denied = await cli(['call', 'echo__fail', 'message=x', '--config', config]);
    expect(denied.stdout + denied.stderr).toContain('failing is not allowed here');
    const added = await cli(['call', 'add_forty', 'a=2', '--config', config]);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('42');
  });
});
