import { z } from 'zod';
import type { GuardsConfig } from './guards-config.js';
import { guardsSchema } from './guards-schema.js';
import { lazySchema } from './lazy-schema.js';

const nonEmpty = lazySchema(() => z.string().min(1, 'must not be empty'));
const globs = lazySchema(() => z.array(nonEmpty()).min(1, 'must name at least one glob'));

/** Which calls a rule covers: globs over exposed names, over servers, and annotation hints (all given must match). */
const matchSchema = lazySchema(() =>
  z
    .strictObject({
      tools: globs().optional(),
      servers: globs().optional(),
      annotations: z
        .array(z.enum(['destructiveHint', 'readOnlyHint', 'idempotentHint', 'openWorldHint']))
        .min(1, 'must name at least one hint')
        .optional(),
    })
    .refine((match) => match.tools || match.servers || match.annotations, {
      message: 'a rule must give "tools", "servers" or "annotations"',
    }),
);

/** One `deny` or `requireApproval` rule. */
const ruleSchema = lazySchema(() =>
  z.strictObject({
    match: matchSchema(),
    /** What the model (deny) or the person asked (approval) reads. */
    reason: nonEmpty().optional(),
  }),
);

/** One override of a server's tool: a new name, title, description, and fixed argument values. */
const overrideSchema = lazySchema(() =>
  z.strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must match ^[A-Za-z0-9_-]{1,64}$')
      .optional(),
    title: nonEmpty().optional(),
    description: nonEmpty().optional(),
    arguments: z.record(nonEmpty(), z.unknown()).optional(),
  }),
);

/** Tool overrides per server, per original tool name (`policies.overrides`, a gateway profile's `overrides`). */
export const toolOverridesSchema = lazySchema(() =>
  z.record(nonEmpty(), z.record(nonEmpty(), overrideSchema())),
);

/** One token bucket: `limit` calls per `windowMs`, per tool, per server or per principal. */
const rateLimitSchema = lazySchema(() =>
  z.strictObject({
    match: matchSchema().optional(),
    per: z.enum(['tool', 'server', 'principal']),
    limit: z.number().int().positive(),
    windowMs: z.number().int().positive(),
  }),
);

/** The audit log: JSON Lines, rotated by size. */
const auditSchema = lazySchema(() =>
  z.strictObject({
    file: nonEmpty(),
    maxBytes: z.number().int().min(1024).optional(),
    keep: z.number().int().min(1).max(100).optional(),
  }),
);

/** `policies` in `mcptools.json`: rules, tool overrides, rate limits and the audit log. */
export const policiesSchema = lazySchema(() =>
  z.strictObject({
    deny: z.array(ruleSchema()).optional(),
    requireApproval: z.array(ruleSchema()).optional(),
    overrides: toolOverridesSchema().optional(),
    rateLimits: z.array(rateLimitSchema()).optional(),
    audit: auditSchema().optional(),
    guards: guardsSchema().optional(),
  }),
);

/** Which calls a policy rule covers (every field given must match). */
export interface PolicyMatch {
  /** Globs over exposed tool names (and `server/tool`). */
  tools?: string[];
  /** Globs over server names (MCP servers, plugin ids). */
  servers?: string[];
  /** MCP annotation hints that must be `true` (`destructiveHint`, …). */
  annotations?: Array<'destructiveHint' | 'readOnlyHint' | 'idempotentHint' | 'openWorldHint'>;
}

/** A `deny` or `requireApproval` rule. */
export interface PolicyRule {
  match: PolicyMatch;
  reason?: string;
}

/** An override of one tool of one server. */
export interface ToolOverrideConfig {
  /** The exposed name (replaces `<server>__<tool>`). */
  name?: string;
  title?: string;
  description?: string;
  /** Fixed argument values: removed from the schema the model sees, filled in on every call. */
  arguments?: Record<string, unknown>;
}

/** A token bucket of `limit` calls per `windowMs`, kept per tool, per server or per principal. */
export interface RateLimitConfig {
  match?: PolicyMatch;
  per: 'tool' | 'server' | 'principal';
  limit: number;
  windowMs: number;
}

/** The audit log settings. */
export interface AuditLogConfig {
  /** The JSON Lines file (relative paths resolve against the config file). */
  file: string;
  /** Size at which the file is rotated. Default 10 MiB. */
  maxBytes?: number;
  /** Rotated files kept (`file.1` … `file.N`). Default 5. */
  keep?: number;
}

/** `policies` of the configuration. */
export interface PoliciesConfig {
  deny?: PolicyRule[];
  requireApproval?: PolicyRule[];
  /** Per server, per original tool name. */
  overrides?: Record<string, Record<string, ToolOverrideConfig>>;
  rateLimits?: RateLimitConfig[];
  audit?: AuditLogConfig;
  /** Detectors over call arguments and results, each with its action (docs/pins-and-guards.md). */
  guards?: GuardsConfig;
}
