import { createRequire } from 'node:module';

/** The OpenTelemetry API package, as loaded by {@link otelApi}. */
export type OtelApi = typeof import('@opentelemetry/api');

/**
 * The API's registry on `globalThis` (one per major version of the API): it exists once anyone
 * registered a global with the API (a tracer or meter provider, a context manager, a
 * propagator, a diagnostic logger), whichever copy of the API they imported.
 */
const REGISTRY = Symbol.for('opentelemetry.js.api.1');

let api: OtelApi | undefined;

/**
 * The OpenTelemetry API, or `undefined` while no one has registered anything with it (telemetry
 * off: the caller then does no telemetry work at all). This is the only module of mcptools that
 * loads the API: it costs 35–70 ms of CPU and several MiB per process, which a process without
 * telemetry need not pay. The API is CommonJS, so it loads synchronously here on the first call
 * after a host or `setupTelemetry` registered a provider; from then on every call returns it.
 */
export function otelApi(): OtelApi | undefined {
  if (api !== undefined) return api;
  if ((globalThis as Record<symbol, unknown>)[REGISTRY] === undefined) return undefined;
  api = createRequire(import.meta.url)('@opentelemetry/api') as OtelApi;
  return api;
}

/** The OpenTelemetry API, loaded now if it is not yet (for `setupTelemetry`, which registers the SDK with it). */
export function loadOtelApi(): OtelApi {
  api ??= createRequire(import.meta.url)('@opentelemetry/api') as OtelApi;
  return api;
}
