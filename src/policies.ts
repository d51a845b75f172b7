/**
 * `mcptools/policies`: what runs around a tool call: the hooks and middleware a registry takes
 * (`before_tool_call`, `after_tool_call`, approvals), the policies of a configuration's
 * `policies` section as such hooks (rate limits, the audit log, guards), tool overrides, and the
 * metric a hook of your own records its decisions in.
 */

export type {
  AuditLogConfig,
  PoliciesConfig,
  PolicyMatch,
  PolicyRule,
  RateLimitConfig,
  ToolOverrideConfig,
} from './config/policies-schema.js';
export type {
  AfterToolCallEvent,
  AfterToolCallHandler,
  ApprovalDecision,
  ApprovalHandler,
  ApprovalRequest,
  ApprovalRequirement,
  ApprovalResolution,
  BeforeToolCallEvent,
  BeforeToolCallHandler,
  BeforeToolCallResult,
  ToolCallDecision,
  ToolCallOutcome,
  ToolHookContext,
  ToolMiddleware,
  ToolResultPersistEvent,
  ToolResultPersistHandler,
} from './pipeline/tool-call-hooks.js';
export { applyToolOverride } from './pipeline/tool-override.js';
export type { AuditRecord } from './policies/audit-log.js';
export { type ConfigPolicies, configPolicies } from './policies/config-policies.js';
export { policyWarnings } from './policies/policy-warnings.js';
export { type PolicyDecision, recordPolicyDecision } from './telemetry/mcptools-metrics.js';
export type { ToolDescription } from './tool/tool-description.js';
