import type { RateLimitConfig } from '../config/policies-schema.js';
import type { SharedRateLimitStore } from '../pipeline/shared-rate-limits.js';
import type {
  BeforeToolCallEvent,
  BeforeToolCallResult,
  ToolHookContext,
} from '../pipeline/tool-call-hooks.js';
import { recordPolicyDecision } from '../telemetry/mcptools-metrics.js';
import { compilePolicyMatch } from './policy-match.js';
import { TokenBuckets } from './token-bucket.js';

interface Rule extends RateLimitConfig {
  index: number;
  matches: (context: ToolHookContext) => boolean;
  local: TokenBuckets;
}

/** A rate limit's block (counted by the telemetry's policy decisions). */
function limited(
  rule: Rule,
  key: string,
  waitMs: number,
  event: BeforeToolCallEvent,
  context: ToolHookContext,
): BeforeToolCallResult {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  recordPolicyDecision({
    server: context.server,
    tool: event.toolName,
    decision: 'rate_limited',
    reason: 'rate_limit',
  });
  return {
    block: true,
    blockReason: `Rate limit reached for ${rule.per} "${key}": ${rule.limit} calls per ${rule.windowMs / 1000} s (policies.rateLimits[${rule.index}]). Retry after ${seconds} s`,
  };
}

/**
 * `policies.rateLimits`: token buckets per tool, server or principal. Local to the process,
 * or — while a {@link SharedRateLimitStore} is set (the gateway in cluster mode) — taken from
 * that store, so the limit holds across replicas. When the store cannot answer, the call is
 * limited by the local bucket instead (each replica on its own), with one warning per outage:
 * traffic keeps flowing while Redis is down, still limited.
 */
export class RateLimitRules {
  readonly #rules: Rule[];
  readonly #shared: () => SharedRateLimitStore | undefined;
  readonly #warn: (message: string) => void;
  /** Set while the shared store is failing (one warning per outage). */
  #outage = false;

  constructor(
    limits: readonly RateLimitConfig[],
    options: {
      shared?: () => SharedRateLimitStore | undefined;
      warn?: (message: string) => void;
      now?: () => number;
    } = {},
  ) {
    this.#rules = limits.map((limit, index) => ({
      ...limit,
      index,
      matches: compilePolicyMatch(limit.match),
      local: new TokenBuckets(limit.limit, limit.windowMs, options.now),
    }));
    this.#shared = options.shared ?? (() => undefined);
    this.#warn = options.warn ?? (() => undefined);
  }

  get size(): number {
    return this.#rules.length;
  }

  /**
   * Takes a token from every bucket this call falls under; the first empty one blocks with
   * `Retry after N s`. Synchronous without a shared store (no cost beyond the bucket).
   */
  check(
    event: BeforeToolCallEvent,
    context: ToolHookContext,
  ): BeforeToolCallResult | undefined | Promise<BeforeToolCallResult | undefined> {
    // A relayed input_required round's retry: its call took its tokens in its first round.
    if (context.continuation === true) return undefined;
    const store = this.#shared();
    if (store === undefined) {
      for (const rule of this.#rules) {
        if (!rule.matches(context)) continue;
        const key = keyOf(rule, event, context);
        const waitMs = rule.local.take(key);
        if (waitMs > 0) return limited(rule, key, waitMs, event, context);
      }
      return undefined;
    }
    return this.#checkShared(store, event, context);
  }

  async #checkShared(
    store: SharedRateLimitStore,
    event: BeforeToolCallEvent,
    context: ToolHookContext,
  ): Promise<BeforeToolCallResult | undefined> {
    for (const rule of this.#rules) {
      if (!rule.matches(context)) continue;
      const key = keyOf(rule, event, context);
      let waitMs: number;
      try {
        // The rule's shape is in the bucket's name: replicas with another limit never share it.
        waitMs = await store.take(
          `${rule.index}:${rule.per}:${rule.limit}/${rule.windowMs}:${key}`,
          rule.limit,
          rule.windowMs,
        );
        if (this.#outage) {
          this.#outage = false;
          this.#warn('rate limits: the shared store answers again; limits are cluster-wide again');
        }
      } catch (error) {
        if (!this.#outage) {
          this.#outage = true;
          this.#warn(
            `rate limits: the shared store did not answer (${error instanceof Error ? error.message : String(error)}); each replica limits on its own until it does`,
          );
        }
        waitMs = rule.local.take(key);
      }
      if (waitMs > 0) return limited(rule, key, waitMs, event, context);
    }
    return undefined;
  }
}

function keyOf(rule: Rule, event: BeforeToolCallEvent, context: ToolHookContext): string {
  return rule.per === 'tool'
    ? event.toolName
    : rule.per === 'server'
      ? (context.server ?? event.toolName)
      : (context.principal ?? 'local');
}
