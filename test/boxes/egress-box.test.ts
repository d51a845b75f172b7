import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sandboxStatus } from '../../src/boxes/sandbox-status.js';
import type { StdioServerConfig } from '../../src/config/config-types.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { hasBinary } from '../helpers/system-binaries.js';
import { stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import { boxUnavailable } from './box-availability.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** `undefined` when a box with an egress relay can run here, else why not. */
function egressUnavailable(): string | undefined {
  if (!hasBinary('socat')) return 'socat is not installed (apt-get install socat)';
  return boxUnavailable();
}

/**
 * A name of this machine's `/etc/hosts` other than `localhost` that points at 127.0.0.1: listed in
 * an allowlist, it must still be refused (a name resolving to loopback), or `undefined`.
 */
function loopbackAlias(): string | undefined {
  try {
    for (const line of readFileSync('/etc/hosts', 'utf8').split('\n')) {
      const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
      if (address !== '127.0.0.1') continue;
      const alias = names.find((name) => name !== 'localhost' && /^[a-z0-9.-]+$/i.test(name));
      if (alias !== undefined) return alias;
    }
  } catch {}
  return undefined;
}

const unavailable = egressUnavailable();
if (unavailable !== undefined)
  console.warn(`test/boxes/egress-box.test.ts: skipping the egress allowlist: ${unavailable}`);
const alias = loopbackAlias();
if (unavailable === undefined && alias === undefined)
  console.warn(
    'test/boxes/egress-box.test.ts: no loopback alias in /etc/hosts: skipping the listed-name-to-loopback case',
  );

/** An HTTP listener on the host's 127.0.0.1 that answers `<label> reached`. */
async function listen(label: string): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => res.end(`${label} reached`));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, port: (server.address() as { port: number }).port };
}

describe.skipIf(unavailable !== undefined)('a box with a network allowlist', () => {
  let target: { server: Server; port: number };
  let other: { server: Server; port: number };
  let provider: McpToolHub;
  const logged: string[] = [];
  const registry = new ToolRegistry();
  const call = async (tool: string, args: Record<string, unknown>) =>
    textOf(await registry.get(tool)!.execute('1', args));

  beforeAll(async () => {
    target = await listen('target');
    other = await listen('other');
    const write = process.stderr.write.bind(process.stderr);
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      if (String(chunk).includes('egress refused')) logged.push(String(chunk));
      return write(chunk, ...(rest as []));
    });
    const boxed = (sandbox: StdioServerConfig['sandbox']): StdioServerConfig =>
      stdioFixture('box-probe', [], { sandbox, env: { ENTRY_TOKEN: 'entry-token-value' } });
    const allow = [`localhost:${target.port}`, ...(alias === undefined ? [] : [`${alias}:${target.port}`])];
    provider = await loadMcpServers(
      {
        servers: {
          listed: boxed({ read: [ROOT], network: { allow } }),
          all: boxed({ read: [ROOT], network: 'all' }),
          none: boxed({ read: [ROOT], network: 'none' }),
        },
      },
      registry,
      { eraCache: false },
    );
  });

  afterAll(async () => {
    await provider?.close();
    vi.restoreAllMocks();
    await new Promise((done) => target?.server.close(done));
    await new Promise((done) => other?.server.close(done));
  });

  it('reaches a listed host name through the proxy with the global fetch', async () => {
    expect(provider.status('listed')).toMatchObject({ state: 'connected' });
    expect(await call('listed__fetch', { url: `http://localhost:${target.port}/` })).toBe(
      'status 200: target reached',
    );
  });

  it('is refused a port off the list and an address it does not name, and the refusal is logged without the path', async () => {
    logged.length = 0;
    // undici's proxy agent tunnels plain HTTP too (CONNECT): a refusal is a failed fetch ("Request
    // was cancelled"), and the log says it was the proxy's.
    expect(
      await call('listed__fetch', { url: `http://localhost:${other.port}/secret?token=hunter2` }),
    ).toMatch(/^error: /);
    expect(await call('listed__fetch', { url: `http://127.0.0.1:${target.port}/` })).toMatch(/^error: /);
    expect(logged.join('')).toContain(
      `egress refused for server "listed": CONNECT localhost:${other.port} (not on the allowlist)`,
    );
    expect(logged.join('')).toContain(`CONNECT 127.0.0.1:${target.port} (not on the allowlist)`);
    expect(logged.join('')).not.toContain('hunter2');
  });

  it.skipIf(alias === undefined)('is refused a listed name that resolves to a loopback address', async () => {
    logged.length = 0;
    expect(await call('listed__fetch', { url: `http://${alias}:${target.port}/` })).toMatch(/^error: /);
    expect(logged.join('')).toContain(`${alias}:${target.port} (resolves to a loopback`);
  });

  it.skipIf(!existsSync('/usr/bin/curl'))(
    'sends plain HTTP through the proxy for a client that reads http_proxy (curl)',
    async () => {
      const curl = (url: string) =>
        call('listed__run', { command: 'curl', args: ['-s', '-o', '-', '-w', ' %{http_code}', url] });
      expect(await curl(`http://localhost:${target.port}/`)).toBe('target reached 200');
      expect(await curl(`http://localhost:${other.port}/`)).toBe('refused by the egress allowlist\n 403');
    },
  );

  it('cannot connect or resolve around the proxy', async () => {
    expect(await call('listed__connect', { port: target.port })).toMatch(/^error: E/);
    expect(await call('listed__lookup', { host: 'example.com' })).toMatch(/^error: E/);
    expect(await call('listed__env', { name: 'HTTPS_PROXY' })).toBe('http://127.0.0.1:3128');
  });

  it('leaves "all" with the whole network and "none" with none (the controls)', async () => {
    expect(await call('all__fetch', { url: `http://127.0.0.1:${target.port}/` })).toBe(
      'status 200: target reached',
    );
    expect(await call('all__connect', { port: other.port })).toBe('connected');
    expect(await call('none__fetch', { url: `http://localhost:${target.port}/` })).toMatch(/^error: E/);
    expect(await call('none__connect', { port: target.port })).toMatch(/^error: E/);
    expect(await call('none__env', { name: 'HTTP_PROXY' })).toBe('(unset)');
  });

  it('doctor names the allowlist', () => {
    const status = sandboxStatus({
      type: 'stdio',
      command: 'node',
      sandbox: { network: { allow: ['api.example.com:443'] } },
    });
    expect(status).toMatchObject({ boxed: true });
    expect(status.reason).toContain('network to api.example.com:443 only (through the egress proxy)');
  });
});
