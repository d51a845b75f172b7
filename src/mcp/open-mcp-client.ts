import {
  Client,
  type Implementation,
  type Tool as McpToolDefinition,
  type PriorDiscovery,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/config-types.js';
import { describeError } from './classify-error.js';
import { createTransport } from './create-transport.js';
import type { TransportKind, UpstreamNotification } from './provider-types.js';
import {
  clientCapabilities,
  installServerRequestHandlers,
  linkResponsesToCallers,
  type ServerRequestOptions,
} from './server-requests.js';
import type { StderrTail } from './stderr-tail.js';

/** Callbacks a freshly opened client reports to; each names the client so stale ones can be ignored. */
export interface ClientCallbacks {
  toolsChanged(client: Client, error: Error | null, tools: McpToolDefinition[] | null): void;
  countChanged(client: Client, field: 'resourceCount' | 'promptCount', items: unknown[] | null): void;
  closed(client: Client): void;
  /** Logs and resource updates, for a gateway to forward. */
  notification(client: Client, notification: UpstreamNotification): void;
  transportError(client: Client, message: string): void;
}

/** Everything {@link openMcpClient} needs for one attempt. */
export interface OpenClientParameters {
  server: string;
  config: ServerConfig;
  kind: TransportKind;
  clientInfo: Implementation;
  requests: ServerRequestOptions;
  stderr: StderrTail;
  /** Aborts the attempt (connect timeout or hub closing). */
  deadline: AbortSignal;
  timeoutMs: number;
  callbacks: ClientCallbacks;
  /** The era an earlier connect to this server found: skips the `server/discover` probe. */
  prior?: PriorDiscovery;
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
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
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

function negotiation(config: ServerConfig, kind: TransportKind, timeoutMs: number) {
  const protocol = config.protocol ?? 'auto';
  // HTTP+SSE predates 2026-07-28; probing it only produces a confusing error.
  if (protocol === 'legacy' || kind === 'sse') return { mode: 'legacy' as const };
  // A silent stdio probe means "legacy" to the SDK: keep it well inside the connect timeout.
  const probe = { timeoutMs: Math.max(100, Math.min(5000, Math.floor(timeoutMs / 2))) };
  if (protocol === 'auto') return { mode: 'auto' as const, probe };
  return { mode: { pin: protocol }, probe };
}

/**
 * Creates the transport and SDK `Client` for one connect attempt and connects it within
 * `deadline`. On failure the client, its transport and any child process are closed before
 * the error is rethrown, so an abandoned attempt never leaves a process behind.
 */
export async function openMcpClient(
  parameters: OpenClientParameters,
): Promise<{ client: Client; transport: Transport }> {
  const { config, kind, callbacks, deadline, timeoutMs } = parameters;
  const transport = createTransport(config, kind, parameters.stderr);
  const client: Client = new Client(parameters.clientInfo, {
    capabilities: clientCapabilities(parameters.requests),
    versionNegotiation: negotiation(config, kind, timeoutMs),
    listChanged: {
      tools: { debounceMs: 50, onChanged: (error, tools) => callbacks.toolsChanged(client, error, tools) },
      resources: {
        debounceMs: 50,
        onChanged: (_error, items) => callbacks.countChanged(client, 'resourceCount', items),
      },
      prompts: {
        debounceMs: 50,
        onChanged: (_error, items) => callbacks.countChanged(client, 'promptCount', items),
      },
    },
  });
  installServerRequestHandlers(client, parameters.server, parameters.requests);
  client.setNotificationHandler('notifications/message', (notification) =>
    callbacks.notification(client, { method: 'notifications/message', params: notification.params }),
  );
  client.setNotificationHandler('notifications/resources/updated', (notification) =>
    callbacks.notification(client, {
      method: 'notifications/resources/updated',
      params: { uri: notification.params.uri },
    }),
  );
  linkResponsesToCallers(transport);
  client.onerror = (error) => callbacks.transportError(client, describeError(error));
  client.onclose = () => callbacks.closed(client);
  const connecting = client.connect(transport, {
    signal: deadline,
    timeout: timeoutMs,
    ...(parameters.prior === undefined ? {} : { prior: parameters.prior }),
  });
  try {
    await untilAborted(connecting, deadline);
  } catch (error) {
    await closeMcpClient(client, transport);
    await settled(connecting, SETTLE_MS);
    await transport.close().catch(() => undefined);
    throw error;
  }
  return { client, transport };
}

/** Closes a client politely: ends a 2025-era HTTP session (bounded), then closes the transport. */
export async function closeMcpClient(client: Client, transport: Transport): Promise<void> {
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
    await settled(transport.terminateSession(), TERMINATE_MS);
  }
  await client.close().catch(() => undefined);
}
