import type { PoliciesConfig } from '../../config/policies-schema.js';
import { recordPolicyDecision } from '../../telemetry/mcptools-metrics.js';
import type { BeforeToolCallResult, ToolMiddleware } from '../tool-call-hooks.js';
import { AuditLog } from './audit-log.js';
import { compilePolicyMatch } from './policy-match.js';
import { TokenBuckets } from './token-bucket.js';

/** The name the configured policies decide under (in block reasons, approvals and the audit log). */
export const CONFIG_POLICY_NAME = 'policies';

/**
 * Configured policies run before every hook (as OpenClaw's trusted policies run before
 * ordinary `before_tool_call` hooks): a block here ends the call before any plugin sees it.
 */
export const CONFIG_POLICY_PRIORITY = 1_000_000;

/** The configured policies as pipeline middlewares, and what to close at the end. */
export interface ConfigPolicies {
  middlewares: ToolMiddleware[];
  /** Flushes and closes the audit log. */
  close(): Promise<void>;
}

/**
 * Builds the middlewares of `policies`: one `before_tool_call` (deny rules, then rate limits,
 * then approval rules; the first deny or empty bucket blocks) and, with `audit`, one
 * `after_tool_call` that appends each call's record to the audit log. Returns no middleware
 * for an empty section, so a configuration without policies costs nothing per call.
 */
export function configPolicies(
  policies: PoliciesConfig | undefined,
  options: { onError?: (message: string, error: unknown) => void; now?: () => number } = {},
): ConfigPolicies {
  const middlewares: ToolMiddleware[] = [];
  const deny = (policies?.deny ?? []).map((rule, index) => ({
    ...rule,
    index,
    matches: compilePolicyMatch(rule.match),
  }));
  const ask = (policies?.requireApproval ?? []).map((rule, index) => ({
    ...rule,
    index,
    matches: compilePolicyMatch(rule.match),
  }));
  const limits = (policies?.rateLimits ?? []).map((limit, index) => ({
    ...limit,
    index,
    matches: compilePolicyMatch(limit.match),
    buckets: new TokenBuckets(limit.limit, limit.windowMs, options.now),
  }));
  if (deny.length > 0 || ask.length > 0 || limits.length > 0) {
    middlewares.push({
      name: CONFIG_POLICY_NAME,
      priority: CONFIG_POLICY_PRIORITY,
      beforeToolCall: (event, context): BeforeToolCallResult | undefined => {
        const target = context;
        for (const rule of deny) {
          if (!rule.matches(target)) continue;
          recordPolicyDecision({
            server: context.server,
            tool: event.toolName,
            decision: 'denied',
            reason: 'policy',
          });
          return {
            block: true,
            blockReason:
              rule.reason ?? `Tool ${event.toolName} is denied by policy (policies.deny[${rule.index}])`,
          };
        }
        for (const limit of limits) {
          if (!limit.matches(target)) continue;
          const key =
            limit.per === 'tool'
              ? event.toolName
              : limit.per === 'server'
                ? (context.server ?? event.toolName)
                : (context.principal ?? 'local');
          const waitMs = limit.buckets.take(key);
          if (waitMs > 0) {
            const seconds = Math.max(1, Math.ceil(waitMs / 1000));
            recordPolicyDecision({
              server: context.server,
              tool: event.toolName,
              decision: 'rate_limited',
              reason: 'rate_limit',
            });
            return {
              block: true,
              blockReason: `Rate limit reached for ${limit.per} "${key}": ${limit.limit} calls per ${limit.windowMs / 1000} s (policies.rateLimits[${limit.index}]). Retry after ${seconds} s`,
            };
          }
        }
        for (const rule of ask) {
          if (!rule.matches(target)) continue;
          return {
            requireApproval: {
              title: `Call ${event.toolName}`,
              description:
                rule.reason ??
                `Policy requires approval for ${event.toolName} (policies.requireApproval[${rule.index}])`,
              severity: context.annotations?.destructiveHint === true ? 'critical' : 'warning',
            },
          };
        }
        return undefined;
      },
      ...(options.onError ? { onError: options.onError } : {}),
    });
  }
  const audit = policies?.audit
    ? new AuditLog(policies.audit, {
        ownReasons: new Set([CONFIG_POLICY_NAME]),
        ...(options.onError ? { onError: options.onError } : {}),
      })
    : undefined;
  if (audit) {
    middlewares.push({
      name: 'audit',
      // Last among observers does not matter: after-hooks run concurrently.
      afterToolCall: (event) => audit.write(event),
    });
  }
  return { middlewares, close: async () => audit?.close() };
}
