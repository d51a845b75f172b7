import { isAbsolute } from 'node:path';
import type { Implementation, Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import type { AuthorizationStart, AuthorizationUrlHandler } from '../auth/server-authorization.js';
import { type OAuthHostOptions, ServerAuthorizations } from '../auth/server-authorizations.js';
import type { McpToolsConfig, ProtocolMode, ServerConfig } from '../config/config-types.js';
import { durationMs } from '../config/duration.js';
import type { PinsConfig } from '../config/pins-config.js';
import type { ToolOverrideConfig } from '../config/policies-schema.js';
import { SecretRedactor } from '../config/secret-redactor.js';
import { serverSecrets } from '../config/server-secrets.js';
import { compileToolFilter } from '../config/tool-filter.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { defaultPinsPath } from '../pins/default-pins-path.js';
import { PinGuard } from '../pins/pin-guard.js';
import type { SharedRateLimitStore } from '../pipeline/shared-rate-limits.js';
import { applyToolOverride } from '../pipeline/tool-override.js';
import type { ToolRegistry } from '../pipeline/tool-registry.js';
import { type NamingOptions, namespacedName, uniqueName } from '../registry/tool-name.js';
import { observeServerStates } from '../telemetry/state-gauges.js';
import { ArgumentValidator } from '../tool/argument-validator.js';
import type { CallContext, Caller } from '../tool/call-context.js';
import { DEFAULT_MAX_RESULT_CHARS } from '../tool/result.js';
import type { Tool } from '../tool/tool.js';
import { CallerRouting } from './caller-routing.js';
import { defaultEraCacheFile, type EraMemory, eraMemoryFor } from './era-memory.js';
import type { HubPolicies } from './hub-policies.js';
import type { CallOptions, McpChangingHub, McpToolHubEvents, ServerStatus, ToolOrigin } from './hub-types.js';
import type { ConnectionConfig, InProcessServer } from './in-process-server.js';
import {
  type ConnectionListeners,
  McpConnection,
  type McpConnectionOptions,
  type McpServerSettings,
} from './mcp-connection.js';
import { createMcpTool, type McpToolAdapterOptions } from './mcp-tool-adapter.js';
import { McpPromptService } from './prompt-service.js';
import { ReadScreen } from './read-screen.js';
import { type ReconnectOptions, reconnectPolicy } from './reconnect-policy.js';
import { McpResourceService } from './resource-service.js';
import {
  type McpServerRequestRouter,
  RoutedServerRequests,
  type ServerRequestDeclaration,
} from './routed-server-requests.js';
import type { ServePerCallerOptions } from './serve-per-caller-options.js';
import { ServerDirectory } from './server-directory.js';
import {
  type ElicitationHandler,
  type RootInput,
  type RootsHandler,
  resolveRoots,
  type SamplingHandler,
} from './server-requests.js';
import { DEFAULT_MAX_RESPONSE_BYTES, type SizeLimits } from './size-limited-fetch.js';
import { McpTaskService } from './task-service.js';
import { keepTimerList } from './timer-list-keeper.js';

/** Options of `loadMcpServers`; each overrides the matching configuration value. */
export interface LoadMcpServersOptions extends OAuthHostOptions {
  /** Aborts the initial connects; `loadMcpServers` then closes everything and rejects with `ABORTED`. */
  signal?: AbortSignal;
  /** Connect timeout of every server, in ms. Default: the server's `connectTimeoutMs`, else 30 000. */
  connectTimeoutMs?: number;
  /** Call timeout of every tool, in ms. Default: the server's `callTimeoutMs`, else 60 000. */
  callTimeoutMs?: number;
  /** Timeout of resource and prompt requests, in ms. Default 30 000. */
  requestTimeoutMs?: number;
  /** How mcptools introduces itself to servers. */
  clientInfo?: Implementation;
  /** Answers servers' sampling requests (wins over a gateway's routing; see {@link serverRequests}). */
  onSamplingRequest?: SamplingHandler;
  /** Answers servers' elicitation (form) requests (wins over a gateway's routing; see {@link serverRequests}). */
  onElicitation?: ElicitationHandler;
  /** Offered to servers as a root (`file://` URL). Default: the configuration's `workspaceDir`. */
  workspaceDir?: string;
  /** More roots: paths or `file://` URLs. */
  roots?: RootInput[];
  /** Answers servers' `roots/list` per request (wins over `workspaceDir`, `roots` and a gateway's routing). */
  onRootsRequest?: RootsHandler;
  /**
   * Which server→client requests the hub declares to its servers. `routed` (default):
   * sampling, elicitation and roots — answered by the handlers above, else by the gateway
   * serving the hub (`createGateway` routes each to the downstream client whose call caused
   * it), else refused with an error saying what is missing and a `warning` event.
   * `configured`: only those the handlers above (or roots) answer, for a hub no gateway serves
   * whose servers should take their path without them.
   */
  serverRequests?: ServerRequestDeclaration;
  reconnect?: ReconnectOptions;
  /** Cap on the text of one tool result. Default: the configuration's, else 100 000. */
  maxResultChars?: number;
  /**
   * Cap on one HTTP message from a server (a JSON body, or one SSE event), enforced while it
   * streams. Default: the configuration's, else 10 MiB (the SDK's stdio line buffer).
   */
  maxResponseBytes?: number;
  /** Cap on the arguments of one tool call (estimated JSON size), checked before sending. Default 10 MiB. */
  maxArgumentBytes?: number;
  /** Name separator and length budget. Default: the configuration's `namespace`. */
  namespace?: NamingOptions;
  /** Called on every server state change from the first connect on (the `status` event, before `start` resolves). */
  onStatus?: (status: ServerStatus) => void;
  /**
   * Pins of tool, prompt and template definitions (docs/pins-and-guards.md). Default: the
   * configuration's `pins`; without one, nothing is pinned. `false` turns them off.
   */
  pins?: PinsConfig | false;
  /** The `protocol` of every server that sets none. Default: the configuration's, else `initialize`. */
  protocol?: ProtocolMode;
  /**
   * The file each server's era is remembered in between runs, or `false` for memory only.
   * Default: `$MCPTOOLS_ERA_CACHE`, else `mcptools/eras.json` under `$XDG_CACHE_HOME` (`~/.cache`).
   */
  eraCache?: string | false;
  /**
   * Asked once per enabled server before anything connects: a reason (starting "skipped:")
   * marks the server `skipped`, never connected nor retried. The CLI skips entries that are
   * mcptools itself (docs/gateway-recursion.md).
   */
  skip?: (name: string, server: ServerConfig) => string | undefined;
  /**
   * MCP servers running in this process, by name, served beside the configuration's: each is
   * connected, listed, called and reconnected like a configured server, over the SDK's in-memory
   * transport (docs/library.md). A name the configuration uses too is refused (`INVALID_ARGUMENTS`).
   */
  inProcessServers?: Record<string, InProcessServer>;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_ARGUMENT_BYTES = 10 * 1024 * 1024;

type Listeners = { [E in keyof McpToolHubEvents]: Set<McpToolHubEvents[E]> };

/**
 * The hub over every configured MCP server: one {@link McpConnection} each, their tools
 * registered into the registry under `mcp:<server>`, resources, prompts, status and events.
 * It applies the policies it is given ({@link HubPolicies}) and builds none itself. Built and
 * started by `loadMcpServers`.
 */
export class McpToolHubImpl implements McpChangingHub {
  readonly resources: McpResourceService;
  readonly prompts: McpPromptService;
  readonly tasks: McpTaskService;
  readonly #connections = new Map<string, McpConnection>();
  readonly #registry: ToolRegistry;
  readonly #naming: NamingOptions;
  /** The tool options of most servers (those with the first server's call timeout). */
  #commonAdapterOptions: McpToolAdapterOptions | undefined;
  /** The tool options of each server that has other ones than {@link #commonAdapterOptions} (most have none). */
  readonly #adapterOptions = new Map<string, McpToolAdapterOptions>();
  /** The tool filter of each server that has one (most have none). */
  readonly #filters = new Map<string, (...names: string[]) => boolean>();
  readonly #listeners: Listeners = {
    toolsChanged: new Set(),
    status: new Set(),
    warning: new Set(),
    notification: new Set(),
  };
  readonly #directory: ServerDirectory;
  readonly #eras: EraMemory;
  /** Every configured secret, hidden in every message, status row, event and error result. */
  readonly #redactor: SecretRedactor;
  readonly #authorizations: ServerAuthorizations;
  /**
   * The policies this hub was given: their middlewares in the registry's pipeline, their
   * overrides at each registration, their guards on resource reads and prompt gets.
   */
  readonly #policies: HubPolicies;
  #policyRemovers: Array<() => void>;
  /** Ends the hub's hearing of the policies' warnings. */
  readonly #unhearPolicies: () => void;
  #closing: Promise<void> | undefined;
  /** The timer lists of the call timeouts in use, kept alive (see keepTimerList), by duration. */
  readonly #timerLists = new Map<number, NodeJS.Timeout | undefined>();
  /** Makes and keeps the connection of one more server (its filter and tool options too). */
  readonly #addConnection: (name: string, server: ServerConfig) => McpConnection;
  /** Ends this hub's share of the `mcptools.servers` gauge. */
  readonly #unobserveStates: () => void;
  /** Upstream calls as the caller, once a gateway turns it on ({@link servePerCaller}). */
  readonly #callers: CallerRouting;
  /** Holds back definitions that differ from their pins (none when pins are off). */
  readonly pins: PinGuard | undefined;
  /** Who answers the servers' sampling, elicitation and roots requests (see {@link routeServerRequests}). */
  readonly #serverRequests: RoutedServerRequests;

  constructor(
    config: McpToolsConfig,
    registry: ToolRegistry,
    policies: HubPolicies,
    options: LoadMcpServersOptions = {},
  ) {
    // Before anything joins the registry: a refused hub leaves nothing behind.
    for (const name of Object.keys(options.inProcessServers ?? {}))
      if (Object.hasOwn(config.servers, name))
        throw new McpToolsError(
          'INVALID_ARGUMENTS',
          `inProcessServers.${name}: the configuration has a server "${name}" too; give the in-process server another name`,
        );
    this.#registry = registry;
    this.#redactor = SecretRedactor.forConfig(config);
    this.#policies = policies;
    this.#naming = { ...config.namespace, ...options.namespace };
    if (options.onStatus) this.#listeners.status.add(options.onStatus);
    const validator = new ArgumentValidator({
      onUncompilable: (reason) => this.#emit('warning', `an input schema could not be compiled: ${reason}`),
    });
    const maxResultChars = options.maxResultChars ?? config.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
    const connectTimeoutMs = optionalDuration(options.connectTimeoutMs, 'connectTimeoutMs');
    const callTimeoutMs = optionalDuration(options.callTimeoutMs, 'callTimeoutMs');
    const reconnect = reconnectPolicy(options.reconnect);
    const maxArgumentBytes =
      options.maxArgumentBytes ?? config.maxArgumentBytes ?? DEFAULT_MAX_ARGUMENT_BYTES;
    const limits: SizeLimits = {
      maxResponseBytes: options.maxResponseBytes ?? config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      // The JSON-RPC envelope around the arguments needs a little room.
      maxRequestBytes: maxArgumentBytes + 64 * 1024,
    };
    this.#serverRequests = new RoutedServerRequests(
      {
        onSamplingRequest: options.onSamplingRequest,
        onElicitation: options.onElicitation,
        onRootsRequest: options.onRootsRequest,
        roots: resolveRoots(options.workspaceDir ?? config.workspaceDir, options.roots),
      },
      options.serverRequests ?? 'routed',
      (message, server) => this.#emit('warning', message, server),
    );
    const listeners: ConnectionListeners = {
      connected: (connection, tools) => this.#register(connection, tools),
      toolsChanged: (connection, tools) => this.#register(connection, tools),
      // The status row is built (and redacted) only for someone listening.
      stateChanged: (connection) => {
        if (this.#listeners.status.size > 0) this.#emit('status', connection.status());
      },
      warning: (message, connection) => this.#emit('warning', message, connection.name),
      notification: (connection, notification) => this.#emit('notification', connection.name, notification),
      wantsNotifications: () => this.#listeners.notification.size > 0,
    };
    const eraCache = options.eraCache === false ? undefined : (options.eraCache ?? defaultEraCacheFile());
    this.#eras = eraMemoryFor(eraCache);
    const protocol = options.protocol ?? config.protocol;
    this.#authorizations = new ServerAuthorizations(config, options, {
      authRequired: (server, error) => this.#connections.get(server)?.requireAuthorization(error),
      authorized: (server) => {
        if (!this.#closing)
          void this.#connections
            .get(server)
            ?.refresh()
            .catch(() => undefined);
      },
    });
    const pins = options.pins === false ? undefined : (options.pins ?? config.pins);
    this.pins =
      pins === undefined
        ? undefined
        : new PinGuard({
            ...pins,
            file: pins.file ?? defaultPinsPath(),
            warn: (message, server) => this.#emit('warning', message, server),
            // An approval serves the tools at once: the server is listed again (clients hear list_changed).
            approved: (server) => {
              if (!this.#closing && this.#connections.has(server))
                void this.refresh(server).catch(() => undefined);
            },
          });
    const clientInfo = options.clientInfo ?? { name: 'mcptools', version: '0.1.0' };
    // One options object for every connection: only the timeout and OAuth differ per server.
    const connectionOptions: McpConnectionOptions = {
      ...(protocol === undefined ? {} : { protocol }),
      eras: this.#eras,
      clientInfo,
      reconnect,
      requests: this.#serverRequests.options,
      listeners,
      redactor: this.#redactor,
      limits,
      ...(this.pins ? { pins: this.pins } : {}),
      // A box never mounts the configuration file its server comes from (protected-paths.ts).
      ...(config.source !== undefined && isAbsolute(config.source) ? { configFile: config.source } : {}),
    };
    const adapterOptionsByTimeout = new Map<number, McpToolAdapterOptions>();
    // Servers without OAuth and with the same connect timeout share one settings object.
    const settingsByTimeout = new Map<number, McpServerSettings>();
    const add = (name: string, server: ConnectionConfig): McpConnection => {
      const auth = this.#authorizations.for(name);
      const connectTimeout =
        connectTimeoutMs ??
        optionalDuration(server.connectTimeoutMs, `servers.${name}.connectTimeoutMs`) ??
        DEFAULT_CONNECT_TIMEOUT_MS;
      const settings: McpServerSettings =
        auth === undefined
          ? sharedBy(settingsByTimeout, connectTimeout, () => ({ connectTimeoutMs: connectTimeout }))
          : { connectTimeoutMs: connectTimeout, auth };
      const connection = new McpConnection(name, server, connectionOptions, settings);
      this.#connections.set(name, connection);
      this.#callers.adopt(connection);
      const skipped =
        server.enabled === false || server.type === 'in-process'
          ? undefined
          : (options.skip?.(name, server) ??
            // Only a gateway caller has a token to exchange: nothing is shared to connect with.
            (server.type !== 'stdio' && server.auth?.type === 'tokenExchange'
              ? "skipped: token exchange connects per gateway caller, with a token exchanged for the caller's own"
              : undefined));
      if (skipped !== undefined) connection.skip(skipped);
      if (server.tools !== undefined) this.#filters.set(name, compileToolFilter(server.tools));
      const callTimeout =
        callTimeoutMs ??
        optionalDuration(server.callTimeoutMs, `servers.${name}.callTimeoutMs`) ??
        DEFAULT_CALL_TIMEOUT_MS;
      // Servers with the same call timeout share one options object (only the timeout differs).
      const adapterOptions = sharedBy(adapterOptionsByTimeout, callTimeout, () => {
        if (!this.#timerLists.has(callTimeout)) this.#timerLists.set(callTimeout, keepTimerList(callTimeout));
        return {
          callTimeoutMs: callTimeout,
          maxResultChars,
          maxArgumentBytes,
          validator,
          redactor: this.#redactor,
        };
      });
      this.#commonAdapterOptions ??= adapterOptions;
      if (adapterOptions !== this.#commonAdapterOptions) this.#adapterOptions.set(name, adapterOptions);
      return connection;
    };
    this.#callers = new CallerRouting({
      connections: this.#connections,
      connectionOptions,
      store: this.#authorizations.store,
      connectTimeoutMs: (name) =>
        connectTimeoutMs ??
        optionalDuration(
          this.#connections.get(name)?.config.connectTimeoutMs,
          `servers.${name}.connectTimeoutMs`,
        ) ??
        DEFAULT_CONNECT_TIMEOUT_MS,
      hasCatalog: (name) => this.#registry.names({ owner: `mcp:${name}` }).length > 0,
      // A caller's connection to a server removed meanwhile brings nothing back.
      listed: (connection, tools) => {
        if (this.#connections.has(connection.name)) this.#register(connection, tools);
      },
      warn: (message, server) => this.#emit('warning', message, server),
    });
    for (const [name, server] of Object.entries(config.servers)) add(name, server);
    for (const [name, server] of Object.entries(options.inProcessServers ?? {}))
      add(name, { ...server, type: 'in-process' });
    this.#addConnection = add;
    const directory = new ServerDirectory(
      this.#connections,
      (message, server) => this.#emit('warning', message, server),
      optionalDuration(options.requestTimeoutMs, 'requestTimeoutMs'),
      this.#redactor,
      (server, context, options) => this.#callers.route(server, context, options),
      this.pins,
    );
    this.#directory = directory;
    // resources/read and prompts/get do not pass the tool pipeline: the guards screen them here.
    const screen = new ReadScreen(
      () => this.#policies.guards,
      (message, server) => this.#emit('warning', message, server),
    );
    this.resources = new McpResourceService(directory, screen);
    this.prompts = new McpPromptService(directory, screen);
    this.tasks = new McpTaskService(directory);
    this.#unobserveStates = observeServerStates(() => this.#connections.values());
    // Last: a hub refused by a bad option above leaves no middleware in the registry.
    this.#unhearPolicies = policies.onWarning((message) => this.#emit('warning', message));
    this.#policyRemovers = policies.middlewares.map((middleware) => registry.use(middleware));
  }

  /** Connects every enabled server in parallel; resolves when each has connected or failed. */
  async start(signal?: AbortSignal): Promise<void> {
    await Promise.allSettled([...this.#connections.values()].map((connection) => connection.start(signal)));
  }

  /**
   * Makes the configured rate limits cluster-wide through `store` (they survive a reload of
   * the policies); returns the function that makes them local again. Set by the gateway when it
   * joins a cluster.
   */
  shareRateLimits(store: SharedRateLimitStore): () => void {
    return this.#policies.shareRateLimits(store);
  }

  /** Why the `policies.overrides` entry of `server`/`tool` could not be applied, if it could not. */
  overrideProblem(server: string, tool: string): string | undefined {
    return this.#policies.overrideProblem(server, tool);
  }

  /**
   * Replaces the policies this hub was given by those of `policies` (deny, approval rules, rate
   * limits, audit; built by the policies object) from the next call on: the new ones join the
   * registry's pipeline before the old ones leave it, and the old audit log is flushed and
   * closed. `policies.overrides` apply from the next registration of a server's tools (an added
   * or changed server; an unchanged one keeps the tools it has).
   */
  async replacePolicies(policies: McpToolsConfig['policies']): Promise<void> {
    const removers = this.#policyRemovers;
    // The policies object keeps what outlives a reload (a cluster's shared rate limits).
    const retired = this.#policies.replace(policies);
    this.#policyRemovers = this.#policies.middlewares.map((middleware) => this.#registry.use(middleware));
    for (const remove of removers) remove();
    await retired.close();
  }

  /**
   * Connects one more server while the hub runs (a configuration reloaded): its tools are
   * registered once it connects. Rejects `INVALID_ARGUMENTS` for a name already served.
   * A whole configuration's difference is applied by `applyServerChanges`.
   */
  async addServer(name: string, server: ServerConfig, signal?: AbortSignal): Promise<void> {
    if (this.#closing) throw new McpToolsError('CONNECTION_FAILED', 'the hub is closed');
    if (this.#connections.has(name))
      throw new McpToolsError('INVALID_ARGUMENTS', `server "${name}" is already connected`);
    this.#redactor.extend(serverSecrets(server));
    await this.#addConnection(name, server).start(signal);
  }

  /**
   * Stops serving one server: its tools are unregistered first (no new call reaches it), then
   * its connection closes (calls still in flight get an error; a stdio server's process ends).
   */
  async removeServer(name: string): Promise<void> {
    const connection = this.#connections.get(name);
    if (connection === undefined) return;
    this.#connections.delete(name);
    this.#filters.delete(name);
    this.#adapterOptions.delete(name);
    const owner = `mcp:${name}`;
    const removed = this.#registry.unregisterOwner(owner);
    if (removed.length > 0) this.#emit('toolsChanged', name, { added: [], removed, owner });
    await Promise.all([connection.close(), this.#callers.closeServer(name)]);
  }

  servers(): string[] {
    return [...this.#connections.keys()];
  }

  status(): ServerStatus[];
  status(server: string): ServerStatus | undefined;
  status(server?: string): ServerStatus[] | ServerStatus | undefined {
    if (server !== undefined) return this.#connections.get(server)?.status();
    return [...this.#connections.values()].map((connection) => connection.status());
  }

  async refresh(server?: string, options: CallOptions = {}): Promise<void> {
    const targets = server === undefined ? [...this.#connections.values()] : [this.#directory.get(server)];
    const outcomes = await Promise.allSettled(targets.map((connection) => connection.refresh(options)));
    const failure = outcomes.find((outcome) => outcome.status === 'rejected');
    if (server !== undefined && failure?.status === 'rejected') throw failure.reason;
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') this.#emit('warning', `refresh failed: ${String(outcome.reason)}`);
    }
  }

  /**
   * Starts OAuth authorization of `server` (or joins the sign-in under way): resolves with the
   * URL a person must open (`pending`), or `authorized` when a refresh sufficed. When the sign-in
   * completes, the server reconnects.
   */
  async authorize(
    server: string,
    options: { force?: boolean; onAuthorizationUrl?: AuthorizationUrlHandler; context?: CallContext } = {},
  ): Promise<AuthorizationStart> {
    this.#directory.get(server);
    return (
      this.#callers.authorize(server, options.context) ?? this.#authorizations.authorize(server, options)
    );
  }

  /** The URL a sign-in under way for `server` waits on (the calling principal's own, for a per-user server). */
  pendingAuthorization(server: string, context?: CallContext): string | undefined {
    const own = this.#callers.pendingUrl(server, context);
    return own === undefined ? this.#authorizations.pendingUrl(server) : (own ?? undefined);
  }

  /**
   * For a gateway: calls of servers configured to take each caller's own credentials (per-user
   * OAuth, token exchange) go to the calling principal's own connection, and `authorize` and
   * `pendingAuthorization` of such a server answer for that principal. `caller` names the
   * principal of the call in progress (`undefined`: stdio and library callers, who use the
   * shared connection as before). Returns the function that stops it.
   */
  servePerCaller(options: ServePerCallerOptions): () => Promise<void> {
    return this.#callers.serve(options);
  }

  /**
   * Hands the servers' sampling, elicitation and roots requests that no handler given to
   * `loadMcpServers` answers to `router` (a gateway's: the caller whose call caused each)
   * until the returned function is called. Works on connections made before: see
   * `RoutedServerRequests`. `undefined` for a hub loaded with `serverRequests: 'configured'`.
   */
  routeServerRequests(router: McpServerRequestRouter): (() => void) | undefined {
    return this.#serverRequests.route(router);
  }

  /** Opens `caller`'s connections that bring a catalog not listed yet (see `CallerRouting.warm`). */
  warmCaller(caller: Caller): void {
    if (!this.#closing) this.#callers.warm(caller);
  }

  /** Whether the calling principal has signed in to `server` (`undefined`: not a per-caller server). */
  callerSignIn(
    server: string,
    context?: CallContext,
  ): Promise<'authorized' | 'pending' | 'needs_authorization' | undefined> {
    return this.#callers.signInState(server, context);
  }

  /** Servers whose OAuth a person can authorize. */
  oauthServers(): string[] {
    return this.#authorizations.interactiveServers();
  }

  /** Where an exposed tool name routes. */
  toolOrigin(name: string): ToolOrigin | undefined {
    // The registry answers (no map of this hub's own per tool): a tool of one of this hub's
    // servers, registered under that server's owner, carries its server and original name.
    const registered = this.#registry.registered(name);
    const server = registered?.tool.server;
    if (server === undefined || registered!.owner !== `mcp:${server}` || !this.#connections.has(server))
      return undefined;
    return { server, originalName: registered!.tool.originalName! };
  }

  toolRefusal(name: string): { server: string; message: string } | undefined {
    const pins = this.pins;
    if (pins === undefined) return undefined;
    for (const held of pins.quarantined()) {
      const connection = this.#connections.get(held.server);
      if (held.kind !== 'tool' || connection === undefined) continue;
      const exposed = namespacedName(connection.config.prefix ?? held.server, held.name, this.#naming);
      const message =
        exposed === name || `${held.server}/${held.name}` === name
          ? pins.refusal(held.server, 'tool', held.name)
          : undefined;
      if (message !== undefined) return { server: held.server, message };
    }
    return undefined;
  }

  on<E extends keyof McpToolHubEvents>(event: E, listener: McpToolHubEvents[E]): () => void {
    const set = this.#listeners[event] as Set<McpToolHubEvents[E]>;
    set.add(listener);
    // Logs and resource updates are asked of the clients only once someone listens for them.
    if (event === 'notification' && set.size === 1)
      for (const connection of this.#connections.values()) connection.forwardNotifications();
    return () => set.delete(listener);
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #close(): Promise<void> {
    for (const keeper of this.#timerLists.values()) clearInterval(keeper);
    this.#unobserveStates();
    await this.#callers.close();
    await Promise.allSettled([...this.#connections.values()].map((connection) => connection.close()));
    await this.#eras.flush();
    await this.pins?.close();
    for (const remove of this.#policyRemovers) remove();
    this.#unhearPolicies();
    await this.#policies.close();
    for (const name of this.#connections.keys()) {
      const removed = this.#registry.unregisterOwner(`mcp:${name}`);
      if (removed.length > 0) this.#emit('toolsChanged', name, { added: [], removed, owner: `mcp:${name}` });
    }
  }

  #register(connection: McpConnection, definitions: McpToolDefinition[]): void {
    if (this.#closing) return;
    const name = connection.name;
    const owner = `mcp:${name}`;
    const own = new Set(this.#registry.names({ owner }));
    const chosen = new Set<string>();
    const taken = (candidate: string) =>
      chosen.has(candidate) || (this.#registry.has(candidate) && !own.has(candidate));
    const passes = this.#filters.get(name) ?? (() => true);
    const adapterOptions = this.#adapterOptions.get(name) ?? this.#commonAdapterOptions!;
    const prefix = connection.config.prefix ?? name;
    const tools: Tool[] = [];
    const configured = this.#policies.overrides;
    const overrides = Object.hasOwn(configured, name) ? configured[name] : undefined;
    if (overrides) this.#policies.clearOverrideProblems(name);
    for (const definition of definitions) {
      if (!passes(definition.name)) continue;
      const override =
        overrides && Object.hasOwn(overrides, definition.name) ? overrides[definition.name] : undefined;
      if (override) {
        const tool = this.#overriddenTool(connection, definition, override, taken, adapterOptions);
        if (tool) {
          chosen.add(tool.name);
          tools.push(tool);
        }
        continue;
      }
      const base = namespacedName(prefix, definition.name, this.#naming);
      const exposed = uniqueName(
        base,
        `${name}\u0000${definition.name}`,
        taken,
        this.#naming.maxLength ?? 64,
      );
      chosen.add(exposed);
      tools.push(createMcpTool(connection, definition, exposed, adapterOptions));
    }
    const change = this.#registry.replaceOwner(owner, tools, { source: 'mcp', server: name });
    // Fired even when no name changed: descriptions or schemas may have.
    this.#emit('toolsChanged', name, change);
  }

  /**
   * The tool of `definition` as its `policies.overrides` entry shows it, or `undefined` (with a
   * warning naming the field) when the override cannot be applied: a name another tool holds,
   * a fixed argument the tool lacks or whose value does not fit. Such a tool is not served:
   * serving it without its fixed arguments would ignore the policy.
   */
  #overriddenTool(
    connection: McpConnection,
    definition: McpToolDefinition,
    override: ToolOverrideConfig,
    taken: (name: string) => boolean,
    adapterOptions: McpToolAdapterOptions,
  ): Tool | undefined {
    const server = connection.name;
    const where = `policies.overrides.${server}.${definition.name}`;
    const fail = (message: string) => {
      this.#policies.reportOverrideProblem(server, definition.name, message);
      this.#emit('warning', message, server);
      return undefined;
    };
    const exposed =
      override.name ??
      uniqueName(
        namespacedName(connection.config.prefix ?? server, definition.name, this.#naming),
        `${server}\u0000${definition.name}`,
        taken,
        this.#naming.maxLength ?? 64,
      );
    if (override.name !== undefined && taken(override.name))
      return fail(
        `${where}.name: "${override.name}" is already the name of another tool; ${server}/${definition.name} is not served`,
      );
    try {
      return applyToolOverride(
        createMcpTool(connection, definition, exposed, adapterOptions),
        override,
        where,
      );
    } catch (error) {
      return fail(
        `${error instanceof Error ? error.message : String(error)}; ${server}/${definition.name} is not served`,
      );
    }
  }

  #emit<E extends keyof McpToolHubEvents>(event: E, ...args: Parameters<McpToolHubEvents[E]>): void {
    const listeners = this.#listeners[event];
    if (listeners.size === 0) return;
    // Warnings quote upstream text; status rows carry error messages: both leave the library here.
    args = this.#redactor.value(args);
    for (const listener of listeners) {
      try {
        (listener as (...values: Parameters<McpToolHubEvents[E]>) => void)(...args);
      } catch {
        // A listener's failure must not break the hub.
      }
    }
  }
}

/** An optional duration option of `loadMcpServers`, checked and clamped. */
function optionalDuration(value: number | undefined, field: string): number | undefined {
  return value === undefined ? undefined : durationMs(value, field);
}

/** What `map` holds for `key`, made by `make` the first time: one object for every server with that key. */
function sharedBy<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
