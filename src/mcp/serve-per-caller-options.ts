import type { RedirectReceiver } from '../auth/server-authorization.js';
import type { CallContext, Caller } from '../tool/call-context.js';

/** How a gateway turns on upstream calls as the caller (see `McpToolHub.servePerCaller`). */
export interface ServePerCallerOptions {
  /**
   * Who the call `context` is for: a caller served with their own connection, `operator` for
   * one who uses the shared connection (the client that started the process over stdio), or
   * `undefined` when the request names no caller (refused for such a server).
   */
  caller: (context: CallContext | undefined) => Caller | 'operator' | undefined;
  /** Receives the redirects of callers signing in (the gateway's `/oauth/callback`). */
  redirect: RedirectReceiver;
  /**
   * The caller's own OAuth access token (the subject of a token exchange, found by the caller's
   * `tokenDigest`), while it is valid; absent when the gateway keeps no access tokens.
   */
  subjectToken?: (caller: Caller) => string | undefined;
  /** A caller's connection that served no call for this long is closed, in ms. Default 5 minutes. */
  idleMs?: number;
}
