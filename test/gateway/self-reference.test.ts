import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverForServe, type SelfIdentity, selfReference } from '../../src/cli/self-reference.js';
import type { ServerConfig } from '../../src/config/config-types.js';
import { cliBin } from '../cli/cli-process.js';

// Made at load: the tables below name paths in it.
const dir = mkdtempSync(join(tmpdir(), 'mcptools-self-'));
const other = join(dir, 'other');
let self: SelfIdentity;

beforeAll(() => {
  mkdirSync(other);
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(cliBin, join(dir, 'node_modules', '.bin', 'mcptools'));
  writeFileSync(join(dir, '.mcp.json'), '{"mcpServers":{}}');
  writeFileSync(join(other, 'mcptools.json'), '{"servers":{}}');
  self = {
    configFile: join(dir, '.mcp.json'),
    cwd: dir,
    listen: [{ host: '127.0.0.1', port: 8808 }],
    entryPoints: [cliBin],
  };
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stdio = (command: string, args: string[], extra: Partial<ServerConfig> = {}): ServerConfig =>
  ({ type: 'stdio', command, args, ...extra }) as ServerConfig;
const http = (url: string): ServerConfig => ({ type: 'http', url }) as ServerConfig;

describe('selfReference: stdio entries that are this mcptools', () => {
  it.each([
    ['the built main.cjs through node', stdio('node', [cliBin, 'serve', '--stdio'])],
    [
      'node with flags before the script',
      stdio(process.execPath, ['--no-warnings', cliBin, 'serve', '--stdio']),
    ],
    ['the bin run directly', stdio(cliBin, ['serve', '--stdio'])],
    ['mcptools on PATH', stdio('mcptools', ['serve', '--stdio'])],
    ['a node_modules/.bin link', stdio('./node_modules/.bin/mcptools', ['serve', '--stdio'])],
    ['npx -y mcptools', stdio('npx', ['-y', 'mcptools', 'serve', '--stdio'])],
    ['npx mcptools@latest', stdio('npx', ['mcptools@latest', 'serve', '--stdio'])],
    ['npx -p mcptools mcptools', stdio('npx', ['-p', 'mcptools', 'mcptools', 'serve', '--stdio'])],
    ['npm exec', stdio('npm', ['exec', '--', 'mcptools', 'serve', '--stdio'])],
    ['a global option before serve', stdio('mcptools', ['--connect-timeout', '5000', 'serve', '--stdio'])],
    ['--config naming the same file', stdio('mcptools', ['--config', '.mcp.json', 'serve', '--stdio'])],
    ['--config= naming the same file', stdio('mcptools', [`--config=${join(dir, '.mcp.json')}`, 'serve'])],
    ['a shell wrapper', stdio('sh', ['-c', `cd ${dir} && exec node '${cliBin}' serve --stdio`])],
    ['bash -lc with env', stdio('/bin/bash', ['-lc', 'FOO=1 env BAR=2 npx -y mcptools serve --stdio'])],
  ])('%s is skipped', (_label, server) => {
    expect(selfReference(server, self)).toBe(
      'skipped: this is mcptools itself (`serve` of the same configuration)',
    );
  });

  it.each([
    [
      'another configuration (A fronts B)',
      stdio('mcptools', ['serve', '--stdio', '--config', 'other/mcptools.json']),
    ],
    [
      'serve from a folder with another configuration',
      stdio('mcptools', ['serve', '--stdio'], { cwd: other }),
    ],
    ['another mcptools command', stdio('mcptools', ['servers'])],
    ['another package through npx', stdio('npx', ['-y', '@modelcontextprotocol/server-everything'])],
    ['a package whose name starts like ours', stdio('npx', ['-y', 'mcptools-extra', 'serve'])],
    ['a shell running something else', stdio('sh', ['-c', 'echo mcptools serve'])],
  ])('%s is not skipped', (_label, server) => {
    expect(selfReference(server, self)).toBeUndefined();
  });
});

describe('selfReference: URLs of this gateway', () => {
  it.each([
    'http://127.0.0.1:8808/mcp',
    'http://localhost:8808/mcp',
    'http://[::1]:8808/mcp',
    'http://127.0.0.1:8808/mcp/small',
    'http://127.0.0.1:8808/sse',
    'http://0.0.0.0:8808/mcp',
    'http://[::ffff:127.0.0.1]:8808/mcp',
  ])('%s is skipped', (url) => {
    expect(selfReference(http(url), self)).toBe("skipped: this is mcptools itself (this gateway's own URL)");
  });

  it.each(['http://127.0.0.1:8809/mcp', 'http://example.com:8808/mcp', 'http://10.1.2.3:8808/mcp'])(
    '%s is not skipped',
    (url) => {
      expect(selfReference(http(url), self)).toBeUndefined();
    },
  );

  it('skips mcp-remote (the banner’s Claude Desktop line) pointed at this gateway', () => {
    const remote = stdio('npx', ['-y', 'mcp-remote', 'http://127.0.0.1:8808/mcp']);
    expect(selfReference(remote, self)).toBe(
      "skipped: this is mcptools itself (mcp-remote to this gateway's own URL)",
    );
    const elsewhere = stdio('npx', ['-y', 'mcp-remote', 'http://127.0.0.1:9999/mcp']);
    expect(selfReference(elsewhere, self)).toBeUndefined();
  });

  it('takes no URL as its own when it listens nowhere (stdio)', () => {
    expect(selfReference(http('http://127.0.0.1:8808/mcp'), { ...self, listen: [] })).toBeUndefined();
  });

  it('a gateway bound to every interface owns its port on each local address', () => {
    const wildcard = { ...self, listen: [{ host: '0.0.0.0', port: 8808 }] };
    expect(selfReference(http('http://127.0.0.1:8808/mcp'), wildcard)).toBeDefined();
    expect(selfReference(http('http://192.0.2.77:8808/mcp'), wildcard)).toBeUndefined();
  });
});

describe('discoverForServe', () => {
  it('finds the project file, never another host’s user file', () => {
    expect(discoverForServe(dir)).toMatch(/\.mcp\.json$/);
    expect(discoverForServe(join(dir, 'node_modules'))).toBeUndefined();
  });
});
