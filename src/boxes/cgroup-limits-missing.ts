import type { SandboxSettings } from '../config/sandbox-settings.js';
import type { CgroupSupport } from './find-cgroups.js';

/**
 * The first limit of `grants` that only a cgroup holds and that boxes cannot get here, and why:
 * `maxProcesses` without any cgroup, `maxCpus` without the `cpu` controller. Such a server is
 * refused, never run without the limit it asked for. `undefined` when every limit asked for holds.
 */
export function cgroupLimitsMissing(
  grants: SandboxSettings,
  cgroups: CgroupSupport,
): { setting: 'maxProcesses' | 'maxCpus'; reason: string } | undefined {
  if (!cgroups.available) {
    if (grants.maxProcesses !== undefined) return { setting: 'maxProcesses', reason: cgroups.reason };
    if (grants.maxCpus !== undefined) return { setting: 'maxCpus', reason: cgroups.reason };
    return undefined;
  }
  if (grants.maxCpus !== undefined && cgroups.parents.cpu === undefined)
    return {
      setting: 'maxCpus',
      reason:
        cgroups.parents.version === 2
          ? 'this process’s cgroup v2 does not delegate "cpu"'
          : 'no writable cgroup v1 "cpu" hierarchy',
    };
  return undefined;
}
