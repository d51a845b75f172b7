import type { Client, RequestOptions } from '@modelcontextprotocol/client';
import { durationMs } from '../config/duration.js';
import type { PinnedKind } from '../config/pins-config.js';
import { SecretRedactor } from '../config/secret-redactor.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import type { PinGuard } from '../pins/pin-guard.js';
import { observeUpstreamRequest } from '../telemetry/upstream-request-telemetry.js';
import type { CallContext } from '../tool/call-context.js';
import { type CallerRequestParts, type CallerResult, sendForCaller } from './caller-request.js';
import { classifyError, type ErrorContext, errorInfo } from './classify-error.js';
import type { CallOptions, MultiServerList, ServerError } from './hub-types.js';
import type { McpConnection } from './mcp-connection.js';
import type { CallsInFlight } from './server-requests.js';

/**
 * The hub's routing decision for a request to `server` made for the call `context`: `undefined`
 * when the shared connection serves it, else the connection that does (or its refusal).
 */
export type RouteRequest = (
  server: string,
  context: CallContext | undefined,
  options: { signIn: boolean },
) => Promise<McpConnection> | undefined;

/** Default timeout of resource and prompt requests, in ms. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * The hub's servers as the resource and prompt services see them: lookup by name with a
 * clear error for unknown names, and the hub's warning channel.
 */
export class ServerDirectory {
  readonly #connections: Map<string, McpConnection>;
  readonly #warn: (message: string, server?: string) => void;
  readonly #defaultTimeoutMs: number;
  readonly #redactor: SecretRedactor;
  readonly #route: RouteRequest;
  readonly #pins: PinGuard | undefined;

  /** `route` is the hub's one routing decision: which connection serves a request for a call (see {@link RouteRequest}). */
  constructor(
    connections: Map<string, McpConnection>,
    warn: (message: string, server?: string) => void,
    defaultTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
    redactor = new SecretRedactor([]),
    route: RouteRequest = () => undefined,
    pins?: PinGuard,
  ) {
    this.#route = route;
    this.#pins = pins;
    this.#connections = connections;
    this.#warn = warn;
    this.#defaultTimeoutMs = defaultTimeoutMs;
    this.#redactor = redactor;
  }

  /** The connection named `server`; throws `CONNECTION_FAILED` naming the known servers otherwise. */
  get(server: string): McpConnection {
    const connection = this.#connections.get(server);
    if (connection) return connection;
    const known = [...this.#connections.keys()];
    throw new McpToolsError(
      'CONNECTION_FAILED',
      `unknown server "${server}"; known servers: ${known.length > 0 ? known.join(', ') : '(none)'}`,
      { data: { server, known }, recoverable: false },
    );
  }

  /**
   * The connection serving a request to `server` for the call `context`: the caller's own for a
   * server that takes each caller's credentials (or the refusal, when they have none), else the
   * shared one. `signIn` starts the caller's sign-in when they have none (a call does; a list
   * never does).
   */
  async connection(
    server: string,
    context: CallContext | undefined,
    options: { signIn?: boolean } = {},
  ): Promise<McpConnection> {
    const shared = this.get(server);
    const routed = this.#route(server, context, { signIn: options.signIn === true });
    return routed === undefined ? shared : await routed;
  }

  /** The connected client serving `server` for `context` (see {@link connection}), or throws `SERVER_DISCONNECTED` (or the refusal). */
  async client(
    server: string,
    context: CallContext | undefined,
    options: { signIn?: boolean } = {},
  ): Promise<Client> {
    return (await this.connected(server, context, options)).client;
  }

  /** The same, with the calls in flight of the connection the client belongs to (what `sendForCaller` takes). */
  async connected(
    server: string,
    context: CallContext | undefined,
    options: { signIn?: boolean } = {},
  ): Promise<{ client: Client; calls: CallsInFlight }> {
    const connection = await this.connection(server, context, options);
    if (connection.client === undefined) throw connection.unavailableError();
    return { client: connection.client, calls: connection.calls };
  }

  /** Whether `client` is `server`'s shared connection's (not a caller's own): what it lists is the server's. */
  isShared(server: string, client: Client): boolean {
    return this.#connections.get(server)?.client === client;
  }

  /** The prompts or resource templates of `server` that its pins let through (all, without pins). */
  pinned<T>(server: string, kind: PinnedKind, definitions: readonly T[]): T[] {
    return this.#pins ? this.#pins.screen(server, kind, definitions) : [...definitions];
  }

  /** Whether the pins hold back definitions of `kind` of `server` that differ from theirs. */
  pinsEnforce(server: string, kind: PinnedKind): boolean {
    return this.#pins?.enforces(server, kind) ?? false;
  }

  /** The resource templates of `server` waiting for approval under its pins, with their URI templates. */
  pendingTemplates(server: string): { name: string; uriTemplate: string }[] {
    return this.#pins?.pendingTemplates(server) ?? [];
  }

  /** Throws `PERMISSION_DENIED` when the prompt or template `name` of `server` is held back by its pins. */
  checkPinned(server: string, kind: PinnedKind, name: string): void {
    const refusal = this.#pins?.refusal(server, kind, name);
    if (refusal !== undefined)
      throw new McpToolsError('PERMISSION_DENIED', refusal, { data: { server, name, quarantined: true } });
  }

  /** Every server that is enabled (and not skipped as mcptools itself). */
  enabled(): McpConnection[] {
    return [...this.#connections.values()].filter(
      (connection) => connection.state !== 'disabled' && connection.state !== 'skipped',
    );
  }

  /** Emits a `warning` event from the hub. */
  warn(message: string, server?: string): void {
    this.#warn(message, server);
  }

  /** SDK request options from {@link CallOptions}. */
  requestOptions(options: CallOptions = {}): { timeout: number; signal?: AbortSignal } {
    const timeout =
      options.timeoutMs === undefined ? this.#defaultTimeoutMs : durationMs(options.timeoutMs, 'timeoutMs');
    return options.signal ? { timeout, signal: options.signal } : { timeout };
  }

  /**
   * Sends one request through `client` with the timeout and signal of `options`; a failure is
   * classified once into a typed `McpToolsError` naming the server, and a dead connection is
   * marked lost so that the reconnect loop takes over.
   */
  async request<T>(
    server: string,
    client: Client,
    options: CallOptions | undefined,
    send: (requestOptions: { timeout: number; signal?: AbortSignal }) => Promise<T>,
    context: { operation?: ErrorContext['operation']; uri?: string; method?: string; prompt?: string } = {},
  ): Promise<T> {
    const requestOptions = this.requestOptions(options);
    try {
      if (context.method === undefined) return await send(requestOptions);
      // Traced and timed (a no-op without an OpenTelemetry SDK); the URI is never recorded.
      return await observeUpstreamRequest(
        this.get(server),
        context.method,
        context.prompt === undefined ? {} : { 'gen_ai.prompt.name': context.prompt },
        () => send(requestOptions),
      );
    } catch (error) {
      const classified = classifyError(error, {
        operation: context.operation ?? 'request',
        signal: options?.signal,
        timeoutMs: requestOptions.timeout,
      });
      if (classified.code === 'SERVER_DISCONNECTED' || classified.code === 'CONNECTION_FAILED') {
        this.get(server).markBroken(classified, client);
      }
      throw this.#redactor.error(
        new McpToolsError(classified.code, classified.message, {
          cause: classified.cause ?? error,
          data: { ...classified.data, server, ...(context.uri === undefined ? {} : { uri: context.uri }) },
          recoverable: classified.recoverable,
        }),
      );
    }
  }

  /**
   * {@link request} on behalf of the caller of `options.context` (see {@link sendForCaller}): a
   * resource read or prompt get for `name` (its URI or prompt name), in flight on the connection
   * `connected` for the caller, its `_meta` the caller's, its 2026-07-28 `input_required`
   * relayed. `send` gets the caller's params to merge and the SDK request options.
   */
  requestForCaller<T>(
    server: string,
    connected: { client: Client; calls: CallsInFlight },
    name: string,
    options: CallOptions | undefined,
    send: (params: CallerRequestParts['params'], requestOptions: RequestOptions) => Promise<T>,
    context: { operation?: ErrorContext['operation']; uri?: string; method?: string; prompt?: string },
  ): Promise<CallerResult<T>> {
    const { client, calls } = connected;
    return this.request(
      server,
      client,
      options,
      (requestOptions) =>
        sendForCaller(
          client,
          calls,
          server,
          name,
          options?.context,
          ({ params, allowInputRequired }) =>
            send(params, allowInputRequired ? { ...requestOptions, allowInputRequired } : requestOptions),
          { capabilities: false },
        ),
      context,
    );
  }

  /**
   * Runs `list` on every enabled server in parallel, each through the client that serves
   * `context` (see {@link client}); a failure (a refusal included) lands in `errors`, never throws.
   */
  async gather<T>(
    list: (server: string, client: Client) => Promise<T[]>,
    context: CallContext | undefined,
  ): Promise<MultiServerList<T>> {
    const servers = this.enabled();
    const outcomes = await Promise.allSettled(
      servers.map(async (connection) => list(connection.name, await this.client(connection.name, context))),
    );
    const items: T[] = [];
    const errors: ServerError[] = [];
    outcomes.forEach((outcome, index) => {
      const server = servers[index]!.name;
      if (outcome.status === 'fulfilled') items.push(...outcome.value);
      else {
        const info = errorInfo(outcome.reason);
        errors.push({ server, error: { ...info, message: this.#redactor.text(info.message) } });
      }
    });
    return { items, errors };
  }
}
