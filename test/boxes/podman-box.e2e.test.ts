import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { findOnPath } from '../../src/paths/find-on-path.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { stdioFixture, textOf } from '../mcp/hub-test-helpers.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** Built from this machine's node by test/boxes/make-node-image.sh (no registry pull). */
const IMAGE = process.env.MCPTOOLS_TEST_PODMAN_IMAGE ?? 'localhost/mcptools-test-node:local';
/** The containers of this process's boxes are named `mcptools-<pid>-<n>`. */
const PREFIX = `mcptools-${process.pid}-`;

/**
 * `undefined` when Podman can run the local image here, else why not: Podman missing, the image
 * not built, or the engine unable to start a container on this machine (what it said).
 */
function podmanUnavailable(): string | undefined {
  const podman = findOnPath('podman');
  if (podman === undefined) return 'podman is not on PATH (apt-get install podman)';
  if (spawnSync(podman, ['image', 'exists', IMAGE]).status !== 0)
    return `the image ${IMAGE} is not there (sh test/boxes/make-node-image.sh)`;
  const probe = spawnSync(podman, ['run', '--rm', IMAGE, process.execPath, '-e', '0'], { encoding: 'utf8' });
  return probe.status === 0 ? undefined : `podman cannot run ${IMAGE} here: ${probe.stderr.trim()}`;
}

/** The names of this process's box containers Podman still knows, running or not. */
function containersLeft(): string[] {
  const listed = spawnSync(
    'podman',
    ['ps', '--all', '--filter', 'label=mcptools.box=1', '--format', '{{.Names}}'],
    {
      encoding: 'utf8',
    },
  );
  return listed.stdout.split('\n').filter((name) => name.startsWith(PREFIX));
}

/** Host PIDs whose command line names one of this process's box containers (podman, conmon). */
function processesLeft(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(PREFIX)) found.push(Number(entry));
    } catch {}
  }
  return found;
}

const unavailable = podmanUnavailable();
if (unavailable !== undefined)
  console.warn(
    `test/boxes/podman-box.e2e.test.ts: skipping the server in a Podman container: ${unavailable}`,
  );

describe.skipIf(unavailable !== undefined)('a stdio server in a Podman container (sandbox.image)', () => {
  let listener: Server;
  let hostDir: string;
  let hostFile: string;
  let port: number;
  let hub: McpToolHub;
  const registry = new ToolRegistry();
  const call = async (tool: string, args: Record<string, unknown>) =>
    textOf(await registry.get(tool)!.execute('1', args));

  beforeAll(async () => {
    hostDir = mkdtempSync(join(tmpdir(), 'mcptools-podman-host-'));
    hostFile = join(hostDir, 'host.txt');
    writeFileSync(hostFile, 'host only');
    // A listener on the host's loopback: what `--network none` must keep the container from.
    listener = createServer((socket) => socket.end());
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    port = (listener.address() as { port: number }).port;
    hub = await loadMcpServers(
      {
        servers: {
          // The fixture's code and node_modules are under the checkout: granted read-only.
          imaged: stdioFixture('box-probe', [], {
            sandbox: { image: IMAGE, engine: 'podman', read: [ROOT] },
            connectTimeoutMs: 60_000,
          }),
          // The control: the same server unboxed reaches the listener.
          open: stdioFixture('box-probe', [], { sandbox: false }),
        },
      },
      registry,
      { eraCache: false, reconnect: { enabled: false } },
    );
  }, 90_000);

  afterAll(async () => {
    await hub?.close();
    await new Promise<void>((done) => listener?.close(() => done()));
    if (hostDir !== undefined) rmSync(hostDir, { recursive: true, force: true });
  });

  it('lists the tools of the server in the container and calls one, as user 65534 with the private home', async () => {
    expect(hub.status('imaged')).toMatchObject({ state: 'connected' });
    expect(registry.get('imaged__connect')).toBeDefined();
    expect(await call('imaged__env', { name: 'HOME' })).toBe('/tmp/home');
    expect(await call('imaged__read_file', { path: '/proc/self/status' })).toMatch(/^Uid:\s+65534\s/m);
    // A file of the host outside the grants is not in the container (its /tmp is its own).
    expect(await call('imaged__read_file', { path: hostFile })).toBe('error: ENOENT');
    expect(await call('open__read_file', { path: hostFile })).toBe('host only');
    expect(await call('open__env', { name: 'HOME' })).toBe(process.env.HOME ?? '(unset)');
  });

  it('keeps the container off the network: loopback its only interface, the host loopback listener not reached', async () => {
    // `--network none`: the container's interfaces are its own loopback alone (a bridged one has
    // an eth0 as well; the host has more).
    const interfaces = (text: string) =>
      text
        .split('\n')
        .slice(2)
        .map((line) => line.split(':')[0]!.trim())
        .filter(Boolean);
    expect(interfaces(await call('imaged__read_file', { path: '/proc/net/dev' }))).toEqual(['lo']);
    expect(interfaces(await call('open__read_file', { path: '/proc/net/dev' })).length).toBeGreaterThan(1);
    expect(await call('imaged__connect', { port })).toMatch(/^error: (ECONNREFUSED|ENETUNREACH)/);
    expect(await call('open__connect', { port })).toBe('connected');
  });

  it('leaves no container and no engine process once the hub is closed', async () => {
    // The control: while the server runs, its container and Podman's processes for it are seen.
    expect(containersLeft()).toHaveLength(1);
    expect(processesLeft().length).toBeGreaterThan(0);
    await hub.close();
    await expect
      .poll(containersLeft, { message: 'containers of this run left', timeout: 30_000 })
      .toEqual([]);
    await expect
      .poll(processesLeft, { message: 'podman or conmon processes left', timeout: 30_000 })
      .toEqual([]);
  }, 60_000);
});
