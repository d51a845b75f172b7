import {
  fstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SecretRedactor } from '../../src/config/secret-redactor.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import { STDERR_FILE_CAP_BYTES, StderrTail } from '../../src/mcp/stderr-tail.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { waitUntil } from '../helpers/wait-until.js';
import { stdioFixture, textOf } from './hub-test-helpers.js';

/** Where `fd` of process `pid` points (`/proc`, Linux). */
const link = (pid: number | 'self', fd: number | string): string => readlinkSync(`/proc/${pid}/fd/${fd}`);

/** This process's descriptors open on an unlinked stderr file. */
function stderrFiles(): string[] {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return /\/mcptools-[^/]+\/stderr \(deleted\)$/.test(link('self', fd));
    } catch {
      return false;
    }
  });
}

const tails: StderrTail[] = [];
afterEach(() => {
  for (const tail of tails.splice(0)) tail.close();
});

function fileTail(): { tail: StderrTail; fd: number } {
  const tail = new StderrTail();
  tails.push(tail);
  const fd = tail.childStderr();
  if (typeof fd !== 'number') throw new Error(`expected a file descriptor, got ${fd}`);
  return { tail, fd };
}

describe.runIf(process.platform === 'linux')('a stderr tail kept in an unlinked file', () => {
  it('gives the child a private file with no name and reads its last lines, redacted', () => {
    const { tail, fd } = fileTail();
    expect(link('self', fd)).toMatch(/\/mcptools-[^/]+\/stderr \(deleted\)$/);
    expect(fstatSync(fd).mode & 0o777).toBe(0o600);
    for (let index = 0; index < 30; index++) writeSync(fd, `line ${index}\n`);
    writeSync(fd, 'auth with s3cr3t-token failed');
    const text = tail.text(new SecretRedactor(['s3cr3t-token']));
    expect(text.split('\n')).toHaveLength(20);
    expect(text).not.toContain('line 10\n');
    expect(text).toContain('line 11\nline 12');
    expect(text.endsWith('line 29\nauth with *** failed')).toBe(true);
    // Every child of one attempt writes into the same file.
    expect(tail.childStderr()).toBe(fd);
  });

  it('shows only whole lines of a long stderr and at most 4000 characters', () => {
    const { tail, fd } = fileTail();
    const long = (index: number) => `${index}${'y'.repeat(999)}`;
    // Only the last 8 KiB are read: the line they start in the middle of is left out.
    writeSync(fd, `${'x'.repeat(9000)}\nfirst whole line\n${long(0)}\n${long(1)}\n`);
    expect(tail.text()).toBe(`first whole line\n${long(0)}\n${long(1)}`);
    for (let index = 2; index < 5; index++) writeSync(fd, `${long(index)}\n`);
    const text = tail.text();
    expect(text.startsWith('…')).toBe(true);
    expect(text.length).toBe(4001);
    expect(text.endsWith(long(4))).toBe(true);
  });

  it('empties a file past the cap and keeps its newest lines', async () => {
    const { tail, fd } = fileTail();
    const line = `${'e'.repeat(1023)}\n`.repeat(1024);
    for (let megabyte = 0; megabyte < 2; megabyte++) writeSync(fd, line);
    writeSync(fd, 'newest line before the cap\n');
    expect(fstatSync(fd).size).toBeGreaterThan(STDERR_FILE_CAP_BYTES);
    await waitUntil(() => fstatSync(fd).size === 0, 'until fstatSync(fd).size === 0', 10_000);
    writeSync(fd, 'a line after the file was emptied\n');
    expect(fstatSync(fd).size).toBe('a line after the file was emptied\n'.length);
    const text = tail.text();
    expect(text.endsWith('newest line before the cap\na line after the file was emptied')).toBe(true);
  });

  it('closes its file once, and spawns nothing into it afterwards', () => {
    const before = stderrFiles().length;
    const { tail } = fileTail();
    expect(stderrFiles()).toHaveLength(before + 1);
    tail.close();
    tail.close();
    expect(stderrFiles()).toHaveLength(before);
    expect(tail.childStderr()).toBe('ignore');
    expect(tail.text()).toBe('');
  });
});

describe.runIf(process.platform === 'linux')(
  'a stdio server writing stderr to a file',
  { timeout: 120_000 },
  () => {
    it('writes straight into the file, with no pipe in this process, and the file stays under the cap', async () => {
      const registry = new ToolRegistry();
      const provider = await loadMcpServers({ servers: { s: stdioFixture('hostile') } }, registry, {
        connectTimeoutMs: 60_000,
        reconnect: { enabled: false },
      });
      try {
        const pid = provider.status('s')?.pid;
        expect(pid).toBeTypeOf('number');
        expect(link(pid!, 2)).toMatch(/\/mcptools-[^/]+\/stderr \(deleted\)$/);
        expect(stderrFiles()).toHaveLength(1);
        expect(textOf(await registry.get('s__stderr_flood')!.execute('1', { mb: 3 }))).toBe('flooded stderr');
        await waitUntil(
          () => statSync(`/proc/${pid}/fd/2`).size <= STDERR_FILE_CAP_BYTES,
          'until the stderr file is back under STDERR_FILE_CAP_BYTES',
          10_000,
        );
        expect(textOf(await registry.get('s__ok')!.execute('2', {}))).toBe('ok');
      } finally {
        await provider.close();
      }
      expect(stderrFiles()).toHaveLength(0);
    });

    it('leaks no descriptor over connects, reconnects and closes', async () => {
      const log = join(mkdtempSync(join(tmpdir(), 'mcptools-stderr-test-')), 'starts.log');
      const starts = () => readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).length;
      let before = 0;
      for (let cycle = 0; cycle < 3; cycle++) {
        // Counted after a first cycle: Node opens some descriptors of its own once, at the first spawn.
        if (cycle === 1) before = readdirSync('/proc/self/fd').length;
        const provider = await loadMcpServers(
          { servers: { s: stdioFixture('crash', ['--crash-after-ms', '300', '--start-log', log]) } },
          new ToolRegistry(),
          { connectTimeoutMs: 60_000, reconnect: { initialDelayMs: 20, maxDelayMs: 20, jitter: 0 } },
        );
        try {
          // Several attempts of one connection: each closes the last one's file.
          const first = starts();
          await waitUntil(() => starts() >= first + 2, 'until starts() >= first + 2', 30_000);
          expect(stderrFiles().length).toBeLessThanOrEqual(1);
        } finally {
          await provider.close();
        }
        expect(stderrFiles()).toHaveLength(0);
      }
      expect(readdirSync('/proc/self/fd').length).toBe(before);
    });

    it('keeps the tail of a child taken over in the other era, and names its last lines when it exits', async () => {
      const registry = new ToolRegistry();
      // A 2026-only server refuses `initialize`; the client speaks 2026 to the same process.
      const config = stdioFixture(
        'crash',
        ['--era', 'modern', '--stderr-line', 'started with key k3y-s3cr3t'],
        {
          env: { KEY: 'k3y-s3cr3t' },
        },
      );
      const provider = await loadMcpServers({ servers: { s: config } }, registry, {
        connectTimeoutMs: 60_000,
        reconnect: { enabled: false },
      });
      try {
        expect(provider.status('s')).toMatchObject({ state: 'connected', era: 'modern' });
        await registry.get('s__crash_now')!.execute('1', {});
        await waitUntil(
          () => provider.status('s')?.state === 'disconnected',
          "until provider.status('s')?.state === 'disconnected'",
          15_000,
        );
        const message = provider.status('s')?.lastError?.message ?? '';
        expect(message).toContain(
          'the server process exited; stderr: started with key ***\ncrash fixture: crashing in the middle of crash_now',
        );
        expect(message).not.toContain('k3y-s3cr3t');
      } finally {
        await provider.close();
      }
    });

    it('falls back to a pipe where no file can be made (as on Windows) and still names the last lines', async () => {
      const tmp = process.env.TMPDIR;
      // The children get the SDK's default environment, without TMPDIR: only this process is affected.
      process.env.TMPDIR = '/nonexistent/mcptools-stderr-test';
      const before = stderrFiles().length;
      const config = stdioFixture('exit-at-start', [], { env: { API_KEY: 'configuration missing' } });
      try {
        const provider = await loadMcpServers({ servers: { s: config } }, new ToolRegistry(), {
          connectTimeoutMs: 60_000,
          reconnect: { enabled: false },
        });
        expect(stderrFiles()).toHaveLength(before);
        const message = provider.status('s')?.lastError?.message ?? '';
        await provider.close();
        expect(message).toContain('; stderr: exit-at-start fixture: fatal: ***, exiting with code 3');
      } finally {
        if (tmp === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = tmp;
      }
    });
  },
);
