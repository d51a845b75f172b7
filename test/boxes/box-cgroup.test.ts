import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { detect, findCgroups } from '../../src/boxes/find-cgroups.js';
import { sandboxStatus } from '../../src/boxes/sandbox-status.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import { boxUnavailable } from './box-availability.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

const cgroups = findCgroups();
const unavailable =
  boxUnavailable() ?? (cgroups.available ? undefined : `boxes get no cgroup here: ${cgroups.reason}`);
if (unavailable !== undefined)
  console.warn(`test/boxes/box-cgroup.test.ts: skipping the process limit: ${unavailable}`);

/** The cgroups this test process's boxes left behind (named `mcptools-<pid>-<n>`). */
function leftCgroups(): string[] {
  if (!cgroups.available) return [];
  const { pids, memory, cpu, cpuacct } = cgroups.parents;
  const parents = new Set([pids, memory, cpu, cpuacct].filter((dir) => dir !== undefined));
  return [...parents].flatMap((parent) =>
    readdirSync(parent).filter((entry) => entry.startsWith(`mcptools-${process.pid}-`)),
  );
}

describe('finding cgroups', () => {
  const mountinfo = (lines: string[]) =>
    lines.map((line, index) => `${30 + index} 23 0:${index} ${line}`).join('\n');

  const everything = { writable: () => true, read: () => '' };

  it('takes cgroup v1 pids and memory hierarchies, under this process’s own cgroups', () => {
    const found = detect(
      mountinfo([
        '/ /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory',
        '/ /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids',
        '/ /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw',
      ]),
      '8:pids:/\n4:memory:/service/one\n0::/\n',
      everything,
    );
    // The unified hierarchy delegates nothing (an empty cgroup.subtree_control): v1.
    expect(found).toEqual({
      available: true,
      parents: { version: 1, pids: '/sys/fs/cgroup/pids', memory: '/sys/fs/cgroup/memory/service/one' },
    });
  });

  it('takes cgroup v2 where this process’s cgroup delegates pids (and memory), not where it cannot write', () => {
    const lines = mountinfo(['/ /sys/fs/cgroup rw - cgroup2 cgroup2 rw']);
    const delegating = { writable: () => true, read: () => 'cpu memory pids\n' };
    expect(detect(lines, '0::/gateway.service\n', delegating)).toEqual({
      available: true,
      parents: {
        version: 2,
        pids: '/sys/fs/cgroup/gateway.service',
        memory: '/sys/fs/cgroup/gateway.service',
        cpu: '/sys/fs/cgroup/gateway.service',
      },
    });
    const readOnly = detect(lines, '0::/gateway.service\n', { ...delegating, writable: () => false });
    expect(readOnly).toMatchObject({
      available: false,
      reason: /is not writable or has no "pids" controller/,
    });
  });

  it('takes cgroup v2 where this process’s cgroup has pids but does not delegate it yet: the box delegates it first', () => {
    const lines = mountinfo(['/ /sys/fs/cgroup rw - cgroup2 cgroup2 rw']);
    const files: Record<string, string> = {
      '/sys/fs/cgroup/gateway.service/cgroup.controllers': 'cpu memory pids\n',
      '/sys/fs/cgroup/gateway.service/cgroup.subtree_control': 'cpu\n',
    };
    const probe = { writable: () => true, read: (path: string) => files[path] ?? '' };
    const parents = {
      version: 2,
      pids: '/sys/fs/cgroup/gateway.service',
      memory: '/sys/fs/cgroup/gateway.service',
      cpu: '/sys/fs/cgroup/gateway.service',
      delegate: ['pids', 'memory'],
    };
    expect(detect(lines, '0::/gateway.service\n', probe)).toEqual({ available: true, parents });
    // A gateway started in that cgroup after another delegated it is in the leaf: its boxes go beside it.
    expect(detect(lines, '0::/gateway.service/mcptools-gateway\n', probe)).toEqual({
      available: true,
      parents,
    });
    // Without pids among its controllers: none.
    const noPids = { ...probe, read: (path: string) => (path.endsWith('controllers') ? 'cpu memory' : '') };
    expect(detect(lines, '0::/gateway.service\n', noPids)).toMatchObject({ available: false });
  });

  it('says why there are none without a pids hierarchy', () => {
    const found = detect(
      mountinfo(['/ /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory']),
      '4:memory:/\n',
      everything,
    );
    expect(found).toEqual({
      available: false,
      reason: 'no writable cgroup v1 "pids" hierarchy and no cgroup v2 mount',
    });
  });
});

describe.skipIf(unavailable !== undefined)('a box with a process limit (cgroup)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('holds a fork bomb at maxProcesses even as root; the other servers keep answering; the cgroup is removed', async () => {
    const logged: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      if (String(chunk).includes('limits')) logged.push(String(chunk));
      return write(chunk, ...(rest as []));
    });
    const registry = new ToolRegistry();
    const provider = await loadMcpServers(
      {
        servers: {
          bomb: stdioFixture('box-probe', [], { sandbox: { read: [ROOT], maxProcesses: 32 } }),
          other: stdioFixture('box-probe', [], { sandbox: { read: [ROOT] } }),
        },
      },
      registry,
      { eraCache: false },
    );
    try {
      const fork = async (server: string, count: number) =>
        textOf(await registry.get(`${server}__fork`)!.execute('f', { count }));
      // One cgroup per boxed server (no memory limit or CPU quota here: under v1 the pids one, and
      // the cpuacct one where CPU time is counted).
      const perBox =
        cgroups.available && cgroups.parents.version === 1 && cgroups.parents.cpuacct !== undefined ? 2 : 1;
      expect(leftCgroups()).toHaveLength(2 * perBox);
      const bombed = await fork('bomb', 200);
      const spawned = Number(/^spawned (\d+) of 200, refused: EAGAIN$/.exec(bombed)?.[1]);
      expect(bombed).toMatch(/^spawned \d+ of 200, refused: EAGAIN$/);
      // The server's own process and threads count too: fewer than 32 sleepers.
      expect(spawned).toBeLessThan(32);
      // The control: the same fixture under the default limit starts all 40.
      expect(await fork('other', 40)).toBe('spawned 40 of 40');
      // The bombed server itself still answers, and so does the other.
      expect(textOf(await registry.get('bomb__env')!.execute('e', { name: 'HOME' }))).toBe('/tmp/home');
      expect(
        sandboxStatus({ type: 'stdio', command: 'node', sandbox: { maxProcesses: 32 } }).reason,
      ).toContain(
        `at most 32 processes in the box (cgroup v${cgroups.available ? cgroups.parents.version : '?'})`,
      );
    } finally {
      await provider.close();
    }
    await expect
      .poll(() => leftCgroups(), { message: 'every box cgroup is removed with its server' })
      .toEqual([]);
    expect(logged.join('')).toMatch(
      /server "bomb" hit its box's limits: \d+ forks refused at 32 processes \(pids\.max\)/,
    );
    expect(logged.join('')).not.toContain('"other"');
  });
});
