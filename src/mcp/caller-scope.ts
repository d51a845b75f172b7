import { AsyncLocalStorage } from 'node:async_hooks';

// Its own module, free of the SDK, so that the package root exports these two without
// loading the MCP client (see server-requests.ts for how the hub uses the caller).
const callers = new AsyncLocalStorage<object>();

/**
 * Runs `fn` with `caller` as the owner of every tool call, resource read and prompt get it makes
 * (and of the server→client requests those cause).
 */
export function runAsCaller<T>(caller: object, fn: () => T): T {
  return callers.run(caller, fn);
}

/** The caller named by the innermost {@link runAsCaller}, if any. */
export function currentCaller(): object | undefined {
  return callers.getStore();
}
