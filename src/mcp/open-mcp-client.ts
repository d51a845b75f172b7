import {
  Client,
  type ClientOptions,
  type Implementation,
  type JSONRPCNotification,
  type JSONRPCResponse,
  type MessageExtraInfo,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import type { TransportAuth } from '../auth/transport-auth.js';
import type { ProtocolMode } from '../config/config-types.js';
import { acceptUndeclaredListChanges } from './accept-undeclared-list-changes.js';
import { boxedRootsRequests } from './boxed-roots.js';
import { describeError } from './classify-error.js';
import type { ClientCallbacks } from './client-callbacks.js';
import { createTransport } from './create-transport.js';
import { admitCreatedTasks } from './created-tasks.js';
import { type EraStep, eraSteps, refusedEra } from './era-steps.js';
import type { ProtocolEra, TransportKind } from './hub-types.js';
import type { ConnectionConfig } from './in-process-server.js';
import type { ReusableStdioTransport } from './reusable-stdio-transport.js';
import { ServableResponseStore } from './servable-response-store.js';
import {
  type CallsInFlight,
  clientCapabilities,
  installServerRequestHandlers,
  linkResponsesToCallers,
  type ServerRequestOptions,
} from './server-requests.js';
import { sharedOutputValidator } from './shared-output-validator.js';
import type { SizeLimits } from './size-limited-fetch.js';
import type { StderrTail } from './stderr-tail.js';

/** Everything {@link openMcpClient} needs for one attempt. */
export interface OpenClientParameters {
  server: string;
  config: ConnectionConfig;
  kind: TransportKind;
  clientInfo: Implementation;
  requests: ServerRequestOptions;
  /** The connection's calls in flight, to which the server-request handlers attribute each request. */
  calls: CallsInFlight;
  stderr: StderrTail;
  /** HTTP size limits (stdio has the SDK's own 10 MiB line buffer). */
  limits?: SizeLimits;
  /** Aborts the attempt (connect timeout or hub closing). */
  deadline: AbortSignal;
  timeoutMs: number;
  callbacks: ClientCallbacks;
  /** How the era is chosen (the server's `protocol`, else the global default). */
  mode: ProtocolMode;
  /** The era an earlier connect to this server found: tried first. */
  remembered?: ProtocolEra;
  /** OAuth for an HTTP server. */
  auth?: TransportAuth;
  /** The configuration file the server comes from, which its box never mounts. */
  configFile?: string;
}

/** How long to wait for a half-started connect to settle after giving up on it. */
const SETTLE_MS = 2000;
/** How long a 2025-era HTTP session gets to be terminated on close. */
const TERMINATE_MS = 1000;

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    // One reaction per outcome, no `finally` chain: this runs once per connect attempt.
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Resolves when `promise` settles or after `ms`, whichever comes first; never rejects. */
function settled(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    promise
      .then(
        () => resolve(),
        () => resolve(),
      )
      .finally(() => clearTimeout(timer));
  });
}

/** `true` when an HTTP failure says "no Streamable HTTP endpoint here" (the SSE fallback cue). */
export function isHttpNotFound(error: unknown): boolean {
  if (SdkHttpError.isInstance(error)) return error.status === 404 || error.status === 405;
  return /\b(404|405)\b/.test(describeError(error));
}

/**
 * How long a `server/discover` probe that may fall back to `initialize` waits. The probe runs
 * on the server's one process, so a server still starting answers it when it is up; only a
 * server that never answers an unknown request waits this long before `initialize`.
 */
function probeTimeout(timeoutMs: number): number {
  return Math.max(100, Math.floor(timeoutMs / 2));
}

/** Shared by every client that speaks `initialize`, the SDK's `legacy` mode (the SDK only reads it). */
const NEGOTIATION_2025: ClientOptions['versionNegotiation'] = { mode: 'legacy' };

function negotiation(step: EraStep, timeoutMs: number): ClientOptions['versionNegotiation'] {
  if (step === '2025') return NEGOTIATION_2025;
  if (step === 'auto') return { mode: 'auto', probe: { timeoutMs: probeTimeout(timeoutMs) } };
  return { mode: { pin: '2026-07-28' }, probe: { timeoutMs } };
}

/**
 * An SDK `Client` that knows whom it reports to: its `onerror` and `onclose` are functions
 * shared by every client ({@link reportError}, {@link reportClosed}), never closures per client.
 */
class ReportingClient extends Client {
  readonly callbacks: ClientCallbacks;
  /** Progress notifications handed to the SDK whose handler has not run yet. */
  #progressPending = 0;
  /** Responses that arrived behind such a notification, in their order (none: `undefined`). */
  #heldResponses: JSONRPCResponse[] | undefined;

  constructor(info: Implementation, options: ClientOptions, callbacks: ClientCallbacks) {
    super(info, options);
    this.callbacks = callbacks;
  }

  /**
   * The SDK runs a notification's handler one microtask after it arrives, but settles a
   * response at once, dropping the request's progress handler: a server's last progress
   * notification read together with its result (one stdio read) found no handler and was lost.
   * So a progress notification is counted until its handler ran (the SDK queued that first;
   * this reaction is queued behind it), and a response that arrives meanwhile waits for it.
   */
  protected override _onnotification(raw: JSONRPCNotification, extra?: MessageExtraInfo): void {
    super._onnotification(raw, extra);
    if (raw.method !== 'notifications/progress') return;
    this.#progressPending++;
    queueMicrotask(() => {
      if (--this.#progressPending === 0) this.#releaseResponses();
    });
  }

  /** A response waits while a progress notification read before it is still being routed. */
  protected override _onresponse(response: JSONRPCResponse): void {
    if (this.#progressPending === 0 && this.#heldResponses === undefined) super._onresponse(response);
    else if (this.#heldResponses === undefined) this.#heldResponses = [response];
    else this.#heldResponses.push(response);
  }

  /** Closing settles every request: the held responses first, so that none is lost to the close. */
  protected override _onclose(): void {
    this.#releaseResponses();
    super._onclose();
  }

  #releaseResponses(): void {
    const held = this.#heldResponses;
    this.#heldResponses = undefined;
    for (const response of held ?? []) super._onresponse(response);
  }
}

/** The `onerror` of every {@link ReportingClient} (the SDK calls it as a method of the client). */
function reportError(this: ReportingClient, error: Error): void {
  this.callbacks.clientTransportError(this, describeError(error));
}

/** The `onclose` of every {@link ReportingClient} (the SDK calls it as a method of the client). */
function reportClosed(this: ReportingClient): void {
  this.callbacks.clientClosed(this);
}

/**
 * The 2025-era fallback notification handler of every {@link ReportingClient}, bound to it (the
 * SDK calls it as a plain function): one function shared, bound per client, not a closure.
 */
async function reportListChanges(this: ReportingClient, notification: { method: string }): Promise<void> {
  this.callbacks.clientListChanged(this, notification.method);
}

function createClient(parameters: OpenClientParameters, step: EraStep): Client {
  const { callbacks } = parameters;
  const options: ClientOptions = {
    capabilities: clientCapabilities(parameters.requests),
    versionNegotiation: negotiation(step, parameters.timeoutMs),
    jsonSchemaValidator: sharedOutputValidator,
    responseCacheStore: new ServableResponseStore(),
  };
  // Over 2026-07-28 the SDK needs the `listChanged` configurations at construction: they are
  // what opens `subscriptions/listen`. Over 2025 (`initialize`) a list change is a plain
  // notification: the client's fallback hands every one to the connection, declared or not
  // (one bound function per client instead of the configurations and the SDK's handlers).
  if (step !== '2025') {
    options.listChanged = {
      tools: {
        debounceMs: 50,
        onChanged: (error, tools) => callbacks.clientToolsChanged(client, error, tools),
      },
      resources: {
        debounceMs: 50,
        onChanged: (_error, items) => callbacks.clientCountChanged(client, 'resourceCount', items),
      },
      prompts: {
        debounceMs: 50,
        onChanged: (_error, items) => callbacks.clientCountChanged(client, 'promptCount', items),
      },
    };
  }
  const client = new ReportingClient(parameters.clientInfo, options, callbacks);
  // A boxed server is told only the roots its box shows (boxed-roots.ts).
  installServerRequestHandlers(
    client,
    parameters.server,
    boxedRootsRequests(parameters.server, parameters.config, parameters.requests),
    parameters.calls,
  );
  client.onerror = reportError;
  client.onclose = reportClosed;
  if (step === '2025') client.fallbackNotificationHandler = reportListChanges.bind(client);
  return client;
}

/**
 * Creates the transport and SDK `Client` for one connect attempt and connects it within
 * `deadline`, trying the eras of `eraSteps(mode, kind, remembered)` in turn: the next only
 * when the server refused the last. A stdio child refusing one era is spoken to in the other
 * on the same process; only a child that exited is started again. On failure the client, its
 * transport and any child process are closed before the error is rethrown, so an abandoned
 * attempt never leaves a process behind.
 */
export async function openMcpClient(
  parameters: OpenClientParameters,
): Promise<{ client: Client; transport: Transport }> {
  const { config, kind, deadline, timeoutMs } = parameters;
  const steps = eraSteps(parameters.mode, kind, parameters.remembered);
  let transport: Transport | undefined;
  let refusal: unknown;
  for (let index = 0; ; index++) {
    const step = steps[index]!;
    const reusable = isReusable(transport) && transport.childReusable;
    if (!reusable) {
      transport = await createTransport(
        config,
        kind,
        parameters.stderr,
        parameters.auth,
        parameters.limits,
        parameters.server,
        parameters.configFile,
      );
      // The stdio transport links responses to callers in its own `send`.
      if (isReusable(transport)) transport.batchGatewayCalls(parameters.calls);
      else linkResponsesToCallers(transport);
    }
    const current = transport!;
    const held = isReusable(current) && index < steps.length - 1;
    if (held) current.holdChild(true);
    const client = createClient(parameters, step);
    const connecting = client.connect(current, { signal: deadline, timeout: timeoutMs });
    try {
      await untilAborted(connecting, deadline);
      if (held) current.holdChild(false);
      if (step !== '2025') acceptUndeclaredListChanges(client, parameters.callbacks);
      // A 2026-07-28 upstream's CreateTaskResult (tasks extension) reaches the gateway.
      admitCreatedTasks(client, current);
      return { client, transport: current };
    } catch (error) {
      const next = index < steps.length - 1 && !deadline.aborted && refusedEra(error);
      if (next) {
        refusal ??= error;
        await settled(connecting, SETTLE_MS);
        // A child that refused but still runs is detached and reused; one that exited is not.
        if (!(isReusable(current) && current.childReusable)) {
          await closeQuietly(client, current);
        }
        continue;
      }
      if (isReusable(current)) current.holdChild(false);
      await closeMcpClient(client, current);
      await settled(connecting, SETTLE_MS);
      await current.close().catch(() => undefined);
      // A fallback era the server refused too says less than the first refusal did.
      throw refusal !== undefined && refusedEra(error) ? refusal : error;
    }
  }
}

function isReusable(transport: Transport | undefined): transport is ReusableStdioTransport {
  return transport !== undefined && 'holdChild' in transport;
}

async function closeQuietly(client: Client, transport: Transport): Promise<void> {
  if (isReusable(transport)) transport.holdChild(false);
  await client.close().catch(() => undefined);
  await transport.close().catch(() => undefined);
}

/**
 * Closes a client politely: ends a 2025-era HTTP session (bounded), then closes the transport
 * (`transport` is the client's, or none when it closed already).
 */
export async function closeMcpClient(client: Client, transport: Transport | undefined): Promise<void> {
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
    await settled(transport.terminateSession(), TERMINATE_MS);
  }
  await client.close().catch(() => undefined);
}
