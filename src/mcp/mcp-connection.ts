import type { Client, Implementation, Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import { authRequiredError, findAuthRequired } from '../auth/auth-required-error.js';
import type { TransportAuth } from '../auth/transport-auth.js';
import { gatewayLoopReason } from '../chain/gateway-chain.js';
import type { ProtocolMode } from '../config/config-types.js';
import type { SecretRedactor } from '../config/secret-redactor.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import type { PinGuard } from '../pins/pin-guard.js';
import { observeConnect } from '../telemetry/connect-telemetry.js';
import type { CallContext } from '../tool/call-context.js';
import { classifyError, describeError, errorInfo } from './classify-error.js';
import type { ClientCallbacks } from './client-callbacks.js';
import { type ConnectionDiagnostics, connectError, exitError } from './connection-diagnostics.js';
import { transportKindsFor } from './create-transport.js';
import { type EraMemory, eraKey } from './era-memory.js';
import { forwardNotifications } from './forward-notifications.js';
import type {
  ProtocolEra,
  ServerState,
  ServerStatus,
  TransportKind,
  UpstreamNotification,
} from './hub-types.js';
import type { ConnectionConfig } from './in-process-server.js';
import { isToolListContentFailure, listToolsLeniently } from './list-tools-leniently.js';
import { closeMcpClient, isHttpNotFound, openMcpClient } from './open-mcp-client.js';
import { type ReconnectPolicy, reconnectDelay } from './reconnect-policy.js';
import { type ChangingList, changedListOf, refreshChangedList } from './refresh-changed-list.js';
import { screenToolDefinitions } from './screen-tool-definitions.js';
import { clientEra, sdkEraOf } from './sdk-era.js';
import { CallsInFlight, type ServerRequestOptions } from './server-requests.js';
import type { SizeLimits } from './size-limited-fetch.js';
import { StderrTail } from './stderr-tail.js';

/** As the SDK's own `listChanged` handling is configured (a burst of changes costs one re-list). */
const LIST_CHANGE_DEBOUNCE_MS = 50;

/** What a connection tells its hub. */
export interface ConnectionListeners {
  /** Connected (first time or again), with the server's tools (a connection does not keep them). */
  connected(connection: McpConnection, tools: McpToolDefinition[]): void;
  /** The server's tool list changed while connected (or was listed again). */
  toolsChanged(connection: McpConnection, tools: McpToolDefinition[]): void;
  /** State, counts or error changed. */
  stateChanged(connection: McpConnection): void;
  warning(message: string, connection: McpConnection): void;
  /** A notification a gateway forwards (logs, resource updates, resource/prompt list changes). */
  notification(connection: McpConnection, notification: UpstreamNotification): void;
  /** `true` once someone listens for logs and resource updates (see {@link McpConnection.forwardNotifications}). */
  wantsNotifications(): boolean;
}

/** Settings of {@link McpConnection}s: one object, shared by every connection of a hub. */
export interface McpConnectionOptions {
  clientInfo: Implementation;
  reconnect: ReconnectPolicy;
  requests: ServerRequestOptions;
  listeners: ConnectionListeners;
  /** The `protocol` of a server that sets none. Default `initialize`. */
  protocol?: ProtocolMode;
  /** Where the era of each server is remembered between connects and runs. */
  eras?: EraMemory;
  /** Hides configured secrets in every error and message this connection produces. */
  redactor: SecretRedactor;
  /** HTTP size limits. */
  limits?: SizeLimits;
  /** Holds back tool definitions that differ from their pins, before anything else reads them. */
  pins?: PinGuard;
  /** The configuration file the servers come from: a box never mounts it (protected-paths.ts). */
  configFile?: string;
}

/** Settings of one server's {@link McpConnection}. */
export interface McpServerSettings {
  connectTimeoutMs: number;
  /** OAuth for an HTTP server. */
  auth?: TransportAuth;
}

/** What a connection keeps while it fails: made by the first failure, dropped by the next connect. */
interface Failure {
  /** Why the last connect failed, or the connection was lost. */
  error: McpToolsError | undefined;
  /** Reconnect attempts since the last successful connect. */
  attempts: number;
  /** The reconnect scheduled, if one is, and when it fires (epoch ms). */
  retry: NodeJS.Timeout | undefined;
  retryAt: number | undefined;
}

/**
 * One MCP server: the SDK `Client` and transport, the negotiated era, the counts of its lists, and the
 * reconnect loop with capped exponential backoff. A failure never escapes as a throw from
 * `start()`: it lands in `state` and `lastError`, and a retry is scheduled.
 */
export class McpConnection implements ClientCallbacks {
  readonly name: string;
  readonly config: ConnectionConfig;
  state: ServerState;
  /** The connected SDK client (its transport is `client.transport`); `undefined` unless `state` is `connected`. */
  client: Client | undefined;
  /**
   * Where a call of this server's tools goes instead of this connection, when set: the calling
   * principal's own connection (per-user OAuth, token exchange), or `undefined` to call here.
   */
  route?: (context: CallContext | undefined) => Promise<McpConnection> | undefined;
  /** How many tools the server listed last (the tools go to the listeners, see {@link ConnectionListeners}). */
  toolCount = 0;
  transportKind: TransportKind | undefined;
  protocolVersion: string | undefined;
  /** The negotiated era (`2025` or `2026-07-28`): telemetry's `mcptools.era` label. */
  protocolEra: ProtocolEra | undefined;
  /** The SDK's own object (status rows copy its name and version). */
  serverInfo: Implementation | undefined;
  resourceCount = 0;
  promptCount = 0;
  /** The calls in flight on this connection (every client it connects), for server→client requests to name theirs. */
  readonly calls = new CallsInFlight();

  readonly #options: McpConnectionOptions;
  /** This server's timeout and OAuth (one object shared by the servers that have the same). */
  readonly #server: McpServerSettings;
  /** The stderr tail of the current attempt (made by the first). */
  #stderr: StderrTail | undefined;
  /** The last transport error of the current attempt. */
  #transportError: string | undefined;
  #closed = false;
  /** The last failure and the reconnect it scheduled (none while all is well). */
  #failure: Failure | undefined;
  /** The connect attempt in flight: settles when it ends (never rejects), and aborts it. */
  #attempt: { done: Promise<void>; abort: AbortController } | undefined;
  /** The era the last connect found; the next connect starts in it. */
  #era: ProtocolEra | undefined;
  /** Clients closing in the background (made by the first one: most connections never have any). */
  #closings: Set<Promise<void>> | undefined;
  /** The debounce timer of each list whose change was announced (made by the first change). */
  #listTimers: Partial<Record<ChangingList, NodeJS.Timeout | undefined>> | undefined;
  constructor(
    name: string,
    config: ConnectionConfig,
    options: McpConnectionOptions,
    server: McpServerSettings,
  ) {
    this.name = name;
    this.config = config;
    this.#options = options;
    this.#server = server;
    this.state = config.enabled === false ? 'disabled' : 'disconnected';
  }

  /** PID of the stdio child while connected (read from the transport: not kept). */
  get pid(): number | undefined {
    const pid = (this.client?.transport as { pid?: number | null } | undefined)?.pid;
    return typeof pid === 'number' ? pid : undefined;
  }

  /** Why the last connect failed, or the connection was lost; `undefined` once connected again. */
  get lastError(): McpToolsError | undefined {
    return this.#failure?.error;
  }

  /** Reconnect attempts since the last successful connect. */
  get reconnectAttempts(): number {
    return this.#failure?.attempts ?? 0;
  }

  /** When the scheduled reconnect fires (epoch ms), if one is scheduled. */
  get nextRetryAt(): number | undefined {
    return this.#failure?.retryAt;
  }

  /** Connects once (bounded by the connect timeout); on failure records why and schedules a retry. */
  async start(signal?: AbortSignal): Promise<void> {
    if (this.#inactive) return;
    this.#setState('connecting');
    await this.#runAttempt(signal);
  }

  /** The error a call to this server gets while it is not connected. */
  unavailableError(): McpToolsError {
    if (this.state === 'auth_required' && this.lastError) return this.lastError;
    if (this.state === 'skipped' && this.lastError)
      return new McpToolsError('CONNECTION_FAILED', `server "${this.name}" was ${this.lastError.message}`, {
        recoverable: false,
        data: { server: this.name, state: this.state },
      });
    const scheduled = this.#failure?.retry !== undefined;
    const retrying = scheduled || this.#attempt !== undefined;
    const attempt = this.reconnectAttempts + (scheduled ? 1 : 0);
    const state = this.state === 'error' ? 'unavailable' : this.state;
    let message = `server "${this.name}" is ${state}`;
    if (retrying && this.#options.reconnect.enabled)
      message += ` (reconnecting, attempt ${Math.max(1, attempt)})`;
    if (this.lastError) message += `: ${this.lastError.message}`;
    return new McpToolsError(
      this.state === 'disabled' ? 'CONNECTION_FAILED' : 'SERVER_DISCONNECTED',
      message,
      {
        data: { server: this.name, state: this.state, reconnectAttempts: this.reconnectAttempts },
      },
    );
  }

  /**
   * The server needs a person to authorize it (no token, or a refresh token refused): stop
   * retrying, drop the client, and stay `auth_required` until `refresh()` after authorization.
   */
  requireAuthorization(error: McpToolsError): void {
    if (this.#inactive) return;
    this.#cancelTimer();
    this.#failed(error);
    const client = this.client;
    if (client) {
      this.client = undefined;
      this.#closeInBackground(client);
    }
    this.#setState('auth_required', false);
    this.#options.listeners.stateChanged(this);
  }

  /** Marks the connection lost after a call failed at the transport (HTTP servers never "exit"). */
  markBroken(error: McpToolsError, client: Client): void {
    if (this.client !== client || this.#closed) return;
    this.#lost(client, error);
  }

  /** Re-lists tools and counts when connected; otherwise retries the connection now. */
  async refresh(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<void> {
    if (this.#inactive) return;
    const client = this.client;
    if (client === undefined) {
      this.#cancelTimer();
      if (this.#attempt) return this.#attempt.done;
      return this.#runAttempt(options.signal);
    }
    const timeout = options.timeoutMs ?? this.#server.connectTimeoutMs;
    let tools: McpToolDefinition[] | undefined;
    try {
      tools = await this.#listAll(
        client,
        { timeout, ...(options.signal ? { signal: options.signal } : {}) },
        'refresh',
      );
    } catch (error) {
      const classified = this.#options.redactor.error(
        classifyError(error, { signal: options.signal, timeoutMs: timeout }),
      );
      if (classified.code === 'SERVER_DISCONNECTED' || classified.code === 'CONNECTION_FAILED') {
        this.markBroken(classified, client);
      }
      throw classified;
    }
    if (this.client !== client || tools === undefined) return;
    this.#options.listeners.toolsChanged(this, tools);
    this.#options.listeners.stateChanged(this);
  }

  /** Closes the client (and its child process), cancels retries, awaits any attempt in flight. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#cancelTimer();
    if (this.#listTimers) for (const timer of Object.values(this.#listTimers)) clearTimeout(timer);
    const attempt = this.#attempt;
    attempt?.abort.abort(new McpToolsError('ABORTED', 'the hub is closing'));
    if (attempt) await attempt.done;
    const client = this.client;
    this.client = undefined;
    if (client) await closeMcpClient(client, client.transport);
    if (this.#closings) await Promise.all(this.#closings);
    this.#stderr?.close();
    if (this.state !== 'disabled' && this.state !== 'skipped') this.state = 'disconnected';
  }

  /**
   * Never connects this server again: it is mcptools itself, or a gateway loop. `reason` starts
   * "skipped:" and becomes `lastError`; the state is `skipped`; a client is let go. Reported once.
   */
  skip(reason: string): void {
    if (this.#closed || this.state === 'skipped') return;
    this.#cancelTimer();
    const failure = this.#failureRecord();
    failure.error = new McpToolsError('CONNECTION_FAILED', reason, {
      recoverable: false,
      data: { server: this.name, skipped: true },
    });
    const client = this.client;
    if (client) {
      this.client = undefined;
      this.#closeInBackground(client);
    }
    this.#setState('skipped');
  }

  /** Disabled, skipped or closed: nothing starts it. */
  get #inactive(): boolean {
    return this.state === 'disabled' || this.state === 'skipped' || this.#closed;
  }

  /** The status row of this server. */
  status(): ServerStatus {
    return {
      name: this.name,
      state: this.state,
      ...(this.transportKind === undefined ? {} : { transport: this.transportKind }),
      ...(this.protocolVersion === undefined ? {} : { protocolVersion: this.protocolVersion }),
      ...(this.protocolEra === undefined
        ? {}
        : { protocolEra: this.protocolEra, era: sdkEraOf(this.protocolEra) }),
      ...(this.serverInfo === undefined
        ? {}
        : { serverInfo: { name: this.serverInfo.name, version: this.serverInfo.version } }),
      toolCount: this.toolCount,
      resourceCount: this.resourceCount,
      promptCount: this.promptCount,
      ...(this.lastError === undefined
        ? {}
        : {
            lastError: errorInfo(this.lastError),
          }),
      reconnectAttempts: this.reconnectAttempts,
      ...(this.nextRetryAt === undefined ? {} : { nextRetryAt: this.nextRetryAt }),
      ...(this.pid === undefined ? {} : { pid: this.pid }),
    };
  }

  /**
   * Starts handing the server's logs and resource updates to the listeners, on the client
   * connected now; a client connected later gets them when `listeners.wantsNotifications()`.
   */
  forwardNotifications(): void {
    if (this.client) forwardNotifications(this.client, this);
  }

  /** @internal The SDK client's tool list changed (or re-listing it failed). */
  clientToolsChanged(client: Client, error: Error | null, tools: McpToolDefinition[] | null): void {
    this.#onToolsListChanged(client, error, tools);
  }

  /** @internal The client's resource or prompt list changed. */
  clientCountChanged(client: Client, field: 'resourceCount' | 'promptCount', items: unknown[] | null): void {
    this.#onCount(client, field, items);
  }

  /** @internal The client's transport closed. */
  clientClosed(client: Client): void {
    if (this.client === client) this.#lost(client, exitError(this.#diagnostics()));
  }

  /** @internal A notification no handler of the client took: a list change is debounced, then re-listed. */
  clientListChanged(client: Client, method: string): void {
    const list = changedListOf(method);
    // A list the server has no capability for was never listed (see `#listAll`).
    if (this.client !== client || list === undefined || !client.getServerCapabilities()?.[list]) return;
    // Made by the first change: most connections never see one.
    this.#listTimers ??= {};
    const timers = this.#listTimers;
    if (timers[list] !== undefined) clearTimeout(timers[list]);
    const timer = setTimeout(() => {
      timers[list] = undefined;
      void refreshChangedList(client, list, this);
    }, LIST_CHANGE_DEBOUNCE_MS);
    timer.unref();
    timers[list] = timer;
  }

  /** @internal A log message or resource update from the server. */
  clientNotification(client: Client, notification: UpstreamNotification): void {
    if (this.client === client) this.#options.listeners.notification(this, notification);
  }

  /** @internal The client's transport reported an error. */
  clientTransportError(client: Client, message: string): void {
    if (this.client === client || this.client === undefined) this.#transportError = message;
  }

  async #runAttempt(signal?: AbortSignal): Promise<void> {
    const abort = new AbortController();
    // One controller for closing and for the connect timeout (aborted with the `TimeoutError`
    // `AbortSignal.timeout` gives); combined with the caller's signal only when there is one.
    const timeoutMs = this.#server.connectTimeoutMs;
    const timer = setTimeout(
      () => abort.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      timeoutMs,
    );
    timer.unref();
    const attempts = this.#failure?.attempts ?? 0;
    const attempt = observeConnect(this, attempts, attempts > 0 || this.transportKind !== undefined, () =>
      this.#connectAny(signal ? AbortSignal.any([signal, abort.signal]) : abort.signal, timeoutMs),
    ).finally(() => clearTimeout(timer));
    const current = {
      done: attempt.then(
        () => undefined,
        () => undefined,
      ),
      abort,
    };
    this.#attempt = current;
    try {
      const tools = await attempt;
      // A reconnect still scheduled (none should be) keeps the record that holds its timer.
      const failure = this.#failure;
      if (failure?.retry === undefined) this.#failure = undefined;
      else {
        failure.error = undefined;
        failure.attempts = 0;
      }
      this.#setState('connected', false);
      this.#options.listeners.connected(this, tools);
      this.#options.listeners.stateChanged(this);
    } catch (error) {
      if (this.#closed) return;
      const authRequired =
        findAuthRequired(error) ??
        (this.#server.auth?.authorization?.pending
          ? authRequiredError(this.name, 'waiting for the sign-in to complete', error)
          : undefined);
      if (authRequired) {
        this.requireAuthorization(authRequired);
        return;
      }
      const classified = this.#options.redactor.error(classifyError(error, { operation: 'connect' }));
      const loop = gatewayLoopReason(classified);
      if (loop !== undefined) {
        this.skip(`skipped: ${loop}`);
        return;
      }
      this.#failed(classified);
      // `transportKind` is set by the first successful connect.
      this.#setState(this.transportKind !== undefined ? 'disconnected' : 'error', false);
      this.#scheduleReconnect();
      this.#options.listeners.stateChanged(this);
    } finally {
      if (this.#attempt === current) this.#attempt = undefined;
    }
  }

  /** Connects within `deadline` (the hub closing, the caller's signal or the connect timeout); resolves the tools. */
  async #connectAny(deadline: AbortSignal, timeoutMs: number): Promise<McpToolDefinition[]> {
    const kinds =
      this.transportKind && this.config.type === 'http'
        ? [this.transportKind]
        : transportKindsFor(this.config);
    // Every kind but the last falls through to the next only on "no such endpoint".
    for (let index = 0; ; index++) {
      try {
        return await this.#open(kinds[index]!, deadline, timeoutMs);
      } catch (error) {
        const last = index === kinds.length - 1;
        if (!last && !deadline.aborted && isHttpNotFound(error)) continue;
        throw connectError(this.#diagnostics(), error, deadline, timeoutMs);
      }
    }
  }

  async #open(kind: TransportKind, deadline: AbortSignal, timeoutMs: number): Promise<McpToolDefinition[]> {
    // A fresh stderr tail and no transport error; the last attempt's tail is closed (its child is gone or going).
    this.#stderr?.close();
    const stderr = new StderrTail();
    this.#stderr = stderr;
    this.#transportError = undefined;
    if (this.#era === undefined) {
      const memory = this.#eraMemory();
      this.#era = await memory?.eras.get(memory.key);
    }
    const remembered = this.#era;
    const { client, transport } = await openMcpClient({
      server: this.name,
      config: this.config,
      kind,
      clientInfo: this.#options.clientInfo,
      requests: this.#options.requests,
      calls: this.calls,
      stderr,
      deadline,
      timeoutMs,
      callbacks: this,
      ...(this.#options.limits === undefined ? {} : { limits: this.#options.limits }),
      mode: this.#mode,
      ...(remembered === undefined ? {} : { remembered }),
      ...(this.#server.auth === undefined ? {} : { auth: this.#server.auth }),
      ...(this.#options.configFile === undefined ? {} : { configFile: this.#options.configFile }),
    }).catch((error: unknown) => {
      this.#forgetEra();
      throw error;
    });
    let tools: McpToolDefinition[];
    try {
      tools = (await this.#listAll(client, { signal: deadline, timeout: timeoutMs }, 'connect'))!;
    } catch (error) {
      this.#forgetEra();
      await closeMcpClient(client, transport);
      throw error;
    }
    this.client = client;
    if (this.#options.listeners.wantsNotifications()) forwardNotifications(client, this);
    this.transportKind = kind;
    this.calls.perRequestStreams = kind === 'streamable-http' || kind === 'sse';
    this.protocolVersion = client.getNegotiatedProtocolVersion();
    this.protocolEra = clientEra(client);
    this.#era = this.protocolEra;
    if (this.protocolEra !== undefined) {
      const memory = this.#eraMemory();
      memory?.eras.set(memory.key, this.protocolEra);
    }
    this.serverInfo = client.getServerVersion();
    // 2026-era HTTP has no connection to lose: a dropped subscription stream is the outage signal.
    void client.autoOpenedSubscription?.closed.then((reason) => {
      if (reason === 'remote') this.markBroken(exitError(this.#diagnostics()), client);
    });
    return tools;
  }

  /** What this server left behind, for an error message (built when one is needed). */
  #diagnostics(): ConnectionDiagnostics {
    return {
      server: this.name,
      config: this.config,
      redactor: this.#options.redactor,
      stderr: this.#stderr,
      transportError: this.#transportError,
    };
  }

  /** How the era is chosen: the server's `protocol`, else the hub's (worked out when needed, not kept). */
  get #mode(): ProtocolMode {
    return this.config.protocol ?? this.#options.protocol ?? '2025-first';
  }

  /**
   * The era memory and this server's key in it (a hash of its command line or URL: kept by no
   * one); none for a server in this process, which has neither to be known by between runs.
   */
  #eraMemory(): { eras: EraMemory; key: string } | undefined {
    const eras = this.#options.eras;
    if (eras === undefined || this.config.type === 'in-process') return undefined;
    return { eras, key: eraKey(this.config, this.#mode) };
  }

  /** The server may have changed era since the last connect: the next attempt negotiates afresh. */
  #forgetEra(): void {
    if (this.#era === undefined) return;
    this.#era = undefined;
    const memory = this.#eraMemory();
    memory?.eras.forget(memory.key);
  }

  /** Lists tools and counts resources and prompts; resolves the tools, or `undefined` when `client` went stale meanwhile. */
  async #listAll(
    client: Client,
    options: { signal?: AbortSignal; timeout: number },
    reason: 'connect' | 'refresh',
  ): Promise<McpToolDefinition[] | undefined> {
    const capabilities = client.getServerCapabilities() ?? {};
    const requestOptions = { ...options, cacheMode: 'refresh' as const };
    const counts = Promise.all([
      capabilities.resources
        ? client.listResources(undefined, requestOptions).then(
            (result) => result.resources.length,
            (error: unknown) => this.#countFailed('resources', error),
          )
        : 0,
      capabilities.prompts
        ? client.listPrompts(undefined, requestOptions).then(
            (result) => result.prompts.length,
            (error: unknown) => this.#countFailed('prompts', error),
          )
        : 0,
    ]);
    const tools = capabilities.tools ? await this.#listTools(client, requestOptions) : [];
    const [resourceCount, promptCount] = await counts;
    if (reason === 'refresh' && this.client !== client) return undefined;
    this.toolCount = tools.length;
    this.resourceCount = resourceCount;
    this.promptCount = promptCount;
    return tools;
  }

  /** The server's tools, each screened on its own so that one hostile definition costs only itself. */
  async #listTools(client: Client, options: { signal?: AbortSignal; timeout: number }) {
    let definitions: unknown[];
    try {
      definitions = (await client.listTools(undefined, { ...options, cacheMode: 'refresh' })).tools;
    } catch (error) {
      if (!isToolListContentFailure(error)) throw error;
      definitions = await listToolsLeniently(client, options);
    }
    // Pins see the definitions as the server sent them, before the size screen trims any.
    if (this.#options.pins) definitions = this.#options.pins.screen(this.name, 'tool', definitions);
    const { tools, warnings } = screenToolDefinitions(definitions, this.name);
    for (const warning of warnings) this.#options.listeners.warning(warning, this);
    return tools;
  }

  #countFailed(what: string, error: unknown): number {
    this.#options.listeners.warning(
      `listing ${what} of "${this.name}" failed: ${this.#options.redactor.text(describeError(error))}`,
      this,
    );
    return 0;
  }

  #onToolsListChanged(client: Client, error: Error | null, tools: McpToolDefinition[] | null): void {
    if (this.client !== client) return;
    if (error && isToolListContentFailure(error)) {
      const timeout = this.#server.connectTimeoutMs;
      listToolsLeniently(client, { timeout }).then(
        (definitions) => this.#onToolsListChanged(client, null, definitions as McpToolDefinition[]),
        // Wrapped so that a second content failure cannot loop back here.
        (failure: unknown) => this.#onToolsListChanged(client, new Error(describeError(failure)), null),
      );
      return;
    }
    if (error || !tools) {
      this.#options.listeners.warning(
        `re-listing tools of "${this.name}" failed: ${this.#options.redactor.text(describeError(error))}`,
        this,
      );
      return;
    }
    const pinned = this.#options.pins ? this.#options.pins.screen(this.name, 'tool', tools) : tools;
    const screened = screenToolDefinitions(pinned, this.name);
    for (const warning of screened.warnings) this.#options.listeners.warning(warning, this);
    this.toolCount = screened.tools.length;
    this.#options.listeners.toolsChanged(this, screened.tools);
    this.#options.listeners.stateChanged(this);
  }

  #onCount(client: Client, field: 'resourceCount' | 'promptCount', items: unknown[] | null): void {
    if (this.client !== client || !items) return;
    this[field] = items.length;
    this.#options.listeners.stateChanged(this);
    this.#options.listeners.notification(this, {
      method:
        field === 'resourceCount'
          ? 'notifications/resources/list_changed'
          : 'notifications/prompts/list_changed',
    });
  }

  #lost(client: Client, error: McpToolsError): void {
    const loop = gatewayLoopReason(error);
    if (loop !== undefined) {
      this.skip(`skipped: ${loop}`);
      return;
    }
    this.client = undefined;
    this.#failed(this.#options.redactor.error(error));
    this.#setState('disconnected', false);
    this.#scheduleReconnect();
    this.#options.listeners.stateChanged(this);
    this.#closeInBackground(client);
  }

  /** Closes a client that is no longer used without waiting; `close()` still waits for it. */
  #closeInBackground(client: Client): void {
    const closing = client.close().catch(() => undefined);
    this.#closings ??= new Set();
    const closings = this.#closings;
    closings.add(closing);
    void closing.finally(() => closings.delete(closing));
  }

  #scheduleReconnect(): void {
    if (this.#closed || !this.#options.reconnect.enabled || this.#failure?.retry !== undefined) return;
    const failure = this.#failureRecord();
    const delay = reconnectDelay(this.#options.reconnect, failure.attempts + 1);
    failure.retry = setTimeout(() => {
      failure.retry = undefined;
      failure.retryAt = undefined;
      failure.attempts++;
      void this.#runAttempt();
    }, delay);
    failure.retry.unref();
    failure.retryAt = Date.now() + delay;
  }

  /** The failure record, made by the first failure. */
  #failureRecord(): Failure {
    this.#failure ??= { error: undefined, attempts: 0, retry: undefined, retryAt: undefined };
    return this.#failure;
  }

  /** Records `error` as the last failure. */
  #failed(error: McpToolsError): void {
    this.#failureRecord().error = error;
  }

  #cancelTimer(): void {
    const failure = this.#failure;
    if (failure?.retry === undefined) return;
    clearTimeout(failure.retry);
    failure.retry = undefined;
    failure.retryAt = undefined;
  }

  #setState(state: ServerState, notify = true): void {
    this.state = state;
    if (notify) this.#options.listeners.stateChanged(this);
  }
}
