import { spawnSync } from 'node:child_process';
import { bwrapCommand } from '../../src/boxes/bwrap-command.js';
import { findBubblewrap } from '../../src/boxes/find-bubblewrap.js';
import { hasBinary } from '../helpers/system-binaries.js';

/**
 * `undefined` when bubblewrap can make a box here (user, PID and network namespaces), else why
 * not: a container without user namespaces has bwrap installed and still cannot use it. A test
 * file that needs boxes skips with this reason, said in the run's summary.
 */
export function boxUnavailable(): string | undefined {
  if (!hasBinary('bwrap')) return 'bubblewrap is not installed';
  const bwrap = findBubblewrap();
  if (bwrap === undefined) return 'bubblewrap is not on PATH';
  const probe = spawnSync(bwrap, bwrapCommand(bwrap, { command: 'true', args: [] }, {}).args, {
    encoding: 'utf8',
  });
  return probe.status === 0 ? undefined : `bwrap cannot create namespaces here: ${probe.stderr.trim()}`;
}
