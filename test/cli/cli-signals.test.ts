import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand, type HttpFixture, serverCommand, startHttpFixture } from '../fixtures/spawn-http.js';
import { waitUntil } from '../helpers/wait-until.js';
import { runCli, startCli, survivors, waitForChildren } from './cli-process.js';

const stubbornEcho = fileURLToPath(new URL('./fixtures/stubborn-echo.ts', import.meta.url));

describe('mcptools CLI under SIGINT and SIGTERM (built binary)', { timeout: 120_000 }, () => {
  let dir: string;
  let remote: HttpFixture;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcptools-cli-signals-'));
    // 2025 sessions, so notifications/cancelled reaches the instance running the call.
    remote = await startHttpFixture('echo', ['--era', 'legacy']);
  });

  afterAll(async () => {
    await remote?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function writeConfig(name: string, servers: Record<string, unknown>): string {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify({ servers }));
    return file;
  }

  it('Ctrl-C during a slow call cancels it upstream, exits 130 and leaves no child process', async () => {
    const config = writeConfig('sigint-call.json', {
      remote: { type: 'streamable-http', url: remote.url, protocol: '2025' },
      local: { ...fixtureCommand('echo'), protocol: '2025' },
    });
    const before = await runCli(['call', 'remote__cancelled_count', '--config', config, '--json'], dir);
    expect(before.code).toBe(0);
    const cancelledBefore = JSON.parse(before.stdout).structuredContent.cancelled as number;

    const cli = startCli(['call', 'remote__slow', 'ms=60000', 'steps=60', '--config', config], dir);
    await cli.waitForStderr(/progress 1/);
    cli.child.kill('SIGINT');
    const { code } = await cli.exited;
    expect(code).toBe(130);
    expect(cli.stderr()).toMatch(/Interrupted/);

    const after = await runCli(['call', 'remote__cancelled_count', '--config', config, '--json'], dir);
    expect(JSON.parse(after.stdout).structuredContent.cancelled).toBe(cancelledBefore + 1);

    // A call starts only its own server: the stdio one runs as a child when its tool is called.
    const local = startCli(['call', 'local__slow', 'ms=60000', 'steps=60', '--config', config], dir);
    const children = await waitForChildren(local.pid, 1);
    await local.waitForStderr(/progress 1/);
    local.child.kill('SIGINT');
    expect((await local.exited).code).toBe(130);
    expect(await survivors(children, 2_000)).toEqual([]);
  });

  it('SIGTERM during a call closes every server, even one that ignores SIGTERM and stdin EOF', async () => {
    const config = writeConfig('sigterm-call.json', {
      stubborn: {
        ...serverCommand(stubbornEcho),
      },
    });
    const cli = startCli(['call', 'stubborn__slow', 'ms=60000', 'steps=60', '--config', config], dir);
    const [server] = await waitForChildren(cli.pid, 1);
    await cli.waitForStderr(/progress 1/);
    cli.child.kill('SIGTERM');
    const { code } = await cli.exited;
    expect(code).toBe(143);
    expect(await survivors([server!], 2_000)).toEqual([]);
  });

  it('Ctrl-C while servers are still connecting exits 130 and leaves no child process', async () => {
    const ready = join(dir, 'stuck-ready');
    const config = writeConfig('sigint-connect.json', {
      stuck: { ...fixtureCommand('hang', ['--stubborn', '--ready-file', ready]), connectTimeoutMs: 120_000 },
      quick: { ...fixtureCommand('echo'), protocol: '2025' },
    });
    const cli = startCli(['servers', '--config', config], dir);
    const children = await waitForChildren(cli.pid, 2);
    // The stuck one is set up (it ignores SIGTERM) and never answers: the CLI is still connecting.
    await waitUntil(() => existsSync(ready), 'until the stuck server wrote its ready file');
    cli.child.kill('SIGINT');
    const { code } = await cli.exited;
    expect(code).toBe(130);
    expect(await survivors(children, 2_000)).toEqual([]);
  });
});
