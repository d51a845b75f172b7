import { compileToolFilter, type ToolFilter } from '../config/tool-filter.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import type { Tool, ToolContext, ToolFactory, ToolSource } from '../tool/tool.js';
import { TOOL_NAME_PATTERN } from './tool-name.js';

/** Options of {@link ToolCatalog.register} (OpenClaw's `registerTool` options plus metadata). */
export interface RegisterOptions {
  /** Name of the tool a factory produces (OpenClaw `name`). */
  name?: string;
  /** Names of the tools a factory produces (OpenClaw `names`). */
  names?: string[];
  /** Optional tools stay off unless an allow glob names them. */
  optional?: boolean;
  /** Defaults for `source`, `server`, `category` on the registered tools. */
  source?: ToolSource;
  server?: string;
  category?: string;
  /** Who registered it (`mcp:<server>`, `plugin:<id>`, …); `unregisterOwner` removes them all. */
  owner?: string;
  /** Replace a tool of the same name instead of throwing. */
  replace?: boolean;
}

/** One row of the catalog: what is registered, before factories run. */
export interface CatalogEntry {
  name: string;
  description?: string;
  source: ToolSource;
  server?: string;
  originalName?: string;
  category?: string;
  readOnly?: boolean;
  optional: boolean;
  /** `true` when the entry comes from a factory (its tool exists only after `resolveAll`). */
  factory: boolean;
  /** `false` when the registry's filters hide it. */
  enabled: boolean;
  owner?: string;
}

/** What changed in the registry. */
export interface RegistryChange {
  added: string[];
  removed: string[];
  /** The owner whose tools changed, when one did. */
  owner?: string;
}

/**
 * A registered tool under its name (held apart from `tool.name`, which a caller may change),
 * or a factory under the names it declares (none at all is allowed). A tool's entry holds its
 * one name as a string, not an array: 56 bytes less for each tool. `next` is the next entry of
 * the same owner, in registration order: the entries of an owner are a list through them (an
 * array of them would cost 48 bytes more, for each MCP server).
 */
type Entry =
  | {
      tool: Tool;
      factory?: undefined;
      options: RegisterOptions;
      name: string;
      names?: undefined;
      next: Entry | undefined;
    }
  | {
      tool?: undefined;
      factory: ToolFactory;
      options: RegisterOptions;
      name?: undefined;
      names: string[];
      next: Entry | undefined;
    };

/** The names `entry` was registered under. */
function namesOf(entry: Entry): string[] {
  return entry.names ?? [entry.name];
}

/** The key `entry` is indexed under first: its first name, or itself when it has none. */
function keyOf(entry: Entry): string | Entry {
  return entry.names === undefined ? entry.name : (entry.names[0] ?? entry);
}

function optionalFilter(filter: ToolFilter): (...names: string[]) => boolean {
  const allow = filter.allow ?? [];
  return allow.length > 0 ? compileToolFilter({ allow }) : () => false;
}

function withDefaults(tool: Tool, options: RegisterOptions): Tool {
  const source = tool.source ?? options.source ?? 'native';
  const server = tool.server ?? options.server;
  const category = tool.category ?? options.category ?? server ?? source;
  // A tool that already carries its metadata (every MCP tool does) is kept as it is.
  if (tool.source === source && tool.server === server && tool.category === category) return tool;
  return { ...tool, source, ...(server === undefined ? {} : { server }), category };
}

/**
 * Holds every tool an agent may use — native, plugin, MCP and router — under unique,
 * provider-safe names, with glob filters and change events. It hands the tools out as they were
 * registered: it knows nothing of what runs around a call (`ToolRegistry`, in the pipeline,
 * wraps it for that).
 *
 * @example
 * const catalog = new ToolCatalog({ deny: ['*delete*'] });
 * catalog.register(echoTool);
 * const tools = await catalog.resolveAll({ workspaceDir: process.cwd() });
 */
export class ToolCatalog {
  /**
   * Every entry under each of its names, or under itself when it has none (a factory may
   * declare no name): the one index of the catalog, in registration order, which the catalog
   * and resolveAll follow. An entry's names are adjacent, since they are added together and
   * removed together. (A set of the entries beside it cost each tool about 30 bytes.)
   */
  readonly #byName = new Map<string | Entry, Entry>();
  /**
   * The first entry of each owner (the others follow through `next`), so that one owner's
   * change costs its own tools, not the catalog.
   */
  readonly #byOwner = new Map<string, Entry>();
  readonly #listeners = new Set<(change: RegistryChange) => void>();
  #passes: (...names: string[]) => boolean;
  /** Optional tools need an explicit allow glob that names them (OpenClaw semantics). */
  #allowsOptional: (...names: string[]) => boolean;
  constructor(filter: ToolFilter = {}) {
    this.#passes = compileToolFilter(filter);
    this.#allowsOptional = optionalFilter(filter);
  }

  /**
   * Registers a tool or a factory. Returns a function that unregisters it. Throws
   * `INVALID_ARGUMENTS` for an illegal name, or for a taken one unless `replace` is set.
   */
  register(toolOrFactory: Tool | ToolFactory, options: RegisterOptions = {}): () => void {
    const isFactory = typeof toolOrFactory === 'function';
    const names = isFactory
      ? [...(options.names ?? []), ...(options.name ? [options.name] : [])]
      : [(toolOrFactory as Tool).name];
    for (const name of names) {
      if (!TOOL_NAME_PATTERN.test(name)) {
        throw new McpToolsError('INVALID_ARGUMENTS', `Tool name "${name}" must match ${TOOL_NAME_PATTERN}`);
      }
      const existing = this.#byName.get(name);
      if (existing && !options.replace) {
        throw new McpToolsError('INVALID_ARGUMENTS', `A tool named "${name}" is already registered`);
      }
    }
    const removed: string[] = [];
    for (const name of names) {
      const existing = this.#byName.get(name);
      if (existing) removed.push(...this.#remove(existing));
    }
    const entry: Entry = isFactory
      ? { factory: toolOrFactory as ToolFactory, options, names, next: undefined }
      : { tool: withDefaults(toolOrFactory as Tool, options), options, name: names[0]!, next: undefined };
    this.#add(entry);
    this.#emit({
      added: names,
      removed: removed.filter((name) => !names.includes(name)),
      owner: options.owner,
    });
    return () => {
      if (this.#byName.get(keyOf(entry)) === entry) {
        this.#emit({ added: [], removed: this.#remove(entry), owner: options.owner });
      }
    };
  }

  /** Removes the tool (or the factory that declared) `name`. Returns whether something was removed. */
  unregister(name: string): boolean {
    const entry = this.#byName.get(name);
    if (!entry) return false;
    this.#emit({ added: [], removed: this.#remove(entry), owner: entry.options.owner });
    return true;
  }

  /** Removes every tool registered with `owner`; returns the names removed. */
  unregisterOwner(owner: string): string[] {
    const removed = this.#removeOwner(owner);
    if (removed.length > 0) this.#emit({ added: [], removed, owner });
    return removed;
  }

  /** Replaces all tools of `owner` with `tools` in one change event (used on `list_changed`). */
  replaceOwner(owner: string, tools: Tool[], options: Omit<RegisterOptions, 'owner'> = {}): RegistryChange {
    const before = new Set(this.names({ owner }));
    this.#removeOwner(owner);
    // Not `{ ...options, owner }`: V8 (Node 20) gives each object a spread followed by a new
    // key makes a hidden class of its own, kept as long as the entries (one per MCP server).
    const entryOptions: RegisterOptions = Object.assign({}, options);
    entryOptions.owner = owner;
    // Linked from the last to the first, then indexed in order.
    let first: Entry | undefined;
    for (let index = tools.length - 1; index >= 0; index--) {
      const tool = tools[index]!;
      first = { tool: withDefaults(tool, entryOptions), options: entryOptions, name: tool.name, next: first };
    }
    for (let entry = first; entry !== undefined; entry = entry.next) this.#index(entry);
    if (first !== undefined) this.#byOwner.set(owner, first);
    const after = new Set(tools.map((tool) => tool.name));
    const change: RegistryChange = {
      added: [...after].filter((name) => !before.has(name)),
      removed: [...before].filter((name) => !after.has(name)),
      owner,
    };
    this.#emit(change);
    return change;
  }

  /** `true` when `name` is registered (filtered or not). */
  has(name: string): boolean {
    return this.#byName.has(name);
  }

  /** The static tool named `name` if it is registered and passes the filters. */
  get(name: string): Tool | undefined {
    const entry = this.#byName.get(name);
    if (!entry?.tool || !this.#enabled(entry.tool.name, entry)) return undefined;
    return entry.tool;
  }

  /**
   * The static tool registered as `name` and who registered it, whether the filters show it or
   * not (`undefined` for a factory's name). The hub answers `toolOrigin` from it.
   */
  registered(name: string): { tool: Tool; owner: string | undefined } | undefined {
    const entry = this.#byName.get(name);
    return entry?.tool === undefined ? undefined : { tool: entry.tool, owner: entry.options.owner };
  }

  /** Names of registered tools (all of them, or those of one owner). */
  names(filter: { owner?: string } = {}): string[] {
    if (filter.owner === undefined) {
      const names: string[] = [];
      for (const key of this.#byName.keys()) if (typeof key === 'string') names.push(key);
      return names;
    }
    const names: string[] = [];
    for (let entry = this.#byOwner.get(filter.owner); entry !== undefined; entry = entry.next) {
      for (const name of namesOf(entry)) if (this.#byName.get(name) === entry) names.push(name);
    }
    return names;
  }

  /** The catalog: one row per registered name, in registration order, filtered ones included. */
  list(): CatalogEntry[] {
    const rows: CatalogEntry[] = [];
    for (const [name, entry] of this.#byName) {
      if (typeof name !== 'string') continue;
      const tool = entry.tool;
      rows.push({
        name,
        source: tool?.source ?? entry.options.source ?? 'native',
        optional: entry.options.optional ?? false,
        factory: entry.factory !== undefined,
        enabled: this.#enabled(name, entry),
        ...(tool?.description === undefined ? {} : { description: tool.description }),
        ...((tool?.server ?? entry.options.server) === undefined
          ? {}
          : { server: tool?.server ?? entry.options.server }),
        ...(tool?.originalName === undefined ? {} : { originalName: tool.originalName }),
        ...((tool?.category ?? entry.options.category) === undefined
          ? {}
          : { category: tool?.category ?? entry.options.category }),
        ...(tool?.readOnly === undefined ? {} : { readOnly: tool.readOnly }),
        ...(entry.options.owner === undefined ? {} : { owner: entry.options.owner }),
      });
    }
    return rows;
  }

  /**
   * Every enabled tool, factories run with `context`. A factory that returns `null` opts
   * out; arrays flatten; a factory that throws is skipped and reported through `onError`.
   */
  async resolveAll(
    context: ToolContext = {},
    options: { onError?: (error: unknown, names: string[]) => void } = {},
  ): Promise<Tool[]> {
    const tools: Tool[] = [];
    const seen = new Set<string>();
    // A copy: factories are awaited, and the registry may change meanwhile.
    const entries: Entry[] = [];
    for (const entry of this.#byName.values()) if (entries.at(-1) !== entry) entries.push(entry);
    for (const entry of entries) {
      if (entry.tool) {
        if (this.#enabled(entry.tool.name, entry) && !seen.has(entry.tool.name)) {
          seen.add(entry.tool.name);
          tools.push(entry.tool);
        }
        continue;
      }
      let produced: Tool | Tool[] | null | undefined;
      try {
        produced = await entry.factory!(context);
      } catch (error) {
        options.onError?.(error, namesOf(entry));
        continue;
      }
      for (const tool of produced == null ? [] : Array.isArray(produced) ? produced : [produced]) {
        if (seen.has(tool.name) || !this.#enabled(tool.name, entry, tool)) continue;
        seen.add(tool.name);
        tools.push(withDefaults(tool, entry.options));
      }
    }
    return tools;
  }

  /** Replaces the registry-wide allow/deny globs; emits a change listing what appeared or vanished. */
  setFilter(filter: ToolFilter): void {
    const before = new Set(
      this.list()
        .filter((row) => row.enabled)
        .map((row) => row.name),
    );
    this.#passes = compileToolFilter(filter);
    this.#allowsOptional = optionalFilter(filter);
    const after = new Set(
      this.list()
        .filter((row) => row.enabled)
        .map((row) => row.name),
    );
    const added = [...after].filter((name) => !before.has(name));
    const removed = [...before].filter((name) => !after.has(name));
    if (added.length > 0 || removed.length > 0) this.#emit({ added, removed });
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: (change: RegistryChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #enabled(name: string, entry: Entry, tool: Tool | undefined = entry.tool): boolean {
    const aliases = [name];
    if (tool?.server && tool.originalName) aliases.push(`${tool.server}/${tool.originalName}`);
    if (!this.#passes(...aliases)) return false;
    return !(entry.options.optional ?? false) || this.#allowsOptional(...aliases);
  }

  #add(entry: Entry): void {
    this.#index(entry);
    const owner = entry.options.owner;
    if (owner === undefined) return;
    let last = this.#byOwner.get(owner);
    if (last === undefined) {
      this.#byOwner.set(owner, entry);
      return;
    }
    while (last.next !== undefined) last = last.next;
    last.next = entry;
  }

  /** Puts `entry` in the catalog and the name index (not in its owner's list). */
  #index(entry: Entry): void {
    if (entry.names === undefined) this.#byName.set(entry.name, entry);
    else if (entry.names.length === 0) this.#byName.set(entry, entry);
    else for (const name of entry.names) this.#byName.set(name, entry);
  }

  #remove(entry: Entry): string[] {
    const owner = entry.options.owner;
    const first = owner === undefined ? undefined : this.#byOwner.get(owner);
    if (first === entry) {
      if (entry.next === undefined) this.#byOwner.delete(owner!);
      else this.#byOwner.set(owner!, entry.next);
    } else {
      let before = first;
      while (before !== undefined && before.next !== entry) before = before.next;
      if (before !== undefined) before.next = entry.next;
    }
    return this.#forget(entry);
  }

  /** Removes every entry of `owner` at once (no search of its list per entry); returns the names removed. */
  #removeOwner(owner: string): string[] {
    const first = this.#byOwner.get(owner);
    this.#byOwner.delete(owner);
    const removed: string[] = [];
    for (let entry = first; entry !== undefined; entry = entry.next) removed.push(...this.#forget(entry));
    return removed;
  }

  /** Drops `entry` from the catalog and the name index (not from its owner's list). */
  #forget(entry: Entry): string[] {
    if (entry.names?.length === 0) this.#byName.delete(entry);
    const removed: string[] = [];
    for (const name of namesOf(entry)) {
      if (this.#byName.get(name) === entry) {
        this.#byName.delete(name);
        removed.push(name);
      }
    }
    return removed;
  }

  #emit(change: RegistryChange): void {
    if (change.added.length === 0 && change.removed.length === 0) return;
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch {
        // A listener's failure must not break registration.
      }
    }
  }
}
