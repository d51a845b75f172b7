import { AsyncLocalStorage } from 'node:async_hooks';
import { sep } from 'node:path';
import { messageOf } from '../errors/message-of.js';

/** A plugin the guard can blame: its id, its folder (once known) and what to do with a fault. */
export interface PluginFaultTarget {
  id: string;
  rootDir?: string;
  /** The entry file: a stack through it names the plugin even when several share a folder. */
  source?: string;
  /** Records the fault (status `error` with the reason); never throws. */
  fail(reason: string): void;
}

const scope = new AsyncLocalStorage<PluginFaultTarget>();
const targets = new Set<PluginFaultTarget>();
/** The plugin whose code ran last, until the turn after its work settled. */
let lastActive: PluginFaultTarget | undefined;
let installed = false;

/** Blames the plugin whose entry file or folder the error's stack runs through, else the one running, else the last to run. */
function attribute(reason: unknown): PluginFaultTarget | undefined {
  const stack = reason instanceof Error ? (reason.stack ?? '') : '';
  for (const target of targets) if (target.source && stack.includes(target.source)) return target;
  let best: PluginFaultTarget | undefined;
  for (const target of targets) {
    const root = target.rootDir;
    if (root && stack.includes(`${root}${sep}`) && (!best || root.length > (best.rootDir?.length ?? 0)))
      best = target;
  }
  return best ?? scope.getStore() ?? lastActive;
}

function onFault(kind: 'unhandled rejection' | 'uncaught exception') {
  return (reason: unknown): void => {
    const target = attribute(reason);
    if (target) {
      target.fail(`${kind}: ${messageOf(reason)}`);
      return;
    }
    const event = kind === 'unhandled rejection' ? 'unhandledRejection' : 'uncaughtException';
    // Not a plugin's: behave as Node would without us, unless the host listens itself.
    if (process.listenerCount(event) > 1) return;
    process.stderr.write(`${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`);
    process.exit(1);
  };
}

const onRejection = onFault('unhandled rejection');
const onException = onFault('uncaught exception');

function update(): void {
  if (targets.size > 0 && !installed) {
    process.on('unhandledRejection', onRejection);
    process.on('uncaughtException', onException);
    installed = true;
  } else if (targets.size === 0 && installed) {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
    installed = false;
  }
}

/**
 * Keeps a plugin's stray failures from ending the host: while any plugin is guarded, an
 * unhandled rejection or uncaught exception is attributed to the plugin whose folder its
 * stack runs through, else to the plugin whose code is running or ran last, and recorded
 * on it; failures no plugin can be blamed for end the process as Node would.
 */
export const pluginFaultGuard = {
  add(target: PluginFaultTarget): void {
    targets.add(target);
    update();
  },
  remove(target: PluginFaultTarget): void {
    targets.delete(target);
    if (lastActive === target) lastActive = undefined;
    update();
  },
  /** Runs plugin code (`register`, a factory, `execute`) as `target`'s. */
  run<T>(target: PluginFaultTarget, work: () => T): T {
    lastActive = target;
    const settle = () =>
      setImmediate(() => {
        if (lastActive === target) lastActive = undefined;
      });
    let result: T;
    try {
      result = scope.run(target, work);
    } catch (error) {
      settle();
      throw error;
    }
    if (result instanceof Promise) result.then(settle, settle);
    else settle();
    return result;
  },
};
