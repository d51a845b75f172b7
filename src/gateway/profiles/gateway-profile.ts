import type { GatewayMode, GatewayProfileConfig, McpToolsConfig } from '../../config/config-types.js';
import type { CallerSelector } from '../../config/gateway-auth-types.js';
import { compileToolFilter } from '../../config/tool-filter.js';
import type { McpToolHub } from '../../mcp/hub-types.js';
import { ToolRegistry } from '../../pipeline/tool-registry.js';
import { createRouterTools } from '../../router/create-router-tools.js';
import { createMcpAuthTool } from '../../router/mcp-auth-tool.js';
import { type ResourceUriRouting, resolveRouterOptions } from '../../router/router-options.js';
import type { Caller } from '../../tool/call-context.js';
import type { Tool, ToolContext } from '../../tool/tool.js';
import { type Viewer, Visibility } from '../auth/visibility.js';
import { toMcpTool } from './mcp-tool-definition.js';
import { ProfileOverrides } from './profile-overrides.js';
import { scopedHub } from './scoped-hub.js';
import { DEFAULT_SERVED_NAME_LENGTH, type ServedNaming, servedUnder } from './served-tool-names.js';

/** What one profile needs from the gateway. */
export interface ProfileParts {
  registry: ToolRegistry;
  hub: McpToolHub;
  config: McpToolsConfig | undefined;
  context: ToolContext;
  /** Whether `caller` (a call's, absent when the call names none) is the owner. */
  senderIsOwner: (caller?: Caller) => boolean;
  /** The one visibility function (`gateway.access`). Default: no rule, `ownerOnly` for the owner. */
  visibility?: Visibility;
  /**
   * How the router tools of a profile whose server filter is `allows` route resource URIs (by
   * the gateway's resource index, see resources/router-resource-uris.ts).
   */
  resourceUris?: (allows: (server: string) => boolean) => ResourceUriRouting;
  /** Where a profile's warnings go (an override it cannot apply). */
  log?: (line: string) => void;
}

/**
 * The viewer a call's caller is to the visibility function: none (nothing filtered) for a call
 * that names no caller (an in-process one), the owner flag alone for the stdio client, else the caller.
 */
export function viewerOf(caller: Caller | undefined): Viewer | undefined {
  if (caller === undefined) return undefined;
  return caller.via === 'stdio' ? { owner: caller.owner } : { owner: caller.owner, caller };
}

/** What a boolean owner flag stands for, as a viewer (callers from before viewers existed). */
const asViewer = (viewer: Viewer | boolean): Viewer =>
  typeof viewer === 'boolean' ? { owner: viewer } : viewer;

/** A profile's served tools, listed once per change: all, without `ownerOnly`, and by name. */
interface ServedTools {
  all: Tool[];
  shared: Tool[];
  byName: Map<string, Tool>;
  /** The tools each kind of viewer sees, by {@link Visibility.keyOf}. */
  byViewer: Map<string, Tool[]>;
}

/**
 * What a client of a profile sees of its tool list, to tell whether a change reached it: the
 * served definitions as one string, and the upstream servers whose tools are among them.
 */
export interface ServedView {
  definitions: string;
  servers: ReadonlySet<string>;
}

/** The owner's view and everyone else's (without `ownerOnly` tools). */
export interface ServedSnapshot {
  owner: ServedView;
  shared: ServedView;
}

function viewOf(tools: Tool[]): ServedView {
  const servers = new Set<string>();
  for (const tool of tools) if (tool.source === 'mcp' && tool.server !== undefined) servers.add(tool.server);
  return { definitions: JSON.stringify(tools.map(toMcpTool)), servers };
}

function aliases(tool: Tool): string[] {
  const names = [tool.name];
  if (tool.server !== undefined && tool.originalName !== undefined)
    names.push(`${tool.server}/${tool.originalName}`);
  return names;
}

/** Whether `server` waits for a person to sign it in (`auth_required`, a sign-in under way or not). */
function waitsForSignIn(hub: McpToolHub, server: string): boolean {
  return hub.status(server)?.state === 'auth_required';
}

/**
 * One endpoint's view of the registry (`/mcp` or `/mcp/<name>`): its mode, its allow/deny
 * globs over tools and servers, and — in `router` and `hybrid` modes — router tools of its
 * own that run over a registry and hub restricted to what the profile admits, so that
 * `call_tool` cannot reach a tool the profile denies.
 */
export class GatewayProfile {
  readonly name: string;
  /** The settings below change only by {@link reconfigure} (a configuration reloaded). */
  mode!: GatewayMode;
  /** Only callers who match may use this profile. */
  who: CallerSelector | undefined;
  /** The one server this profile serves as its endpoint (`gateway.serverEndpoints`), else `undefined`. */
  endpointOf: string | undefined;
  allowsServer!: (server: string) => boolean;
  #allowsTool!: (...names: string[]) => boolean;
  #pinned!: (...names: string[]) => boolean;
  readonly #parts: ProfileParts;
  /** The name `run_script` is served by here, when code mode is on. */
  #runScript: string | undefined;
  readonly #visibility: Visibility;
  /** How the tools it serves directly are named (a host adds its own prefix: see served-tool-names). */
  #naming!: ServedNaming;
  #scoped: ToolRegistry | undefined;
  #routerTools!: Tool[];
  /** Full mode: `mcp_auth`, served while an admitted server waits for OAuth sign-in. */
  #mcpAuth: { tool: Tool; needed: () => boolean } | undefined;
  /** This profile's `overrides`, applied to what it admits (none: `undefined`). */
  #overrides: ProfileOverrides | undefined;
  #cache: Promise<ServedTools> | undefined;
  /** What `#cache` resolved to, while it is the current listing. */
  #listed: ServedTools | undefined;

  constructor(name: string, settings: GatewayProfileConfig, parts: ProfileParts) {
    this.name = name;
    this.#parts = parts;
    this.#visibility = parts.visibility ?? new Visibility();
    this.#configure(settings);
  }

  /**
   * Takes `settings` (and the router settings of `parts.config`, which the caller may have
   * replaced) from the next listing and the next call on: the same object, so sessions open on
   * this profile keep it and the gateway's tool-list baseline still compares against what its
   * clients saw (one `list_changed` for those whose list changed).
   */
  reconfigure(settings: GatewayProfileConfig): void {
    this.#configure(settings);
    this.invalidate();
  }

  #configure(settings: GatewayProfileConfig): void {
    const parts = this.#parts;
    this.mode = settings.mode ?? 'full';
    this.who = settings.who;
    this.endpointOf = settings.endpointOf;
    this.#naming = {
      maxLength: settings.maxNameLength ?? DEFAULT_SERVED_NAME_LENGTH,
      separator: parts.config?.namespace?.separator ?? '__',
      prefixOf: (server) => parts.config?.servers[server]?.prefix ?? server,
      registryMaxLength: parts.config?.namespace?.maxLength ?? 64,
    };
    const allowsServer = compileToolFilter(settings.servers ?? {});
    // One argument only: it is handed to Array.filter, whose index must not read as a name.
    this.allowsServer = (server: string) => allowsServer(server);
    this.#allowsTool = compileToolFilter(settings.tools ?? {});
    const overrides = new ProfileOverrides(
      settings.overrides ?? {},
      this.name === '' ? 'gateway.overrides' : `gateway.profiles.${this.name}.overrides`,
      (message) => parts.log?.(`gateway: ${message}`),
    );
    this.#overrides = overrides.empty ? undefined : overrides;
    const pin = settings.pin ?? [];
    this.#pinned = pin.length > 0 ? compileToolFilter({ allow: pin }) : () => false;
    // Router tools run for a call: what they reach is what the caller of that call may see.
    const scoped = scopedHub(parts.hub, (server) => this.allowsServer(server));
    const routerOptions = {
      ...(parts.config ? { config: parts.config } : {}),
      context: parts.context,
      senderIsOwner: parts.senderIsOwner,
      toolVisible: (tool: Tool, caller?: Caller) => {
        const viewer = viewerOf(caller);
        return viewer === undefined || this.#visibility.seesTool(viewer, tool);
      },
      view: (_hub: McpToolHub, caller: Caller | undefined) => {
        const viewer = viewerOf(caller);
        return viewer === undefined
          ? scoped
          : scopedHub(
              parts.hub,
              (server) => this.allowsServer(server) && this.#visibility.seesServer(viewer, server),
            );
      },
      ...(parts.resourceUris ? { resourceUris: parts.resourceUris(this.allowsServer) } : {}),
      // Code mode: as `router.codeMode` says in router and hybrid modes; in full mode only when asked.
      ...(settings.codeMode === undefined ? {} : { codeMode: settings.codeMode }),
    };
    if (this.mode === 'full') {
      // Every tool is served directly; a server waiting for OAuth sign-in has none, so
      // `mcp_auth` is served beside them to sign it in — while one waits (read at each
      // listing: it follows the hub's state, and the gateway announces the change).
      const router = resolveRouterOptions(routerOptions);
      this.#mcpAuth =
        (scoped.oauthServers?.() ?? []).length > 0
          ? {
              tool: createMcpAuthTool(scoped, router, router.names.mcpAuth),
              needed: () => (scoped.oauthServers?.() ?? []).some((server) => waitsForSignIn(scoped, server)),
            }
          : undefined;
      this.#routerTools = [];
      this.#runScript = undefined;
      this.#scoped = undefined;
      if (settings.codeMode === true) {
        // run_script and describe_tools beside every tool, over what the profile admits.
        this.#scoped = new ToolRegistry();
        const { runScript, describeTools } = router.names;
        this.#routerTools = this.#scriptsThroughPipeline(
          createRouterTools(scoped, this.#scoped, routerOptions).filter(
            (tool) => tool.name === runScript || tool.name === describeTools,
          ),
          runScript,
        );
      }
    } else {
      this.#mcpAuth = undefined;
      this.#scoped = new ToolRegistry();
      this.#routerTools = this.#scriptsThroughPipeline(
        createRouterTools(scoped, this.#scoped, routerOptions),
        resolveRouterOptions(routerOptions).names.runScript,
      );
    }
  }

  /**
   * `run_script` is a call of its own (counted once under its name by the rate limits, its
   * output screened by the guards, audited), besides its inner calls, which the registry's
   * tools already take through the pipeline; the other router tools reach tools that do.
   */
  #scriptsThroughPipeline(tools: Tool[], runScript: string): Tool[] {
    this.#runScript = tools.some((tool) => tool.name === runScript) ? runScript : undefined;
    return tools.map((tool) =>
      tool.name === runScript ? this.#parts.registry.throughPipeline(tool, this.#parts.context) : tool,
    );
  }

  /** Whether this profile serves `run_script` (code mode is on here). */
  get servesScripts(): boolean {
    return this.#runScript !== undefined;
  }

  /** Whether `name` is this profile's `run_script` (code mode is on here and serves it by that name). */
  runsScripts(name: string): boolean {
    return this.#runScript !== undefined && name === this.#runScript;
  }

  /** Forgets the cached tool list; the next call lists afresh. */
  invalidate(): void {
    this.#cache = undefined;
    this.#listed = undefined;
  }

  /**
   * The tools this profile serves to `viewer` (the one visibility function decides: `ownerOnly`
   * ones only to the owner, `gateway.access` rules by principal, scope and claim). A boolean is
   * the owner flag of a viewer subject to no rule.
   */
  async tools(viewer: Viewer | boolean): Promise<Tool[]> {
    return this.#visibleIn(await this.#served(), asViewer(viewer));
  }

  /** The served tool named `name`, if `viewer` may see it. */
  async tool(name: string, viewer: Viewer | boolean): Promise<Tool | undefined> {
    const tool = (await this.#served()).byName.get(name);
    return tool === undefined || !this.#visibility.seesTool(asViewer(viewer), tool) ? undefined : tool;
  }

  /**
   * {@link tool} without waiting, once the current listing is in: `{ tool }` (`tool` undefined
   * when this client may not see one of that name), or `undefined` while it is still listing.
   */
  listedTool(name: string, viewer: Viewer | boolean): { tool: Tool | undefined } | undefined {
    const listed = this.#listed;
    if (listed === undefined) return undefined;
    const tool = listed.byName.get(name);
    return {
      tool: tool === undefined || !this.#visibility.seesTool(asViewer(viewer), tool) ? undefined : tool,
    };
  }

  /** Whether this profile admits `server` and `viewer` may see it (its resources, prompts). */
  serves(server: string, viewer: Viewer | boolean): boolean {
    return this.allowsServer(server) && this.#visibility.seesServer(asViewer(viewer), server);
  }

  #visibleIn(served: ServedTools, viewer: Viewer): Tool[] {
    if (!this.#visibility.restricts || viewer.caller === undefined)
      return viewer.owner ? served.all : served.shared;
    const key = this.#visibility.keyOf(viewer);
    let tools = served.byViewer.get(key);
    if (tools === undefined) {
      tools = served.all.filter((tool) => this.#visibility.seesTool(viewer, tool));
      served.byViewer.set(key, tools);
    }
    return tools;
  }

  /** Lists afresh (the cache is replaced) and describes what each kind of client sees. */
  async snapshot(): Promise<ServedSnapshot> {
    this.invalidate();
    const served = await this.#served();
    return { owner: viewOf(served.all), shared: viewOf(served.shared) };
  }

  #served(): Promise<ServedTools> {
    if (this.#cache === undefined) {
      const cache = this.#list().then((all) => {
        const byName = new Map<string, Tool>();
        for (const tool of all) if (!byName.has(tool.name)) byName.set(tool.name, tool);
        const served = {
          all,
          shared: all.filter((tool) => tool.ownerOnly !== true),
          byName,
          byViewer: new Map(),
        };
        // Not when the listing was replaced (invalidated) meanwhile.
        if (this.#cache === cache) this.#listed = served;
        return served;
      });
      this.#cache = cache;
    }
    return this.#cache;
  }

  async #list(): Promise<Tool[]> {
    const all = await this.#parts.registry.resolveAll(this.#parts.context);
    const allowed = all.filter((tool) => {
      // The registry's own router tools answer for the whole registry; profiles bring their own.
      if (tool.source === 'router') return false;
      if (tool.source === 'mcp' && tool.server !== undefined && !this.allowsServer(tool.server)) return false;
      return this.#allowsTool(...aliases(tool));
    });
    // The profile's overrides apply after its filters (which read the registry's names).
    const admitted = this.#overrides ? this.#overrides.apply(allowed) : allowed;
    if (this.mode === 'full') {
      this.#scoped?.replaceOwner('gateway', admitted);
      return servedUnder(
        [...admitted, ...(this.#mcpAuth?.needed() ? [this.#mcpAuth.tool] : []), ...this.#routerTools],
        this.#naming,
      );
    }
    // Router tools name tools by their registry names (call_tool's argument, not a host's tool name).
    this.#scoped!.replaceOwner('gateway', admitted);
    const pinned = this.mode === 'hybrid' ? admitted.filter((tool) => this.#pinned(...aliases(tool))) : [];
    return servedUnder([...pinned, ...this.#routerTools], this.#naming);
  }
}
