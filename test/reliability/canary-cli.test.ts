// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} placeholders under test, not templates.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, runCli, startCli } from '../cli/cli-process.js';
import { fixtureCommand, type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { connectClient } from '../gateway/gateway-test-helpers.js';

// Canary secrets in a server's env, headers, URL (query value, bare query key, user:password)
// and `${VAR}` values, given to servers that echo them back in every failure they can produce.
// (`remote__authorization` answers, as a successful result, the header it received.)
// None may appear in anything the CLI prints (every command, with and without --json), in
// `serve --http`'s /healthz, status page, MCP answers or its stderr log.
const CANARY = {
  env: 'cnry-env-5d1f0a7b',
  header: 'cnry-hdr-81c2e94d',
  query: 'cnry-qry-3b7e6f10',
  bareKey: 'cnry-bare-9a4c27d5',
  password: 'cnry-pwd-e03b58c6',
  variable: 'cnry-var-6f21d8ab',
};
const canaries = Object.values(CANARY);

let dir: string;
let config: string;
let http: HttpFixture;
const env = { ...process.env, CANARY_VAR: CANARY.variable };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-canary-'));
  // The HTTP server quotes the `${VAR}` value it was started with in every failure.
  http = await startHttpFixture('leaky', [], { env: { LEAKY_SECRET: CANARY.variable } });
  const leaky = fixtureCommand('leaky');
  config = join(dir, 'mcptools.json');
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        leaky: { ...leaky, env: { LEAKY_SECRET: CANARY.env, OTHER: '${CANARY_VAR}' } },
        remote: {
          type: 'streamable-http',
          url: `${http.url}?key=${CANARY.query}&${CANARY.bareKey}`,
          headers: { Authorization: `Bearer ${CANARY.header}`, 'X-Var': '${CANARY_VAR}' },
        },
        down: {
          type: 'streamable-http',
          url: `http://user:${CANARY.password}@127.0.0.1:9/mcp?key=${CANARY.query}`,
          headers: { 'X-Api-Key': '${CANARY_VAR}' },
          connectTimeoutMs: 3000,
        },
      },
    }),
  );
});

afterAll(async () => {
  await http?.close();
  rmSync(dir, { recursive: true, force: true });
});

function expectNoCanary(where: string, text: string): void {
  for (const canary of canaries)
    if (text.includes(canary)) throw new Error(`${where} shows ${canary}:\n${text.slice(0, 3000)}`);
}

const COMMANDS: string[][] = [
  ['config'],
  ['servers'],
  ['tools'],
  ['call', 'leaky__reject_key'],
  ['call', 'leaky__throw_key'],
  ['call', 'remote__reject_key'],
  ['call', 'remote__throw_key'],
  ['call', 'remote__authorization'],
  ['resources'],
  ['read', 'leaky', 'leaky://key'],
  ['read', 'remote', 'leaky://key'],
  ['prompts'],
  ['prompt', 'remote', 'nope'],
  ['doctor'],
];

describe.concurrent('canary secrets never appear in CLI output', { timeout: 120_000 }, () => {
  it.each(COMMANDS.flatMap((args) => [args, [...args, '--json']]))('mcptools %s', async (...args) => {
    const run: CliRun = await runCli([...args, '--config', config], dir, env);
    expectNoCanary(`${args.join(' ')} (exit ${run.code}) stdout`, run.stdout);
    expectNoCanary(`${args.join(' ')} (exit ${run.code}) stderr`, run.stderr);
    // It ran: the servers it talks about are named, or the echoed failure was redacted.
    expect(`${run.stdout}${run.stderr}`).toMatch(/leaky|remote|down|\*\*\*|not found/i);
    if (args.includes('--json') && run.stdout.trim() !== '') JSON.parse(run.stdout);
  });
});

describe('canary secrets never appear in what serve --http answers or logs', { timeout: 120_000 }, () => {
  it('/healthz, the status page, MCP answers and stderr', async () => {
    const cli = startCli(['serve', '--http', '127.0.0.1:0', '--config', config], dir, env);
    try {
      await cli.waitForStderr(/listening on http/);
      const url = /listening on (\S+)/.exec(cli.stderr())![1]!;
      const health = await (await fetch(url.replace(/\/mcp$/, '/healthz'))).text();
      const page = await (await fetch(url.replace(/\/mcp$/, '/'))).text();
      expect(health).toContain('"down"');
      expect(page).toContain('remote');
      expectNoCanary('/healthz', health);
      expectNoCanary('status page', page);
      const client = await connectClient(url, 'legacy');
      const answers: string[] = [];
      for (const name of [
        'leaky__reject_key',
        'leaky__throw_key',
        'remote__reject_key',
        'remote__throw_key',
        'remote__authorization',
      ])
        answers.push(
          JSON.stringify(
            await client.callTool({ name, arguments: {} }).catch((error: Error) => error.message),
          ),
        );
      answers.push(
        JSON.stringify(
          await client
            .readResource({ uri: 'mcptools://leaky/leaky://key' })
            .catch((error: Error) => error.message),
        ),
      );
      await client.close();
      expect(answers.join('\n')).toContain('***');
      expectNoCanary('MCP answers', answers.join('\n'));
      cli.child.kill('SIGTERM');
      await cli.exited;
      expectNoCanary('serve stderr', cli.stderr());
      expectNoCanary('serve stdout', cli.stdout());
    } finally {
      cli.child.kill('SIGKILL');
    }
  });
});
