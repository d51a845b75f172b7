import type { Context, TextMapGetter } from '@opentelemetry/api';
import { type OtelApi, otelApi } from './otel-api.js';

/** The keys of W3C Trace Context and Baggage, unprefixed in `params._meta` (MCP SEP-414). */
const PROPAGATION_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;

/** Reads a carrier that is either a `_meta` object or a `Headers`-like object. */
const carrierGetter: TextMapGetter<{ meta?: Record<string, unknown>; headers?: HeaderReader }> = {
  keys: () => [...PROPAGATION_KEYS],
  get(carrier, key) {
    const fromMeta = carrier.meta?.[key];
    if (typeof fromMeta === 'string') return fromMeta;
    return carrier.headers?.get(key) ?? undefined;
  },
};

/** What {@link extractTraceContext} reads HTTP headers through. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The context a downstream request names as its parent: W3C Trace Context from
 * `params._meta` (as the MCP trace-context proposal and the semantic conventions put it), else
 * from the HTTP headers; the current context when neither carries one. Reading costs nothing
 * while no propagator is registered (the API's no-op).
 */
export function extractTraceContext(
  api: OtelApi,
  meta: Record<string, unknown> | undefined,
  headers?: HeaderReader,
): Context {
  const active = api.context.active();
  if (meta?.traceparent === undefined && headers?.get('traceparent') == null) return active;
  return api.propagation.extract(
    active,
    { ...(meta ? { meta } : {}), ...(headers ? { headers } : {}) },
    carrierGetter,
  );
}

/** The context {@link withContextForInjection} set, while its function runs synchronously. */
let injecting: Context | undefined;

/**
 * Runs `run` with `ctx` as the context {@link traceContextMeta} injects, for the synchronous part
 * of `run` only (where a request's `params` are built). Unlike `context.with`, it needs no async
 * context manager: on Node 20 an `AsyncLocalStorage` that has run once makes every promise of
 * the process pay a hook, about 100 µs per stdio tool call.
 */
export function withContextForInjection<T>(ctx: Context, run: () => T): T {
  const previous = injecting;
  injecting = ctx;
  try {
    return run();
  } finally {
    injecting = previous;
  }
}

/** The gateway's own key in `tracestate`: the one entry of it that may go upstream. */
export const OWN_TRACESTATE_KEY = 'mcptools';

/**
 * The `_meta` keys that carry the current span to an upstream: `traceparent`, and `tracestate`
 * only with the gateway's own entry ({@link OWN_TRACESTATE_KEY}). A caller's `baggage` and its
 * `tracestate` entries stay downstream: they are the caller's words (`x-user-role=admin`), and an
 * upstream must not take them for the gateway's. Built here, not by the registered propagator,
 * which would copy both. `undefined` when no span is being recorded (nothing to propagate: the
 * common, telemetry-off case costs one lookup).
 */
export function traceContextMeta(): Record<string, string> | undefined {
  const api = otelApi();
  if (api === undefined) return undefined;
  const active = injecting ?? api.context.active();
  if (active === api.ROOT_CONTEXT) return undefined;
  const span = api.trace.getSpan(active);
  if (span?.isRecording() !== true) return undefined;
  const spanContext = span.spanContext();
  if (!api.isSpanContextValid(spanContext)) return undefined;
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0');
  const carrier: Record<string, string> = {
    traceparent: `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`,
  };
  const own = spanContext.traceState?.get(OWN_TRACESTATE_KEY);
  if (own !== undefined) carrier.tracestate = `${OWN_TRACESTATE_KEY}=${own}`;
  return carrier;
}

/**
 * `fetch` that also sends the current span's W3C Trace Context as HTTP headers, for an
 * upstream that reads it from the transport rather than from `_meta`.
 */
export function tracingFetch<F extends (url: string | URL, init?: RequestInit) => Promise<Response>>(
  fetch: F,
): F {
  return ((url: string | URL, init?: RequestInit) => {
    const meta = traceContextMeta();
    if (meta === undefined) return fetch(url, init);
    const headers = new Headers(init?.headers);
    for (const [key, value] of Object.entries(meta)) headers.set(key, value);
    return fetch(url, { ...init, headers });
  }) as F;
}
