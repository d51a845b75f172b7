/**
 * `mcptools/policies`: the policies of a configuration's `policies` section as registry hooks
 * (rate limits, the audit log, guards), tool overrides, and the metric a hook of your own
 * records its decisions in.
 */
export { applyToolOverride } from './pipeline/tool-override.js';
export type { AuditRecord } from './policies/audit-log.js';
export { type ConfigPolicies, configPolicies } from './policies/config-policies.js';
export { policyWarnings } from './policies/policy-warnings.js';
export { type PolicyDecision, recordPolicyDecision } from './telemetry/mcptools-metrics.js';
