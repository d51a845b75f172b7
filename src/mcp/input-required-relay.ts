import type { Client, InputRequiredResult } from '@modelcontextprotocol/client';
// Only types from the SDK: the router imports this module, and importing mcptools loads no SDK.
import { currentCaller } from './caller-scope.js';

/** An upstream's own state and the client's answers, for the retry that continues its call. */
export interface UpstreamResume {
  /** The upstream's `requestState`, echoed byte for byte (absent when it sent none). */
  requestState?: string;
  /** The client's answers, keyed as the upstream keyed its `inputRequests`. */
  inputResponses: Record<string, unknown>;
}

/**
 * What a caller (see `runAsCaller`) offers when it can hand a 2026-07-28 upstream's
 * `input_required` on to its own client instead of answering it here: a gateway's 2026-07-28
 * downstream call. The MCP tool adapter then calls with `allowInputRequired`, passes the
 * result to {@link relay}, and on the retry sends the {@link resumeUpstream} back upstream, so the
 * call holds nothing between rounds (issue 27).
 */
export interface InputRequiredRelay {
  /**
   * Told by whoever runs exactly one request to `server` for this caller (the gateway for a
   * tool, read or prompt get of one server; the router's `call_tool` for its target): that
   * request's `input_required` may go to the client as it is.
   */
  relayFor(server: string): void;
  /** Whether this caller relays the `input_required` of a call of `server` (checked before calling). */
  relays(server: string): boolean;
  /** The resume for a call of `server`'s `name`, when this call retries one of its rounds (once). */
  resumeUpstream(server: string, name: string): UpstreamResume | undefined;
  /**
   * Takes `server`'s `input_required` for its `name` to hand to the client; throws (and the
   * call fails) when the client cannot answer it (a capability it did not declare).
   */
  relay(server: string, name: string, result: InputRequiredResult): void;
}

function isRelay(caller: unknown): caller is InputRequiredRelay {
  return typeof (caller as Partial<InputRequiredRelay> | undefined)?.relay === 'function';
}

/**
 * Tells the current caller, if it relays `input_required`, that what runs next is exactly one
 * call of a tool of `server` (see {@link InputRequiredRelay.relayFor}).
 */
export function relayOneCall(server: string): void {
  const caller = currentCaller();
  if (isRelay(caller)) caller.relayFor(server);
}

/** The current caller's relay, when it relays `server`'s `input_required`; `undefined` otherwise. */
export function inputRequiredRelay(server: string): InputRequiredRelay | undefined {
  const caller = currentCaller();
  return isRelay(caller) && caller.relays(server) ? caller : undefined;
}

/** A request to an upstream whose `input_required` goes to the current caller (see {@link relayedRequest}). */
export interface RelayedRequest {
  /** What to add to the request's params: the upstream's state and the client's answers, on a retry. */
  params: UpstreamResume | Record<string, never>;
  /** Hands `result` to the caller when it is an `input_required` (`true` then); throws when the client cannot answer it. */
  took(result: unknown): boolean;
}

/**
 * How a request to `client` (the connection of `server`) for `name` (a tool, a resource URI, a
 * prompt) relays an `input_required` to the current caller: `undefined` unless the server
 * speaks 2026-07-28 and the caller relays it; send it with `allowInputRequired` then.
 */
export function relayedRequest(client: Client, server: string, name: string): RelayedRequest | undefined {
  if (client.getProtocolEra() !== 'modern') return undefined;
  const relay = inputRequiredRelay(server);
  if (relay === undefined) return undefined;
  return {
    params: relay.resumeUpstream(server, name) ?? {},
    took(result) {
      if ((result as { resultType?: unknown } | undefined)?.resultType !== 'input_required') return false;
      relay.relay(server, name, result as InputRequiredResult);
      return true;
    },
  };
}
