import type { AccessRuleConfig, CallerSelector } from '../../config/gateway-auth-types.js';
import { compileToolFilter } from '../../config/tool-filter.js';
import type { Tool } from '../../tool/tool.js';
import { matchesCaller } from './caller-selector.js';
import type { RequestPrincipal } from './http-guard.js';

/**
 * Who is looking: the owner flag and, over HTTP, what the front door learned (principal,
 * scopes, claims). A viewer without `caller` (stdio: the client started the process) is
 * subject to no access rule.
 */
export interface Viewer {
  readonly owner: boolean;
  readonly caller?: RequestPrincipal | undefined;
}

interface CompiledRule {
  tools: ((...names: string[]) => boolean) | undefined;
  servers: ((server: string) => boolean) | undefined;
  who: CallerSelector;
}

/** The names a tool answers to in globs: its exposed name and `server/tool`. */
function aliases(tool: Tool): string[] {
  const names = [tool.name];
  if (tool.server !== undefined && tool.originalName !== undefined)
    names.push(`${tool.server}/${tool.originalName}`);
  return names;
}

/**
 * The one visibility function of a gateway (`gateway.access`): `tools/list`, `tools/call`,
 * `tool_index`, `call_tool`, resources, prompts and the status page all ask it, so what a
 * caller cannot see it can neither list, find nor call. A rule names tools (globs over exposed
 * names or `server/tool`) and servers (globs; their tools, resources and prompts); what a rule
 * names is visible only to callers its `who` matches, and what several rules name needs all of
 * them. `ownerOnly` tools are visible to the owner only.
 */
export class Visibility {
  readonly #rules: CompiledRule[];

  constructor(rules: readonly AccessRuleConfig[] = []) {
    this.#rules = rules.map((rule) => ({
      tools: rule.tools?.length ? compileToolFilter({ allow: rule.tools }) : undefined,
      servers: rule.servers?.length
        ? (() => {
            const allows = compileToolFilter({ allow: rule.servers });
            return (server: string) => allows(server);
          })()
        : undefined,
      who: rule.who,
    }));
  }

  /** Whether any access rule is configured. */
  get restricts(): boolean {
    return this.#rules.length > 0;
  }

  /**
   * A key equal for two viewers exactly when they see the same things (which rules they
   * satisfy, and the owner flag): filtered lists are cached by it.
   */
  keyOf(viewer: Viewer): string {
    let key = viewer.owner ? 'o' : 's';
    if (viewer.caller === undefined) return `${key}*`;
    for (const rule of this.#rules) key += matchesCaller(rule.who, viewer.caller) ? '1' : '0';
    return key;
  }

  /** Whether `viewer` may see (list, find, call) `tool`. */
  seesTool(viewer: Viewer, tool: Tool): boolean {
    if (tool.ownerOnly === true && !viewer.owner) return false;
    const caller = viewer.caller;
    if (caller === undefined || this.#rules.length === 0) return true;
    const names = aliases(tool);
    const server = tool.source === 'mcp' ? tool.server : undefined;
    for (const rule of this.#rules) {
      const governs =
        rule.tools?.(...names) === true || (server !== undefined && rule.servers?.(server) === true);
      if (governs && !matchesCaller(rule.who, caller)) return false;
    }
    return true;
  }

  /** Whether `viewer` may see `server` (its resources, prompts, status). */
  seesServer(viewer: Viewer, server: string): boolean {
    const caller = viewer.caller;
    if (caller === undefined) return true;
    for (const rule of this.#rules)
      if (rule.servers?.(server) && !matchesCaller(rule.who, caller)) return false;
    return true;
  }
}
