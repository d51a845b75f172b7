import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { childPids, cliBin, survivors } from '../cli/cli-process.js';
import { fixtureCommand, serverCommand } from '../fixtures/spawn-http.js';
import { SERVE_BOX_OFF } from '../helpers/serve-box-off.js';

/*
 * A host that stops `serve --stdio` quickly (SIGTERM, then SIGKILL half a second later, as
 * hosts escalate) or kills it outright leaves no upstream behind: each stdio upstream runs in
 * a process group of its own, ended at the first signal (SIGKILL 300 ms after SIGTERM for one
 * that ignores SIGTERM and its stdin's end) or by the watchdog when the gateway is SIGKILLed.
 * Checked from /proc: every process of every upstream's group is gone within 2 s.
 */

const stubbornEcho = fileURLToPath(new URL('../cli/fixtures/stubborn-echo.ts', import.meta.url));
const LINUX = process.platform === 'linux';

let dir: string;
let config: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-kill-'));
  config = join(dir, 'mcptools.json');
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        echo: { ...fixtureCommand('echo'), protocol: '2025' },
        // Ignores SIGTERM and stays up after its stdin ends: only SIGKILL ends it.
        stubborn: { ...serverCommand(stubbornEcho), protocol: '2025' },
      },
    }),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Process group of `pid` (field 5 of /proc/PID/stat), `undefined` when it is gone or a zombie. */
function groupOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' ? undefined : Number(fields[2]);
  } catch {
    return undefined;
  }
}

/** Every live process in one of `groups` (from /proc). */
function processesIn(groups: Set<number>): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      const group = groupOf(pid);
      return group !== undefined && groups.has(group);
    });
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** `serve --stdio` with a connected 2025 client, its upstream processes and their groups. */
async function startServe() {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliBin, 'serve', '--stdio', '--config', config],
    env: SERVE_BOX_OFF,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'killing-host', version: '1.0.0' });
  await client.connect(transport);
  await vi.waitFor(() => expect(stderr).toMatch(/serving 2\/2/), { timeout: 60_000, interval: 100 });
  const pid = transport.pid!;
  const children = childPids(pid);
  const upstreams = children.filter((child) => commandLine(child).includes('fixtures/'));
  const watchdogs = children.filter((child) => commandLine(child).startsWith('/bin/sh'));
  return { client, pid, upstreams, watchdogs, stderr: () => stderr };
}

describe.runIf(LINUX)(
  'serve --stdio stopped by its host leaves no upstream behind',
  { timeout: 120_000 },
  () => {
    it.each([
      { label: 'SIGTERM, then SIGKILL 0.5 s later', signals: ['SIGTERM', 'SIGKILL'] as const },
      { label: 'a bare SIGKILL', signals: ['SIGKILL'] as const },
    ])('$label: every process of every upstream group is gone within 2 s', async ({ signals }) => {
      const served = await startServe();
      try {
        // Control: both upstreams run and serve, each leading a group of its own (not the gateway's).
        expect(served.upstreams).toHaveLength(2);
        const groups = new Set(served.upstreams.map((pid) => groupOf(pid)!));
        expect([...groups].sort()).toEqual([...served.upstreams].sort());
        expect(groups.has(groupOf(served.pid)!)).toBe(false);
        expect(served.watchdogs).toHaveLength(1);
        const result = await served.client.callTool({ name: 'stubborn__echo', arguments: { text: 'up' } });
        expect(result.content).toEqual([{ type: 'text', text: 'up' }]);

        for (const [index, signal] of signals.entries()) {
          if (index > 0) await new Promise((resolve) => setTimeout(resolve, 500));
          try {
            process.kill(served.pid, signal);
          } catch (error) {
            // The gateway may be gone before the host escalates: that is what a quick stop means.
            if (index === 0 || (error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
          }
        }
        expect(await survivors([served.pid], 5_000)).toEqual([]);
        const left = await survivors(processesIn(groups), 2_000);
        expect(
          left.map((pid) => `${pid} ${commandLine(pid)}`),
          served.stderr(),
        ).toEqual([]);
        expect(processesIn(groups)).toEqual([]);
        // The watchdog went too: it outlives the gateway only to end the groups.
        expect(await survivors(served.watchdogs, 2_000)).toEqual([]);
      } finally {
        await served.client.close().catch(() => {});
      }
    });
  },
);
