import type { McpToolsConfig, ServerConfig } from '../config/config-types.js';
import type { McpToolsError, McpToolsErrorCode } from '../errors/mcp-tools-error.js';
import type { PinGuard } from '../pins/pin-guard.js';
import type { SharedRateLimitStore } from '../pipeline/shared-rate-limits.js';
import type { RegistryChange } from '../registry/tool-catalog.js';
import type { CallContext, Caller } from '../tool/call-context.js';
import type { ProtocolEra } from './protocol-era.js';
import type { McpServerRequestRouter } from './routed-server-requests.js';
import type { ServePerCallerOptions } from './serve-per-caller-options.js';

/** Per-call options every public async operation takes. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * The call this request serves (a gateway's downstream request): who calls decides which
   * connection of a server that takes each caller's own credentials serves it, or refuses it.
   * Absent for an in-process caller, which acts as the operator.
   */
  context?: CallContext;
}

/**
 * Connection state of one server. `auth_required`: the server wants OAuth authorization from a
 * person (`lastError` names the command); it is not retried until then. `skipped`: the entry is
 * mcptools itself, or a gateway loop (`lastError.message` says which, starting "skipped:"); it
 * is never connected nor retried, and is no failure (docs/gateway-recursion.md).
 */
export type ServerState =
  | 'connected'
  | 'connecting'
  | 'disconnected'
  | 'error'
  | 'disabled'
  | 'skipped'
  | 'auth_required';

/** Transport actually in use for one server (`in-memory`: a server in this process, see `InProcessServer`). */
export type TransportKind = 'stdio' | 'streamable-http' | 'sse' | 'in-memory';

/** A JSON-safe error as it appears in status and router results. Never holds secrets. */
export interface ErrorInfo {
  code: McpToolsErrorCode;
  message: string;
  recoverable: boolean;
}

export type { ProtocolEra };

/** What `status()` reports for one server. */
export interface ServerStatus {
  name: string;
  state: ServerState;
  transport?: TransportKind;
  /** The negotiated protocol version, e.g. `2025-11-25` or `2026-07-28`. */
  protocolVersion?: string;
  /**
   * The era: `2025` (the revisions 2024-11-05 to 2025-06-18: `initialize` and sessions) or
   * `2026-07-28` (stateless).
   */
  protocolEra?: ProtocolEra;
  /** @deprecated The era by its earlier name, `legacy` (`2025`) or `modern` (`2026-07-28`): read {@link protocolEra}. */
  era?: 'legacy' | 'modern';
  serverInfo?: { name: string; version: string };
  toolCount: number;
  resourceCount: number;
  promptCount: number;
  lastError?: ErrorInfo;
  reconnectAttempts: number;
  /** When the next reconnect attempt is due (epoch ms), while one is scheduled. */
  nextRetryAt?: number;
  /** PID of the stdio child process while connected. */
  pid?: number;
}

/** A resource as listed by one server. */
export interface ResourceEntry {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

/** A resource template as listed by one server. */
export interface ResourceTemplateEntry {
  server: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** One item of a `resources/read` result. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  /** Base64. */
  blob?: string;
  _meta?: Record<string, unknown>;
}

/** A failure of one server inside a call that spans several. */
export interface ServerError {
  server: string;
  error: ErrorInfo;
}

/** A list gathered from several servers, with the failures of those that could not answer. */
export interface MultiServerList<T> {
  items: T[];
  errors: ServerError[];
}

/** A prompt as listed by one server. */
export interface PromptEntry {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

/** The messages a prompt expands to. */
export interface PromptResult {
  server: string;
  name: string;
  description?: string;
  messages: { role: 'user' | 'assistant'; content: unknown }[];
}

/**
 * Resources of every server, with these semantics: listing a disconnected server gives
 * an empty list and a warning; reading from it throws a typed {@link McpToolsError}.
 */
export interface ResourceService {
  list(server: string, options?: CallOptions): Promise<ResourceEntry[]>;
  listAll(options?: CallOptions): Promise<MultiServerList<ResourceEntry>>;
  listTemplates(server: string, options?: CallOptions): Promise<ResourceTemplateEntry[]>;
  listAllTemplates(options?: CallOptions): Promise<MultiServerList<ResourceTemplateEntry>>;
  /** Throws `RESOURCE_NOT_FOUND`, `INVALID_URI`, `SERVER_DISCONNECTED`, `TIMEOUT`, … */
  read(server: string, uri: string, options?: CallOptions): Promise<ResourceContents[]>;
  /**
   * Asks `server` for `notifications/resources/updated` about `uri`: `resources/subscribe` on
   * a 2025-era server, a `subscriptions/listen` stream naming `uri` on a 2026-07-28 one. Lasts
   * for the connection: subscribe again after a reconnect.
   */
  subscribe?(server: string, uri: string, options?: CallOptions): Promise<void>;
  unsubscribe?(server: string, uri: string, options?: CallOptions): Promise<void>;
}

/** Prompts of every server. */
export interface PromptService {
  list(server: string, options?: CallOptions): Promise<PromptEntry[]>;
  listAll(options?: CallOptions): Promise<MultiServerList<PromptEntry>>;
  get(
    server: string,
    name: string,
    args?: Record<string, string>,
    options?: CallOptions,
  ): Promise<PromptResult>;
  /** Argument completions from `server` (`completion/complete`), for a prompt or a resource template. */
  complete?(server: string, params: CompletionParams, options?: CallOptions): Promise<CompletionValues>;
}

/** What `completion/complete` asks: the reference, the argument being typed, and the others. */
export interface CompletionParams {
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

/** The completion values a server suggested. */
export interface CompletionValues {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/**
 * A notification an upstream server sent that a gateway forwards: a log message, an update of
 * a subscribed resource, or a change of its resource or prompt list.
 */
export type UpstreamNotification =
  | { method: 'notifications/message'; params: { level: string; logger?: string; data: unknown } }
  | { method: 'notifications/resources/updated'; params: { uri: string } }
  | { method: 'notifications/resources/list_changed' }
  | { method: 'notifications/prompts/list_changed' };

/** Events the hub emits. */
export interface McpToolHubEvents {
  /** The tools of a server changed in the registry (connect, list_changed, disconnect). */
  toolsChanged: (server: string, change: RegistryChange) => void;
  /** A server changed state. */
  status: (status: ServerStatus) => void;
  /** Something worth telling an operator that is not an error of the caller (secrets redacted). */
  warning: (message: string, server?: string) => void;
  /** A server sent a notification a gateway may forward (logs, resource updates, list changes). */
  notification: (server: string, notification: UpstreamNotification) => void;
}

/** The hub over every configured MCP server, returned by `loadMcpServers`. */
export interface McpToolHub extends AsyncDisposable {
  /** Names of every configured server, enabled or not. */
  servers(): string[];
  status(): ServerStatus[];
  status(server: string): ServerStatus | undefined;
  /** Re-lists tools (and resource/prompt counts) of one server or all. */
  refresh(server?: string, options?: CallOptions): Promise<void>;
  /** Closes every connection; idempotent; no child process survives it. */
  close(): Promise<void>;
  readonly resources: ResourceService;
  readonly prompts: PromptService;
  /** The tasks extension of the servers that offer it (absent: no server can). */
  readonly tasks?: TaskService;
  on<E extends keyof McpToolHubEvents>(event: E, listener: McpToolHubEvents[E]): () => void;
  /** The pins of every server's definitions, when pins apply (a cluster shares their approvals). */
  readonly pins?: PinGuard | undefined;
  /** Where an exposed tool name routes: its server and the tool's original name. */
  toolOrigin?(name: string): ToolOrigin | undefined;
  /**
   * Why the tool an exposed name would route to is not served (its definition changed since
   * it was pinned) and its server, for the error a caller of that name reads; `undefined` otherwise.
   */
  toolRefusal?(name: string): { server: string; message: string } | undefined;
  /**
   * Makes the configured rate limits cluster-wide through `store`; returns the function that
   * makes them local again (a gateway joining a cluster sets it).
   */
  shareRateLimits?(store: SharedRateLimitStore): () => void;
  /** Why the `policies.overrides` entry of `server`/`tool` could not be applied (that tool is not served). */
  overrideProblem?(server: string, tool: string): string | undefined;
  /** Starts (or joins) the OAuth sign-in of `server`; `url` is for a person to open. */
  authorize?(
    server: string,
    options?: {
      force?: boolean;
      onAuthorizationUrl?: (url: URL, context: { server: string }) => void | Promise<void>;
      /** The call asking: a per-caller server's sign-in is that caller's own. */
      context?: CallContext;
    },
  ): Promise<{ status: 'authorized' | 'pending'; url?: string; completion: Promise<void> }>;
  /** The URL a sign-in under way for `server` waits on (the caller's own, for a per-caller server). */
  pendingAuthorization?(server: string, context?: CallContext): string | undefined;
  /** Servers whose OAuth a person can authorize (HTTP, no static credentials). */
  oauthServers?(): string[];
  /**
   * Whether the calling principal has signed in to `server`, for a server each gateway caller
   * signs in to for themselves (`perUser`); `undefined` for other servers and other callers.
   */
  callerSignIn?(
    server: string,
    context?: CallContext,
  ): Promise<'authorized' | 'pending' | 'needs_authorization' | undefined>;
  /**
   * Hands the servers' sampling, elicitation and roots requests that the hub's own handlers do
   * not answer to `router` until the returned function is called: `createGateway` installs one
   * that asks the downstream client whose call caused each request. `undefined` when the hub
   * takes no router (loaded with `serverRequests: 'configured'`); a hub without the method (one
   * of your own making) answers them itself. Either way the gateway logs that it cannot route.
   */
  routeServerRequests?(router: McpServerRequestRouter): (() => void) | undefined;
  /**
   * For a gateway: calls of servers that take each caller's own credentials (per-user OAuth,
   * token exchange) go to the calling principal's own connection, and sign-ins return to the
   * gateway. Returns the function that stops it; throws when another gateway already does.
   */
  servePerCaller?(options: ServePerCallerOptions): () => Promise<void>;
  /** For a gateway: opens `caller`'s own connections that bring a catalog not listed yet. */
  warmCaller?(caller: Caller): void;
}

/**
 * The hub `serve` runs: its servers and policies change while it runs (a configuration
 * reloaded, a server an agent added). What `startMcpServers` returns.
 */
export interface McpChangingHub extends McpToolHub {
  /** Connects one more server; rejects `INVALID_ARGUMENTS` for a name already served. */
  addServer(name: string, server: ServerConfig, signal?: AbortSignal): Promise<void>;
  /** Stops serving one server: its tools leave the registry, then its connection closes. */
  removeServer(name: string): Promise<void>;
  /** Replaces the configured policies from the next call on. */
  replacePolicies(policies: McpToolsConfig['policies']): Promise<void>;
}

/**
 * The tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`) of the servers that offer it,
 * for a gateway that passes tasks through.
 */
export interface TaskService {
  /** Whether `server` (enabled, connected, 2026-07-28, one shared connection) declares the tasks extension; never throws. */
  offers(server: string): boolean;
  /** Sends `method` for one of `server`'s tasks; answers the server's result as it is. */
  request(
    server: string,
    method: 'tasks/get' | 'tasks/update' | 'tasks/cancel',
    params: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>>;
}

/** The server and original name behind an exposed MCP tool name. */
export interface ToolOrigin {
  server: string;
  originalName: string;
}

/**
 * @deprecated Renamed {@link McpToolHub}: the hub of MCP servers is never called a provider
 * (that word names the LLM adapters of `mcptools/providers`). Removed in the next release.
 */
export type MCPToolProvider = McpToolHub;
