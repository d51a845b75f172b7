import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliScratch, runCli } from '../cli/cli-process.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';

describe('mcptools run FILE (built binary)', { timeout: 120_000 }, () => {
  let dir: string;
  let config: string;
  let env: NodeJS.ProcessEnv;
  const cli = (args: string[]) => runCli(args, dir, env);

  beforeAll(() => {
    ({ dir, env } = cliScratch('mcptools-cli-run-'));
    config = join(dir, 'mcptools.json');
    writeFileSync(
      config,
      JSON.stringify({
        servers: { echo: fixtureCommand('echo') },
        router: { codeMode: { maxCalls: 3 } },
      }),
    );
    writeFileSync(
      join(dir, 'sum.ts'),
      'const totals: number[] = [];\nfor (const a of [1, 2]) totals.push((await tools.echo.add({ a, b: 10 })).sum);\nprint("totals", totals);\nreturn totals[0] + totals[1];\n',
    );
    writeFileSync(
      join(dir, 'many.js'),
      'for (let i = 0; i < 5; i++) await tools.echo.echo({ text: "x" });\n',
    );
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs a TypeScript file over the configured servers and prints what it prints and returns', async () => {
    const run = await cli(['run', 'sum.ts', '--config', config]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('totals [11,12]\n23\n');
  });

  it('stops a script at the configured limit, names it, and exits with a tool error', async () => {
    const run = await cli(['run', 'many.js', '--config', config]);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain('limit maxCalls (3) reached');
  });

  it('names a script file it cannot read', async () => {
    const run = await cli(['run', 'missing.js', '--config', config]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('cannot read script missing.js');
  });
});
