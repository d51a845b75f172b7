import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bwrapCommand } from '../../src/boxes/bwrap-command.js';
import { cgroupLimitsMissing } from '../../src/boxes/cgroup-limits-missing.js';
import { findCgroups } from '../../src/boxes/find-cgroups.js';
import { sandboxStatus } from '../../src/boxes/sandbox-status.js';
import { checkServerConfig, suggestFix } from '../../src/cli/doctor/suggest-fix.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub, ServerStatus } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { waitUntil } from '../helpers/wait-until.js';
import { stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import { boxUnavailable } from './box-availability.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

const cgroups = findCgroups();
const boxes = boxUnavailable();
const noCgroup = boxes ?? (cgroups.available ? undefined : `boxes get no cgroup here: ${cgroups.reason}`);
const noCpu =
  noCgroup ??
  (cgroups.available && cgroups.parents.cpu !== undefined ? undefined : 'no cgroup "cpu" controller here');
const noMemory =
  noCgroup ??
  (cgroups.available && cgroups.parents.memory !== undefined
    ? undefined
    : 'no cgroup "memory" controller here');
for (const [what, why] of [
  ['the boxed servers', boxes],
  ['the CPU quota', noCpu],
  ['the memory limit report', noMemory],
  ['the process limit report', noCgroup],
] as const)
  if (why !== undefined) console.warn(`test/boxes/box-limits.e2e.test.ts: skipping ${what}: ${why}`);

/**
 * The folder of the box cgroup `pid` is in, for `controller`: a box's cgroup is a child of this
 * process's own (`mcptools-<pid>-<n>`), named by the last part of its path in `/proc/<pid>/cgroup`.
 */
function cgroupOf(pid: number, controller: 'cpu' | 'cpuacct'): string {
  if (!cgroups.available) throw new Error('no cgroups');
  const lines = readFileSync(`/proc/${pid}/cgroup`, 'utf8').split('\n');
  const line =
    cgroups.parents.version === 2
      ? lines.find((candidate) => candidate.startsWith('0::'))
      : lines.find((candidate) => candidate.split(':')[1]?.split(',').includes(controller));
  const parent = cgroups.parents.version === 2 ? cgroups.parents.pids : cgroups.parents[controller];
  return join(parent!, basename(line!.split(':')[2]!));
}

/** The CPU time a box's cgroup counted, in microseconds (v1 `cpuacct.usage`, v2 `cpu.stat` `usage_usec`). */
function cpuUsedMicros(pid: number): number {
  if (cgroups.available && cgroups.parents.version === 2)
    return Number(
      /^usage_usec (\d+)$/m.exec(readFileSync(join(cgroupOf(pid, 'cpu'), 'cpu.stat'), 'utf8'))![1],
    );
  return Number(readFileSync(join(cgroupOf(pid, 'cpuacct'), 'cpuacct.usage'), 'utf8')) / 1000;
}

/** A `cpu.stat` counter of the box's cgroup. */
function cpuStat(pid: number, name: string): number {
  const match = new RegExp(`^${name} (\\d+)$`, 'm').exec(
    readFileSync(join(cgroupOf(pid, 'cpu'), 'cpu.stat'), 'utf8'),
  );
  return Number(match?.[1] ?? 0);
}

/** What the hub's boxes write on the gateway's stderr (`mcptools: …`), caught here. */
function catchBoxLog(): string[] {
  const logged: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (String(chunk).includes('box')) logged.push(String(chunk));
    return write(chunk, ...(rest as []));
  });
  return logged;
}

async function load(servers: Record<string, ReturnType<typeof stdioFixture>>, registry: ToolRegistry) {
  return loadMcpServers({ servers }, registry, {
    eraCache: false,
    reconnect: { initialDelayMs: 100, maxDelayMs: 500 },
  });
}

const call = async (registry: ToolRegistry, tool: string, args: Record<string, unknown>) =>
  textOf(await registry.get(tool)!.execute('1', args));

describe('limits only a cgroup holds', () => {
  it('are refused where the controller is missing, naming the setting; maxCpus and maxCpuSeconds are checked', () => {
    expect(cgroupLimitsMissing({ maxCpus: 0.5 }, { available: false, reason: 'no cgroups' })).toEqual({
      setting: 'maxCpus',
      reason: 'no cgroups',
    });
    expect(
      cgroupLimitsMissing(
        { maxCpus: 0.5 },
        { available: true, parents: { version: 2, pids: '/sys/fs/cgroup/g' } },
      ),
    ).toEqual({ setting: 'maxCpus', reason: 'this process’s cgroup v2 does not delegate "cpu"' });
    // The control: with the controller, and without the setting, nothing is missing.
    expect(
      cgroupLimitsMissing(
        { maxCpus: 0.5 },
        { available: true, parents: { version: 1, pids: '/p', cpu: '/c' } },
      ),
    ).toBeUndefined();
    expect(cgroupLimitsMissing({ maxOpenFiles: 64 }, { available: false, reason: 'none' })).toBeUndefined();
    const bad = (sandbox: unknown) => () =>
      parseConfig({ servers: { box: { command: 'node', sandbox } } }, { file: 'mcptools.json' });
    expect(bad({ maxCpus: 0 })).toThrow(/mcptools\.json.*box.*sandbox\.maxCpus.*at least 0\.01/s);
    expect(bad({ maxCpuSeconds: 0 })).toThrow(/mcptools\.json.*box.*sandbox\.maxCpuSeconds/s);
    expect(bad({ maxOpenFiles: 4 })).toThrow(/sandbox\.maxOpenFiles.*at least 16/s);
  });

  it('run RLIMIT_CPU only when maxCpuSeconds asks, through prlimit in the box', () => {
    const tail = (grants: Parameters<typeof bwrapCommand>[2]) => {
      const { args } = bwrapCommand('bwrap', { command: 'node', args: ['x.js'] }, grants);
      return args.slice(args.indexOf('--'));
    };
    expect(tail({ maxCpuSeconds: 30, maxOpenFiles: 64 })).toEqual([
      '--',
      'prlimit',
      '--nofile=64:64',
      '--cpu=30:31',
      '--',
      'node',
      'x.js',
    ]);
    // maxCpus is the cgroup's, never an rlimit.
    expect(tail({ maxCpus: 0.5 })).toEqual(['--', 'node', 'x.js']);
  });
});

describe.skipIf(noCpu !== undefined)('a box with a CPU quota', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('throttles a spinning server at maxCpus by its cgroup’s own count, not the one without a quota, and logs it', async () => {
    const logged = catchBoxLog();
    const registry = new ToolRegistry();
    const hub: McpToolHub = await load(
      {
        capped: stdioFixture('box-probe', [], { sandbox: { read: [ROOT], maxCpus: 0.1 } }),
        free: stdioFixture('box-probe', [], { sandbox: { read: [ROOT] } }),
      },
      registry,
    );
    try {
      const capped = hub.status('capped')!.pid!;
      const free = hub.status('free')!.pid!;
      const before = { capped: cpuUsedMicros(capped), free: cpuUsedMicros(free) };
      const periodsBefore = cpuStat(capped, 'nr_periods');
      // Both spin for the same wall time at once.
      expect(
        await Promise.all([
          call(registry, 'capped__spin', { ms: 1500 }),
          call(registry, 'free__spin', { ms: 1500 }),
        ]),
      ).toEqual(['spun', 'spun']);
      const used = {
        capped: cpuUsedMicros(capped) - before.capped,
        free: cpuUsedMicros(free) - before.free,
      };
      const periods = cpuStat(capped, 'nr_periods') - periodsBefore;
      // The kernel held the box: it waited in periods, and in the periods it ran it used at most
      // its 10 ms per 100 ms period (one period's quota of slack for the per-CPU slices).
      expect(cpuStat(capped, 'nr_throttled')).toBeGreaterThan(0);
      expect(used.capped).toBeLessThanOrEqual((periods + 1) * 10_000);
      // The control spun unthrottled: far more CPU time in the same wall time.
      expect(used.free).toBeGreaterThan(2 * used.capped);
      await waitUntil(
        () =>
          logged.some((line) =>
            /server "capped" is throttled at its box's CPU quota \(maxCpus 0\.1, cpu\.(cfs_quota_us|max)\)/.test(
              line,
            ),
          ),
        'until the throttling is logged while the server runs',
      );
      expect(logged.join('')).not.toContain('"free"');
      // Both still answer.
      expect(await call(registry, 'capped__env', { name: 'HOME' })).toBe('/tmp/home');
      expect(sandboxStatus({ type: 'stdio', command: 'node', sandbox: { maxCpus: 0.1 } }).reason).toContain(
        'at most 0.1 CPUs for the box (CPU quota)',
      );
    } finally {
      await hub.close();
    }
  });
});

describe.skipIf(boxes !== undefined)('a box with an open-files limit', () => {
  it('fails an open past maxOpenFiles with EMFILE in the box; the server and the other one keep working', async () => {
    const registry = new ToolRegistry();
    const hub = await load(
      {
        few: stdioFixture('box-probe', [], { sandbox: { read: [ROOT], maxOpenFiles: 256 } }),
        other: stdioFixture('box-probe', [], { sandbox: { read: [ROOT] } }),
      },
      registry,
    );
    try {
      const refused = await call(registry, 'few__open_files', { count: 600 });
      expect(refused).toMatch(/^opened \d+ of 600, refused: EMFILE$/);
      // Node's own descriptors count too: fewer than 256 more. (A server's start opens many
      // files at once: a limit in the tens stops a Node server before it answers.)
      expect(Number(/^opened (\d+)/.exec(refused)![1])).toBeLessThan(256);
      // The control: the other box opens all 600.
      expect(await call(registry, 'other__open_files', { count: 600 })).toBe('opened 600 of 600');
      // The limited server answers on (its descriptors were closed again).
      expect(await call(registry, 'few__open_files', { count: 8 })).toBe('opened 8 of 8');
      expect(
        sandboxStatus({ type: 'stdio', command: 'node', sandbox: { maxOpenFiles: 256 } }).reason,
      ).toContain('at most 256 open files per process');
    } finally {
      await hub.close();
    }
  });

  it('ends a process past maxCpuSeconds (opt-in RLIMIT_CPU) and starts the server again', async () => {
    const registry = new ToolRegistry();
    const hub = await load(
      { timed: stdioFixture('box-probe', [], { sandbox: { read: [ROOT], maxCpuSeconds: 1 } }) },
      registry,
    );
    try {
      // The control: a short spin is within the limit.
      expect(await call(registry, 'timed__spin', { ms: 50 })).toBe('spun');
      const past = await registry.get('timed__spin')!.execute('s', { ms: 20_000 });
      expect(past.isError).toBe(true);
      await expect
        .poll(async () => call(registry, 'timed__env', { name: 'HOME' }), {
          message: 'the ended server is started again and answers',
          timeout: 30_000,
        })
        .toBe('/tmp/home');
    } finally {
      await hub.close();
    }
  });
});

describe.skipIf(noCgroup !== undefined)('limit hits reported while the server runs', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('logs forks refused at maxProcesses while the server still runs', async () => {
    const logged = catchBoxLog();
    const registry = new ToolRegistry();
    const hub = await load(
      {
        bomb: stdioFixture('box-probe', [], { sandbox: { read: [ROOT], maxProcesses: 32 } }),
        other: stdioFixture('box-probe', [], { sandbox: { read: [ROOT] } }),
      },
      registry,
    );
    try {
      expect(await call(registry, 'bomb__fork', { count: 100 })).toMatch(/refused: EAGAIN$/);
      await waitUntil(
        () =>
          logged.some((line) =>
            /server "bomb" hit its box's process limit \(maxProcesses 32, pids\.max\): \d+ forks refused so far/.test(
              line,
            ),
          ),
        'until the refused forks are logged, the server still running',
      );
      expect(hub.status('bomb')!.state).toBe('connected');
      expect(await call(registry, 'other__fork', { count: 4 })).toBe('spawned 4 of 4');
      expect(logged.join('')).not.toContain('"other"');
    } finally {
      await hub.close();
    }
  });

  it.skipIf(noMemory !== undefined)(
    'reports a server the kernel killed at maxMemoryBytes with the limit’s name, and starts it again with backoff',
    async () => {
      const logged = catchBoxLog();
      const registry = new ToolRegistry();
      const hub = await load(
        {
          limited: stdioFixture('box-probe', [], {
            sandbox: { read: [ROOT], maxMemoryBytes: 256 * 1024 * 1024 },
          }),
          other: stdioFixture('box-probe', [], { sandbox: { read: [ROOT] } }),
        },
        registry,
      );
      const statuses: ServerStatus[] = [];
      hub.on('status', (status) => {
        if (status.name === 'limited') statuses.push(status);
      });
      try {
        // The control: within the limit, the allocation is made.
        expect(await call(registry, 'limited__allocate', { mb: 32 })).toBe('allocated 32 MiB');
        const past = await registry.get('limited__allocate')!.execute('m', { mb: 1024 });
        expect(past.isError).toBe(true);
        await waitUntil(
          () =>
            logged.some((line) =>
              /server "limited" hit its box's memory limit \(maxMemoryBytes 268435456, memory\.(limit_in_bytes|max)\): the kernel killed 1 process of the box \(out of memory\)/.test(
                line,
              ),
            ),
          'until the kill is logged with the limit’s name',
        );
        // The server's exit, as the hub reports it, names the limit.
        await waitUntil(
          () =>
            statuses.some(
              (status) => status.lastError?.message.includes('maxMemoryBytes 268435456') === true,
            ),
          'until the lost server’s error names the memory limit',
        );
        // doctor's fix for it: raise the limit.
        const lost = statuses.find(
          (status) => status.lastError?.message.includes('maxMemoryBytes') === true,
        )!;
        const entry = stdioFixture('box-probe', [], { sandbox: { read: [ROOT], maxMemoryBytes: 268435456 } });
        expect(suggestFix(entry, checkServerConfig(entry), { ...lost, state: 'disconnected' })).toBe(
          'the box stopped it at its limit: raise "sandbox.maxMemoryBytes" (docs/sandbox.md)',
        );
        expect(await call(registry, 'other__env', { name: 'HOME' })).toBe('/tmp/home');
        await expect
          .poll(async () => call(registry, 'limited__allocate', { mb: 8 }), {
            message: 'the killed server is started again and answers',
            timeout: 30_000,
          })
          .toBe('allocated 8 MiB');
        expect(logged.join('')).not.toContain('"other"');
      } finally {
        await hub.close();
      }
    },
  );
});
