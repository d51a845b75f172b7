import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { byName, freePort, scratchFolder, startServe } from './recursion-processes.js';

// The gateway chain survives a bridge that drops mcptools' header: the real
// mcp-remote (a dev dependency) forwards the client capabilities that carry it.

const { folder } = scratchFolder('mcptools-bridge-');
const echo = fixtureCommand('echo');

describe('through a bridge that drops our header (mcp-remote)', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const mcpRemote = fileURLToPath(new URL('../../node_modules/mcp-remote/dist/proxy.js', import.meta.url));

  it('the chain rides inside the client capabilities, so the gateway refuses it and the entry is skipped', async () => {
    const dir = folder('bridge', { 'mcptools.json': { servers: { echo } } });
    const home = folder('bridge-home', {});
    const served = await startServe(dir, port);
    try {
      const own = (await fetch(new URL('/healthz', url))).headers
        .get('mcptools-gateway-reach')!
        .split(',')[0]!;
      // What a gateway spawned by this one would run: mcp-remote back to this URL, with this chain.
      const bridged = join(dir, 'bridged.json');
      writeFileSync(
        bridged,
        JSON.stringify({ servers: { back: { command: process.execPath, args: [mcpRemote, url] } } }),
      );
      const run = await runCli(['servers', '--config', bridged, '--json'], dir, {
        ...process.env,
        HOME: home,
        MCPTOOLS_GATEWAY_CHAIN: own,
      });
      expect(run.code, run.stderr).toBe(0);
      const row = byName(JSON.parse(run.stdout).servers).get('back');
      expect(row?.state).toBe('skipped');
      expect(row?.lastError?.message).toMatch(
        /^skipped: mcptools gateway loop: this request already passed through this gateway/,
      );
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });
});
