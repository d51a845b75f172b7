import type { Client, InputRequiredResult } from '@modelcontextprotocol/client';
import type { CallContext, UpstreamResume } from '../tool/call-context.js';
import { runAsCaller } from './caller-scope.js';
import { clientEra } from './sdk-era.js';
import { type CallsInFlight, callerMeta } from './server-requests.js';

/** What {@link sendForCaller} adds to a request: its params and whether `input_required` may come back. */
export interface CallerRequestParts {
  /** Merged into the request's params: `_meta` (trace, log level, capabilities) and, on a retry, the upstream's state and the answers. */
  params: { _meta?: Record<string, unknown> } & Partial<UpstreamResume>;
  /** Send with `allowInputRequired`: the server's `input_required` goes to the caller's client. */
  allowInputRequired: boolean;
}

/** What {@link sendForCaller} resolves with: the server's result, or `relayed` when its `input_required` went to the caller. */
export type CallerResult<T> = { relayed: false; result: T } | { relayed: true };

/** Options of {@link sendForCaller}. */
export interface CallerRequestOptions {
  /** Whether this request's `input_required` may be relayed (default `true`). */
  relay?: boolean;
  /** Whether to tell a 2026-07-28 server the capabilities of the caller's client (default `true`). */
  capabilities?: boolean;
}

/**
 * Sends one request to `client` (the connection of `server`, whose calls in flight are `calls`)
 * for `name` (a tool, a resource URI, a prompt) on behalf of the call `context` — the one way
 * the MCP tool adapter and the resource and prompt services reach an upstream for a caller:
 * the call is in `calls` while the request runs (server→client requests meanwhile are attributed to it), the
 * request is sent inside the call's linked async context where the SDK handles what it causes
 * there, its `_meta` carries the caller's log level and capabilities, and a 2026-07-28 server's
 * `input_required` goes to the caller's relay when it has one (sent back on its retry).
 */
export async function sendForCaller<T>(
  client: Client,
  calls: CallsInFlight,
  server: string,
  name: string,
  context: CallContext | undefined,
  send: (parts: CallerRequestParts) => Promise<T>,
  options: CallerRequestOptions = {},
): Promise<CallerResult<T>> {
  const meta = callerMeta(client, context, options.capabilities !== false);
  const relay =
    options.relay === false || clientEra(client) !== '2026-07-28' ? undefined : context?.upstream?.relay;
  const relays = relay?.relays(server) === true ? relay : undefined;
  const parts: CallerRequestParts = {
    params: {
      ...(meta === undefined ? {} : { _meta: meta }),
      ...relays?.resumeUpstream(server, name),
    },
    allowInputRequired: relays !== undefined,
  };
  if (context?.upstream === undefined) return { relayed: false, result: await send(parts) };
  const release = calls.track(context);
  try {
    // The call's async context reaches what the SDK handles for this request only over a
    // 2026-07-28 connection (its responses are re-linked to their sender, and `input_required`
    // rounds run inside them) or a response stream of the request's own (HTTP). A 2025-era
    // stdio server's messages come from the pipe, where no context reaches: there the request
    // is sent as it is, and a process that only ever calls such servers never enters the
    // `AsyncLocalStorage`, whose promise hooks, once on, cost every promise of the process.
    const linked = calls.perRequestStreams || clientEra(client) === '2026-07-28';
    const result = linked ? await runAsCaller(context, () => send(parts)) : await send(parts);
    if (
      relays !== undefined &&
      (result as { resultType?: unknown } | undefined)?.resultType === 'input_required'
    ) {
      relays.pass(server, name, result as InputRequiredResult);
      return { relayed: true };
    }
    return { relayed: false, result };
  } finally {
    release();
  }
}
