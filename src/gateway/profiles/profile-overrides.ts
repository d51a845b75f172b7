import type { ToolOverrideConfig } from '../../config/policies-schema.js';
import { applyToolOverride } from '../../pipeline/tool-override.js';
import type { Tool } from '../../tool/tool.js';

/** A gateway profile's `overrides`: per server, per original tool name. */
export type ProfileOverrideConfig = Record<string, Record<string, ToolOverrideConfig>>;

/**
 * Applies a gateway profile's tool overrides to the tools the profile admits, for its clients
 * only: a new name, title or description, and fixed arguments removed from the schema and
 * filled in before the call reaches the registry's tool (so the registry's pipeline, its
 * policies and the audit log see the registry's name and the complete arguments). Only MCP
 * tools are overridden (by `server` and original name), as in `policies.overrides`.
 *
 * An override that cannot be applied — a name another served tool holds, a fixed argument the
 * tool lacks or whose value does not fit — leaves that tool out of the profile (serving it
 * without the override would ignore the policy), with one warning naming the field.
 */
export class ProfileOverrides {
  readonly #overrides: ProfileOverrideConfig;
  readonly #where: string;
  readonly #warn: (message: string) => void;
  /** Warnings already given (a profile lists its tools again at every change). */
  readonly #warned = new Set<string>();
  /** The overridden tool, per registry tool (the same object while the registry's tool is). */
  readonly #applied = new WeakMap<Tool, Tool | Error>();

  constructor(overrides: ProfileOverrideConfig, where: string, warn: (message: string) => void) {
    this.#overrides = overrides;
    this.#where = where;
    this.#warn = warn;
  }

  /** Whether any override is configured (none: {@link apply} is never needed). */
  get empty(): boolean {
    return Object.keys(this.#overrides).length === 0;
  }

  /** `tools` as this profile's clients see them. */
  apply(tools: readonly Tool[]): Tool[] {
    const overridden = new Map<Tool, Tool | Error>();
    for (const tool of tools) {
      const override = this.#overrideOf(tool);
      if (override === undefined) continue;
      let applied = this.#applied.get(tool);
      if (applied === undefined) {
        const where = `${this.#where}.${tool.server}.${tool.originalName}`;
        try {
          applied = applyToolOverride(tool, override, where);
        } catch (error) {
          applied = error instanceof Error ? error : new Error(String(error));
        }
        this.#applied.set(tool, applied);
      }
      overridden.set(tool, applied);
    }
    if (overridden.size === 0) return [...tools];
    // Tools an override does not touch keep their names; renamed ones come after, first come first served.
    const holders = new Map<string, Tool>();
    for (const tool of tools)
      if (!overridden.has(tool) && !holders.has(tool.name)) holders.set(tool.name, tool);
    for (const [tool, shown] of overridden)
      if (!(shown instanceof Error) && !holders.has(shown.name)) holders.set(shown.name, tool);
    const served: Tool[] = [];
    for (const tool of tools) {
      const shown = overridden.get(tool);
      if (shown === undefined) {
        served.push(tool);
        continue;
      }
      const label = `${tool.server}/${tool.originalName}`;
      if (shown instanceof Error) {
        this.#warnOnce(`${shown.message}; ${label} is not served on this profile`);
        continue;
      }
      if (holders.get(shown.name) !== tool) {
        this.#warnOnce(
          `${this.#where}.${tool.server}.${tool.originalName}.name: "${shown.name}" is already the name of another tool; ${label} is not served on this profile`,
        );
        continue;
      }
      served.push(shown);
    }
    return served;
  }

  #overrideOf(tool: Tool): ToolOverrideConfig | undefined {
    if (tool.source !== 'mcp' || tool.server === undefined || tool.originalName === undefined)
      return undefined;
    const byTool = Object.hasOwn(this.#overrides, tool.server) ? this.#overrides[tool.server] : undefined;
    return byTool && Object.hasOwn(byTool, tool.originalName) ? byTool[tool.originalName] : undefined;
  }

  #warnOnce(message: string): void {
    if (this.#warned.has(message)) return;
    this.#warned.add(message);
    this.#warn(message);
  }
}
