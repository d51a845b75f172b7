import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';
import { fixtureCommand, startHttpFixture } from '../fixtures/spawn-http.js';
import { textOf } from '../mcp/hub-test-helpers.js';
import { connectClient, eras, toolNames, watchToolChanges } from './gateway-test-helpers.js';
import { type ServedHttp, startServeHttp } from './start-serve-http.js';

// `mcptools serve` over an upstream that changes its definitions (a rug pull): the change is
// quarantined for clients of both eras, `mcptools pins diff` shows it, `mcptools pins approve`
// (another process) serves it live with list_changed. A changed resource template: reads of the
// URIs it matches are refused in the gateway (both eras) and the CLI until it is approved.

let dir: string;
let file: string;
let env: NodeJS.ProcessEnv;
let served: ServedHttp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-serve-pins-'));
  file = join(dir, 'pins.json');
  env = { ...process.env, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'home', '.config') };
  writeFileSync(
    join(dir, 'mcptools.json'),
    JSON.stringify({
      servers: { dict: fixtureCommand('shifting', ['--era', 'legacy']) },
      pins: { file: './pins.json' },
    }),
  );
  served = await startServeHttp(['--config', join(dir, 'mcptools.json')], { env });
});

afterAll(async () => {
  await served?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(eras)('a rug pull seen by a $label', ({ era }) => {
  it('is quarantined until `mcptools pins approve`, which serves it live; unchanged tools stay served', async () => {
    const client = await connectClient(served.url, era);
    try {
      expect(await toolNames(client)).toContain('dict__lookup');
      const changes = await watchToolChanges(client, era);
      const shifted = await client.callTool({ name: 'dict__shift', arguments: { change: 'hidden' } });
      expect(textOf(shifted as never)).toBe('shifted hidden');
      await expect
        .poll(() => changes(), { message: 'list_changed for the quarantine', timeout: 15_000 })
        .toBeGreaterThan(0);
      await expect
        .poll(() => toolNames(client), { message: 'lookup leaves the list', timeout: 15_000 })
        .not.toContain('dict__lookup');
      // The control: the unchanged tool is still served.
      expect(await toolNames(client)).toContain('dict__shift');
      const refused = await client.callTool({ name: 'dict__lookup', arguments: { word: 'x' } }).then(
        (result) => textOf(result as never),
        (error: Error) => error.message,
      );
      expect(refused).toContain('quarantined');
      expect(refused).not.toContain('pins approve');
      // The operator is told the command, on the gateway's log.
      expect(served.stderr()).toContain('mcptools pins approve dict/lookup');

      const diff = await runCli(['pins', 'diff', 'dict', '--file', file], dir, env);
      expect(diff.code).toBe(0);
      // The hidden tag characters are shown escaped, not invisible.
      expect(diff.stdout).toContain('\\u{e0073}');
      expect(diff.stdout).toContain('approve with: mcptools pins approve dict/lookup');
      const list = await runCli(['pins', '--file', file, '--json'], dir, env);
      expect(JSON.parse(list.stdout).definitions).toContainEqual(
        expect.objectContaining({ server: 'dict', kind: 'tool', name: 'lookup', state: 'changed' }),
      );

      const before = changes();
      const approve = await runCli(['pins', 'approve', 'dict/lookup', '--file', file], dir, env);
      expect(approve.stdout).toContain('approved dict/tool:lookup');
      await expect
        .poll(() => changes(), { message: 'list_changed for the approval', timeout: 15_000 })
        .toBeGreaterThan(before);
      await expect
        .poll(() => toolNames(client), { message: 'lookup is served again', timeout: 15_000 })
        .toContain('dict__lookup');
      const called = await client.callTool({ name: 'dict__lookup', arguments: { word: 'pin' } });
      expect(textOf(called as never)).toBe('definition of pin');

      // Back to the reviewed definition for the next era (itself a change to approve).
      await client.callTool({ name: 'dict__shift', arguments: { change: 'revert' } });
      await expect
        .poll(() => toolNames(client), { message: 'the revert is quarantined', timeout: 15_000 })
        .not.toContain('dict__lookup');
      expect((await runCli(['pins', 'approve', 'dict', '--file', file], dir, env)).code).toBe(0);
      await expect
        .poll(() => toolNames(client), { message: 'the revert is served', timeout: 15_000 })
        .toContain('dict__lookup');
    } finally {
      await client.close();
    }
  });
});

describe.each(eras)('a changed resource template seen by a $label', ({ era }) => {
  it('refuses reads of its URIs in the gateway until approved; the unchanged template is served', async () => {
    const client = await connectClient(served.url, era);
    try {
      const templates = async () =>
        (await client.listResourceTemplates()).resourceTemplates.map((template) => template.name).sort();
      const read = (uri: string) =>
        client.readResource({ uri }).then(
          (result) => (result.contents[0] as { text?: string }).text ?? '',
          (error: Error) => error.message,
        );
      expect(await templates()).toEqual(['entry', 'note']);
      expect(await read('dict://entry/pin')).toBe('entry of pin');

      await client.callTool({ name: 'dict__shift', arguments: { change: 'template' } });
      await expect
        .poll(templates, { message: 'the changed template leaves the list', timeout: 15_000 })
        .toEqual(['note']);
      const refused = await read('dict://entry/pin');
      expect(refused).toContain('template "entry" of server "dict" is quarantined');
      expect(refused).not.toContain('pins approve');
      // The control: a URI of the unchanged template is served.
      expect(await read('dict://note/7')).toBe('note 7');
      const approve = await runCli(['pins', 'approve', 'dict/template:entry', '--file', file], dir, env);
      expect(approve.stdout).toContain('approved dict/template:entry');
      await expect
        .poll(() => read('dict://entry/pin'), { message: 'the approved template is served', timeout: 15_000 })
        .toBe('entry of pin');

      // Back to the reviewed template for the next era (itself a change to approve).
      await client.callTool({ name: 'dict__shift', arguments: { change: 'revert' } });
      await expect
        .poll(templates, { message: 'the revert is quarantined', timeout: 15_000 })
        .toEqual(['note']);
      expect((await runCli(['pins', 'approve', 'dict', '--file', file], dir, env)).code).toBe(0);
      await expect
        .poll(templates, { message: 'the revert is served', timeout: 15_000 })
        .toEqual(['entry', 'note']);
    } finally {
      await client.close();
    }
  });
});

// Seven CLI runs in a row: more than the default 30 s on a loaded two-core machine.
it('`mcptools read` of a URI a changed resource template matches is refused until approved; the unchanged one is read', {
  timeout: 120_000,
}, async () => {
  // An upstream over HTTP keeps its change from one CLI process to the next (a stdio one starts anew).
  const upstream = await startHttpFixture('shifting', ['--era', 'legacy']);
  const cliDir = mkdtempSync(join(tmpdir(), 'mcptools-read-pins-'));
  try {
    const config = join(cliDir, 'mcptools.json');
    const pins = join(cliDir, 'pins.json');
    writeFileSync(
      config,
      JSON.stringify({
        servers: { dict: { type: 'streamable-http', url: upstream.url } },
        pins: { file: './pins.json' },
      }),
    );
    const cli = (args: string[]) => runCli([...args, '--config', config], cliDir, env);
    // Listed once: the templates are pinned on first use.
    expect((await cli(['resources'])).stdout).toContain('dict://entry/{word}');
    expect((await cli(['read', 'dict', 'dict://entry/pin'])).stdout).toContain('entry of pin');
    expect((await cli(['call', 'dict__shift', '{"change":"template"}'])).stdout).toContain(
      'shifted template',
    );

    const refused = await cli(['read', 'dict', 'dict://entry/pin']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('template "entry" of server "dict" is quarantined');
    expect(refused.stdout).not.toContain('entry of pin');
    // The control: a URI of the unchanged template is read.
    const note = await cli(['read', 'dict', 'dict://note/7']);
    expect(note.code, note.stderr).toBe(0);
    expect(note.stdout).toContain('note 7');

    const approve = await runCli(['pins', 'approve', 'dict/template:entry', '--file', pins], cliDir, env);
    expect(approve.stdout).toContain('approved dict/template:entry');
    const read = await cli(['read', 'dict', 'dict://entry/pin']);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain('entry of pin');
  } finally {
    await upstream.close();
    rmSync(cliDir, { recursive: true, force: true });
  }
});

it('`mcptools pins approve` of nothing pending exits 2 and says so', async () => {
  const run = await runCli(['pins', 'approve', 'dict/nothing', '--file', file], dir, env);
  expect(run.code).toBe(2);
  expect(run.stdout).toContain('Nothing of dict/nothing waits for approval');
});

it('`mcptools pins save` pins what every server lists now into a file to review', async () => {
  const saved = join(dir, 'reviewed.pins.json');
  const run = await runCli(
    ['--config', join(dir, 'mcptools.json'), 'pins', 'save', '--file', saved],
    dir,
    env,
  );
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain(`in ${saved}`);
  const content = JSON.parse(readFileSync(saved, 'utf8'));
  expect(Object.keys(content.servers.dict.pins).sort()).toEqual([
    'prompt:summary',
    'template:entry',
    'template:note',
    'tool:lookup',
    'tool:shift',
  ]);
  expect(content.servers.dict.pending).toEqual({});
});
