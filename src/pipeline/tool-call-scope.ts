import { AsyncLocalStorage } from 'node:async_hooks';
import type { ApprovalHandler } from './tool-call-hooks.js';

/** Who is calling, told by the code that receives the call (the gateway, the CLI). */
export interface ToolCallScope {
  /** The caller's identity (an authenticated subject); rate limits, the audit log and allow-always use it. */
  principal?: string;
  /** Decides approvals for calls made inside the scope (wins over the registry's `onApproval`). */
  onApproval?: ApprovalHandler;
  /**
   * The call continues an upstream's `input_required` round already counted (the gateway sets
   * it on the first retry of a relayed round): rate limits take no token, and its audit record
   * says `continuation: true`, so a call counts once however many rounds it takes.
   */
  continuation?: boolean;
}

const storage = new AsyncLocalStorage<ToolCallScope>();

/**
 * Runs `work` as `scope`'s: every tool call made inside it (through any registry with a
 * pipeline) asks `scope.onApproval` for approvals and is attributed to `scope.principal`.
 * The gateway wraps each downstream `tools/call` in one, so an approval reaches the client
 * whose call it is and nobody else.
 *
 * @example
 * await runInToolCallScope({ principal: 'alice', onApproval: askAlice }, () => tool.execute('1', args));
 */
export function runInToolCallScope<T>(scope: ToolCallScope, work: () => T): T {
  return storage.run(scope, work);
}

/** The scope of the running call, if any. */
export function currentToolCallScope(): ToolCallScope | undefined {
  return storage.getStore();
}
