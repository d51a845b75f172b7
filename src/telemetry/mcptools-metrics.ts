import type { Attributes, Counter, Histogram, Meter, MeterProvider, UpDownCounter } from '@opentelemetry/api';
import { otelApi } from './otel-api.js';
import { ATTR, INSTRUMENTATION_SCOPE } from './telemetry-names.js';

/** Durations in seconds, as the semantic conventions ask; buckets from 1 ms to 5 min. */
const DURATION_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300,
];

/** Every instrument mcptools records on, made from one meter. */
export interface McpToolsInstruments {
  /**
   * `mcptools.tool.call.duration` (s) {server, tool, outcome}. The call counts, calls in flight
   * and bytes are observable instruments over plain tallies (tool-call-tallies.ts).
   */
  toolCallDuration: Histogram;
  /** `mcp.client.operation.duration` (s) {mcp.method.name, server, error.type}: upstream requests other than tool calls. */
  upstreamDuration: Histogram;
  /** `mcptools.reconnects` {server, outcome}. */
  reconnects: Counter;
  /** `mcptools.gateway.listen_streams` (2026-07-28 `subscriptions/listen` streams open). */
  listenStreams: UpDownCounter;
  /** `mcptools.gateway.requests` {mcp.method.name, outcome}: downstream requests served. */
  gatewayRequests: Counter;
  /** `mcptools.gateway.quota.refusals` {mcptools.quota}: requests a session or stream quota refused. */
  quotaRefusals: Counter;
  /** `mcptools.policy.decisions` {server, tool, decision, reason}: see {@link recordPolicyDecision}. */
  policyDecisions: Counter;
  /** The meter, for observable instruments (`mcptools.servers`). */
  meter: Meter;
}

let cachedProvider: MeterProvider | undefined;
let cached: McpToolsInstruments | undefined;

/**
 * The instruments on the global meter provider, or `undefined` while none is registered (the
 * API's no-op, or the API not even loaded: nothing is measured, nothing is computed). Made again
 * when the provider changes (a host that registers its SDK after importing mcptools).
 */
export function mcptoolsInstruments(): McpToolsInstruments | undefined {
  const api = otelApi();
  if (api === undefined) return undefined;
  const provider = api.metrics.getMeterProvider();
  if (provider === cachedProvider) return cached;
  cachedProvider = provider;
  const meter = provider.getMeter(INSTRUMENTATION_SCOPE);
  cached = meter === api.createNoopMeter() ? undefined : makeInstruments(meter);
  if (cached) for (const listener of providerListeners) listener(cached);
  return cached;
}

/** Called with the instruments each time a new meter provider is found (observable gauges register there). */
const providerListeners = new Set<(instruments: McpToolsInstruments) => void>();

/** Registers `listener` for every meter provider found from now on (and the current one). */
export function onInstruments(listener: (instruments: McpToolsInstruments) => void): () => void {
  providerListeners.add(listener);
  const current = mcptoolsInstruments();
  if (current) listener(current);
  return () => providerListeners.delete(listener);
}

function makeInstruments(meter: Meter): McpToolsInstruments {
  const duration = { unit: 's', advice: { explicitBucketBoundaries: DURATION_BUCKETS } };
  return {
    meter,
    toolCallDuration: meter.createHistogram('mcptools.tool.call.duration', {
      description: 'Duration of tool calls',
      ...duration,
    }),
    upstreamDuration: meter.createHistogram('mcp.client.operation.duration', {
      description: 'Duration of requests to upstream MCP servers, by method',
      ...duration,
    }),
    reconnects: meter.createCounter('mcptools.reconnects', {
      description: 'Reconnect attempts, by server and outcome',
    }),
    listenStreams: meter.createUpDownCounter('mcptools.gateway.listen_streams', {
      description: '2026-07-28 subscriptions/listen streams open',
    }),
    gatewayRequests: meter.createCounter('mcptools.gateway.requests', {
      description: 'Downstream requests served by the gateway, by method and outcome',
    }),
    quotaRefusals: meter.createCounter('mcptools.gateway.quota.refusals', {
      description: 'Requests refused by a gateway quota (sessions, listen streams), by quota',
    }),
    policyDecisions: meter.createCounter('mcptools.policy.decisions', {
      description: 'Tool-policy decisions (approvals, rate-limit refusals), by server, tool and decision',
    }),
  };
}

/** What {@link recordPolicyDecision} counts. */
export interface PolicyDecision {
  server?: string | undefined;
  /** The tool's exposed name. */
  tool: string;
  /** `approved`, `denied` (a person or a policy said no), `rate_limited`, … (keep the set small). */
  decision: string;
  /** A low-cardinality reason (`approval`, `rate_limit`, `policy`), never free text. */
  reason?: string;
}

/**
 * Counts one tool-policy decision as `mcptools.policy.decisions` (the tool pipeline's approvals
 * and rate-limit refusals). A no-op while no meter provider is registered.
 *
 * @example
 * recordPolicyDecision({ server: 'github', tool: 'github__create_issue', decision: 'rate_limited', reason: 'rate_limit' });
 */
export function recordPolicyDecision(decision: PolicyDecision): void {
  const instruments = mcptoolsInstruments();
  if (instruments === undefined) return;
  const attributes: Attributes = {
    [ATTR.toolName]: decision.tool,
    [ATTR.outcome]: decision.decision,
    ...(decision.server === undefined ? {} : { [ATTR.server]: decision.server }),
    ...(decision.reason === undefined ? {} : { [ATTR.reason]: decision.reason }),
  };
  instruments.policyDecisions.add(1, attributes);
}
