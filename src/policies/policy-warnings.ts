import picomatch from 'picomatch';
import type { McpToolsConfig } from '../config/config-types.js';
import type { PolicyMatch } from '../config/policies-schema.js';
import type { ToolRegistry } from '../pipeline/tool-registry.js';

/** Who applied `policies.overrides` (the hub `loadMcpServers` returns), asked why one could not be applied. */
export interface OverrideProblemSource {
  overrideProblem?(server: string, tool: string): string | undefined;
}

/**
 * What looks wrong in `config.policies` once the tools are known, one sentence per problem,
 * each naming its config field: a `tools` or `servers` glob that matches nothing, an override
 * of a server that is not configured or of a tool the server does not have, and an override
 * that could not be applied (a name another tool holds, a fixed argument the tool does not
 * have or whose value does not fit): that tool is then not served. A gateway profile's
 * `overrides` are checked for servers and tools that do not exist (the gateway logs those it
 * cannot apply when it lists them). The rules themselves are checked when the configuration is read.
 * The overrides that could not be applied are those `hub` (which applied them) reports.
 */
export function policyWarnings(
  config: McpToolsConfig,
  registry: ToolRegistry,
  hub?: OverrideProblemSource,
): string[] {
  const policies = config.policies ?? {};
  const profileOverrides = gatewayOverrides(config);
  if (config.policies === undefined && profileOverrides.length === 0) return [];
  const rows = registry.list();
  const names = rows.flatMap((row) =>
    row.server !== undefined && row.originalName !== undefined
      ? [row.name, `${row.server}/${row.originalName}`]
      : [row.name],
  );
  const servers = new Set([
    ...Object.keys(config.servers),
    ...rows.flatMap((row) => (row.server === undefined ? [] : [row.server])),
  ]);
  const warnings: string[] = [];
  const checkMatch = (match: PolicyMatch | undefined, field: string) => {
    for (const glob of match?.tools ?? []) {
      const matches = picomatch(glob, { dot: true });
      if (!names.some((name) => matches(name)))
        warnings.push(`${field}.match.tools: "${glob}" matches no tool`);
    }
    for (const glob of match?.servers ?? []) {
      const matches = picomatch(glob, { dot: true });
      if (![...servers].some((server) => matches(server)))
        warnings.push(`${field}.match.servers: "${glob}" matches no server`);
    }
  };
  for (const [section, rules] of [
    ['deny', policies.deny],
    ['requireApproval', policies.requireApproval],
    ['rateLimits', policies.rateLimits],
  ] as const) {
    for (const [index, rule] of (rules ?? []).entries())
      checkMatch(rule.match, `policies.${section}[${index}]`);
  }
  const checkOverrides = (
    overrides: Record<string, Record<string, unknown>>,
    field: string,
    applied: boolean,
  ) => {
    for (const [server, tools] of Object.entries(overrides)) {
      if (!(server in config.servers)) {
        warnings.push(`${field}.${server}: no server "${server}" is configured`);
        continue;
      }
      const state = rows.filter((row) => row.server === server);
      for (const tool of Object.keys(tools)) {
        const problem = applied ? hub?.overrideProblem?.(server, tool) : undefined;
        if (problem !== undefined) warnings.push(problem);
        else if (state.length > 0 && !state.some((row) => row.originalName === tool))
          warnings.push(`${field}.${server}.${tool}: server "${server}" has no tool "${tool}"`);
      }
    }
  };
  checkOverrides(policies.overrides ?? {}, 'policies.overrides', true);
  // A profile's overrides apply as the gateway lists tools; it logs what it cannot apply.
  for (const [field, overrides] of profileOverrides) checkOverrides(overrides, field, false);
  return warnings;
}

/** Each gateway profile's `overrides`, with the config field it was read from. */
function gatewayOverrides(config: McpToolsConfig): Array<[string, Record<string, Record<string, unknown>>]> {
  const gateway = config.gateway;
  if (gateway === undefined) return [];
  const found: Array<[string, Record<string, Record<string, unknown>>]> = [];
  if (gateway.overrides) found.push(['gateway.overrides', gateway.overrides]);
  for (const [name, profile] of Object.entries(gateway.profiles ?? {}))
    if (profile.overrides) found.push([`gateway.profiles.${name}.overrides`, profile.overrides]);
  return found;
}
