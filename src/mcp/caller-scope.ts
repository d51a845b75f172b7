import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallContext } from '../tool/call-context.js';

/*
 * The one place a call's context travels in async context instead of as an argument, because
 * the SDK decides the context its handlers run in: a server→client request (a 2026-07-28
 * `input_required` round, a 2025-era request on the call's own HTTP response stream) and a log
 * message on that stream are handled inside the async context of the request that caused them.
 * Whoever sends an upstream request for a call (the MCP tool adapter, the resource and prompt
 * services) sends it inside `runAsCaller`; the server-request handlers read it back with
 * `currentCaller`. Nothing else reads it: every decision takes its context as an argument.
 */
const callers = new AsyncLocalStorage<CallContext>();

/** Runs `fn` (which sends upstream requests for the call `context`) so that the SDK's handlers of what they cause see `context`. */
export function runAsCaller<T>(context: CallContext, fn: () => T): T {
  return callers.run(context, fn);
}

/** The call whose upstream request caused the server→client message being handled, if the protocol links one. */
export function currentCaller(): CallContext | undefined {
  return callers.getStore();
}
