import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BoxCgroup } from '../../src/boxes/box-cgroup.js';
import {
  acquireCgroupDelegation,
  GATEWAY_LEAF,
  releaseCgroupDelegation,
} from '../../src/boxes/cgroup-delegation.js';

/*
 * cgroup v2 delegation against a real cgroup2 hierarchy: the test mounts one (root only). On a
 * machine with cgroup v1 the v2 hierarchy has only the controllers v1 does not hold (here
 * `hugetlb`), so delegation is shown with that one; `pids` and `memory` limits under v2 are not
 * testable there.
 */
const mount = mkdtempSync(join(tmpdir(), 'mcptools-cgroup2-'));
const mounted = spawnSync('mount', ['-t', 'cgroup2', 'none', mount], { encoding: 'utf8' });
const controllers =
  mounted.status === 0 ? readFileSync(join(mount, 'cgroup.controllers'), 'utf8').split(/\s+/) : [];
const controller = controllers.find(Boolean);
const unavailable =
  mounted.status !== 0
    ? `cannot mount a cgroup2 hierarchy here: ${(mounted.stderr || mounted.error?.message || '').trim()}`
    : controller === undefined
      ? 'the cgroup2 hierarchy has no controller to delegate'
      : undefined;
if (unavailable !== undefined) {
  console.warn(`test/boxes/cgroup-delegation.test.ts: skipping cgroup v2 delegation: ${unavailable}`);
  rmdirSync(mount);
}

/** The cgroup v2 path of process `pid` (`0::/a/b` → `/a/b`). */
const cgroupOf = (pid: number) => /^0::(.*)$/m.exec(readFileSync(`/proc/${pid}/cgroup`, 'utf8'))?.[1];
const read = (path: string) => readFileSync(path, 'utf8').trim();

describe.skipIf(unavailable !== undefined)('cgroup v2 delegation through a leaf', () => {
  // The gateway's cgroup: one of this test's own, holding a process that stands for the gateway.
  const name = `mcptools-test-${process.pid}`;
  const gateway = join(mount, name);
  let sleeper: ChildProcess;
  const sleepers: ChildProcess[] = [];
  const startSleeper = () => {
    const child = spawn('sleep', ['600'], { stdio: 'ignore' });
    sleepers.push(child);
    return child;
  };

  /** Whether this test enabled the controller at the hierarchy's root (so that the gateway's cgroup has it). */
  let enabledAtRoot = false;

  beforeAll(() => {
    // A cgroup has only the controllers its parent delegates; the root may delegate while holding processes.
    if (!read(join(mount, 'cgroup.subtree_control')).split(/\s+/).includes(controller!)) {
      writeFileSync(join(mount, 'cgroup.subtree_control'), `+${controller}`);
      enabledAtRoot = true;
    }
    mkdirSync(gateway);
    sleeper = startSleeper();
    writeFileSync(join(gateway, 'cgroup.procs'), String(sleeper.pid));
  });

  afterAll(async () => {
    for (const child of sleepers) child.kill('SIGKILL');
    await Promise.all(
      sleepers.map((child) =>
        child.exitCode === null && child.signalCode === null ? new Promise((r) => child.once('exit', r)) : 0,
      ),
    );
    for (const dir of [join(gateway, GATEWAY_LEAF), join(gateway, 'box'), gateway])
      try {
        rmdirSync(dir);
      } catch {}
    if (enabledAtRoot)
      try {
        writeFileSync(join(mount, 'cgroup.subtree_control'), `-${controller}`);
      } catch {}
    spawnSync('umount', [mount]);
    rmdirSync(mount);
  });

  it('the kernel refuses to delegate from a cgroup that holds a process (the control)', () => {
    expect(() => writeFileSync(join(gateway, 'cgroup.subtree_control'), `+${controller}`)).toThrow(/EBUSY/);
    expect(read(join(gateway, 'cgroup.subtree_control'))).toBe('');
  });

  it("moves the cgroup's processes into the leaf, delegates, holds boxes beside it, and the last release puts it back", async () => {
    acquireCgroupDelegation(gateway, [controller!, 'pids']);
    acquireCgroupDelegation(gateway, [controller!, 'pids']);
    // The process is in the leaf, the cgroup itself holds none, and delegates the controller
    // (only the one the hierarchy has: pids is not there, and is skipped).
    expect(cgroupOf(sleeper.pid!)).toBe(`/${name}/${GATEWAY_LEAF}`);
    expect(read(join(gateway, 'cgroup.procs'))).toBe('');
    expect(read(join(gateway, 'cgroup.subtree_control'))).toBe(controller);
    // A box's cgroup beside the leaf has the controller's files and takes a process.
    const box = join(gateway, 'box');
    mkdirSync(box);
    expect(readdirSync(box).some((file) => file.startsWith(`${controller}.`))).toBe(true);
    const boxed = startSleeper();
    writeFileSync(join(box, 'cgroup.procs'), String(boxed.pid));
    expect(cgroupOf(boxed.pid!)).toBe(`/${name}/box`);
    boxed.kill('SIGKILL');
    await new Promise((resolve) => boxed.once('exit', resolve));
    await expect.poll(() => read(join(box, 'cgroup.procs')), { message: 'the box cgroup empties' }).toBe('');
    rmdirSync(box);
    // One hold is given back: still delegated.
    releaseCgroupDelegation(gateway);
    expect(read(join(gateway, 'cgroup.subtree_control'))).toBe(controller);
    // The last: the cgroup is as it was found.
    releaseCgroupDelegation(gateway);
    expect(read(join(gateway, 'cgroup.subtree_control'))).toBe('');
    expect(existsSync(join(gateway, GATEWAY_LEAF))).toBe(false);
    expect(cgroupOf(sleeper.pid!)).toBe(`/${name}`);
  });

  it('leaves the delegation in place while a cgroup other than the leaf is in it (another gateway’s box)', () => {
    acquireCgroupDelegation(gateway, [controller!]);
    const other = join(gateway, 'box');
    mkdirSync(other);
    releaseCgroupDelegation(gateway);
    expect(read(join(gateway, 'cgroup.subtree_control'))).toBe(controller);
    expect(cgroupOf(sleeper.pid!)).toBe(`/${name}/${GATEWAY_LEAF}`);
    // Control: with that cgroup gone, the next holder's release puts everything back.
    rmdirSync(other);
    acquireCgroupDelegation(gateway, [controller!]);
    releaseCgroupDelegation(gateway);
    // This process did not enable the controller the second time (it was on): it stays on, the leaf stays.
    expect(read(join(gateway, 'cgroup.subtree_control'))).toBe(controller);
    writeFileSync(join(gateway, 'cgroup.subtree_control'), `-${controller}`);
    writeFileSync(join(gateway, 'cgroup.procs'), String(sleeper.pid));
    rmdirSync(join(gateway, GATEWAY_LEAF));
    expect(cgroupOf(sleeper.pid!)).toBe(`/${name}`);
  });

  it("a box's cgroup delegates its parent first, makes its own beside the leaf, and leaves nothing when it cannot be set up", async () => {
    // This hierarchy has no pids controller, so the box's pids.max cannot be written: its
    // start fails, after the delegation and the cgroup were made, and both are undone.
    const box = new BoxCgroup(
      'probe',
      { version: 2, pids: gateway, delegate: [controller!] },
      { maxProcesses: 10 },
      () => {},
    );
    const [dir] = box.dirs;
    expect(dir).toMatch(new RegExp(`^${gateway}/mcptools-${process.pid}-\\d+$`));
    // The error names the file in the box's own cgroup: it was made, beside the leaf.
    await expect(box.open()).rejects.toThrow(join(dir!, 'pids.max'));
    expect(existsSync(dir!)).toBe(false);
    expect(readdirSync(gateway).filter((entry) => !entry.includes('.'))).toEqual([]);
    expect(read(join(gateway, 'cgroup.subtree_control'))).toBe('');
    expect(cgroupOf(sleeper.pid!)).toBe(`/${name}`);
  });
});
