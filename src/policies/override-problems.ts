import type { ToolRegistry } from '../registry/tool-registry.js';

/** Problems met applying `policies.overrides` to the tools of each registry, by server and tool. */
const problems = new WeakMap<ToolRegistry, Map<string, string>>();

/** Records why the override of `server`/`tool` could not be applied (the tool is then not served). */
export function reportOverrideProblem(
  registry: ToolRegistry,
  server: string,
  tool: string,
  message: string,
): void {
  let byTool = problems.get(registry);
  if (byTool === undefined) {
    byTool = new Map();
    problems.set(registry, byTool);
  }
  byTool.set(`${server}/${tool}`, message);
}

/** Forgets the problems of `server` (its tools are registered anew). */
export function clearOverrideProblems(registry: ToolRegistry, server: string): void {
  const byTool = problems.get(registry);
  if (byTool === undefined) return;
  for (const key of byTool.keys()) if (key.startsWith(`${server}/`)) byTool.delete(key);
}

/** The problem recorded for `server`/`tool`, if any. */
export function overrideProblem(registry: ToolRegistry, server: string, tool: string): string | undefined {
  return problems.get(registry)?.get(`${server}/${tool}`);
}
