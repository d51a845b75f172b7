import type { PoliciesConfig } from '../config/policies-schema.js';
import { contentGuard, GUARDS_NAME } from '../guards/content-guard.js';
import type { SharedRateLimitStore } from '../pipeline/shared-rate-limits.js';
import type {
  BeforeToolCallEvent,
  BeforeToolCallResult,
  ToolHookContext,
  ToolMiddleware,
} from '../pipeline/tool-call-hooks.js';
import { recordPolicyDecision } from '../telemetry/mcptools-metrics.js';
import { AuditLog } from './audit-log.js';
import { compilePolicyMatch } from './policy-match.js';
import { RateLimitRules } from './rate-limit-rules.js';

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

/** How {@link configPolicies} reports and where its rate limits keep their tokens. */
export interface ConfigPolicyOptions {
  onError?: (message: string, error: unknown) => void;
  now?: () => number;
  /** The cluster's shared rate-limit store, read at each call (`undefined`: local buckets). */
  sharedRateLimits?: () => SharedRateLimitStore | undefined;
}

/**
 * Builds the middlewares of `policies`: one `before_tool_call` (deny rules, then rate limits,
 * then approval rules; the first deny or empty bucket blocks) and, with `audit`, one
 * `after_tool_call` that appends each call's record to the audit log. Returns no middleware
 * for an empty section, so a configuration without policies costs nothing per call.
 */
export function configPolicies(
  policies: PoliciesConfig | undefined,
  options: ConfigPolicyOptions = {},
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
  const limits = new RateLimitRules(policies?.rateLimits ?? [], {
    ...(options.sharedRateLimits ? { shared: options.sharedRateLimits } : {}),
    ...(options.onError ? { warn: (message: string) => options.onError?.(message, undefined) } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const askFor = (event: BeforeToolCallEvent, context: ToolHookContext): BeforeToolCallResult | undefined => {
    for (const rule of ask) {
      if (!rule.matches(context)) continue;
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
  };
  if (deny.length > 0 || ask.length > 0 || limits.size > 0) {
    middlewares.push({
      name: CONFIG_POLICY_NAME,
      priority: CONFIG_POLICY_PRIORITY,
      beforeToolCall: (event, context) => {
        for (const rule of deny) {
          if (!rule.matches(context)) continue;
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
        // Synchronous unless the buckets are shared (Redis): a local check needs no timer.
        const limit = limits.size > 0 ? limits.check(event, context) : undefined;
        if (limit instanceof Promise) return limit.then((block) => block ?? askFor(event, context));
        return limit ?? askFor(event, context);
      },
      ...(options.onError ? { onError: options.onError } : {}),
    });
  }
  // The content guards: one middleware (arguments before the call, the result after it).
  if (policies?.guards)
    middlewares.push(contentGuard(policies.guards, options.onError ? { onError: options.onError } : {}));
  const audit = policies?.audit
    ? new AuditLog(policies.audit, {
        // The guards' reasons name a detector and a place, never a value: safe to record.
        ownReasons: new Set([CONFIG_POLICY_NAME, GUARDS_NAME]),
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
