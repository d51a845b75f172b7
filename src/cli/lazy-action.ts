/**
 * A commander action that imports its implementation only when the command runs, so that
 * `--help` and the other commands never pay for its dependencies.
 *
 * @example
 * program.command('servers').action(lazyAction(async () => (await import('./servers-action.js')).serversAction));
 */
export function lazyAction<A extends unknown[]>(
  load: () => Promise<(...args: A) => Promise<void> | void>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const action = await load();
    await action(...args);
  };
}
