import type { McpToolsConfig } from '../config/config-types.js';
import type { McpToolHub } from '../mcp/hub-types.js';
import type { NamingOptions } from '../registry/tool-name.js';
import type { Caller } from '../tool/call-context.js';
import type { Tool, ToolContext } from '../tool/tool.js';
import { resolveScriptLimits, type ScriptLimits } from './code-mode/script-limits.js';
import type { RouterFormat } from './router-result.js';
import type { SemanticSearchOptions } from './search/semantic-search.js';
import { semanticSearchFromConfig } from './search/semantic-search-from-config.js';

/** Exposed names of the router tools. */
export interface RouterToolNames {
  listResources: string;
  readResource: string;
  toolIndex: string;
  callTool: string;
  listPrompts: string;
  getPrompt: string;
  /** `mcp_auth`, present when some server uses OAuth. */
  mcpAuth: string;
  /** `run_script` (code mode). */
  runScript: string;
  /** `describe_tools` (code mode). */
  describeTools: string;
}

/**
 * How resource URIs are routed without a server, where something knows which server offers
 * which URI (a gateway's resource index): `read_mcp_resource` then takes `server` as optional,
 * and `list_mcp_resources` names each resource as `present` does (a URI two servers share in a
 * qualified form).
 */
export interface ResourceUriRouting {
  /** The server and its own URI behind `uri`; throws `INVALID_URI` for a shared one, `RESOURCE_NOT_FOUND`. */
  locate(uri: string, signal?: AbortSignal): Promise<{ server: string; uri: string }>;
  /** How each listed resource is to be named. */
  present(entries: readonly { server: string; uri: string }[]): Promise<string[]>;
}

/** Options of `createRouterTools`. Explicit options win over `config.router`. */
export interface RouterToolsOptions {
  /** Renames any router tool. */
  names?: Partial<RouterToolNames>;
  /** Default cap of `list_mcp_resources` (and `list_mcp_prompts`). Default 200. */
  listMaxResources?: number;
  /** Default byte cap of `read_mcp_resource`. Default 256 KiB. */
  readMaxBytes?: number;
  /** Response budget of `tool_index`, in bytes. Default 32 KiB. */
  maxResponseBytes?: number;
  /** Also create `mcp__<server>__list_resources` / `read_resource` for every enabled server. */
  perServerResourceTools?: boolean;
  /**
   * Plan mode: `call_tool` refuses tools that are not read-only. A function is read on
   * every call, so an agent can toggle plan mode without rebuilding the tools.
   */
  planMode?: boolean | (() => boolean);
  /**
   * Whether the sender of the current request is the agent's owner (OpenClaw's
   * `senderIsOwner`). When it is not, `call_tool` refuses `ownerOnly` tools and `tool_index`
   * does not list them. A function is read on every call, with the call's caller (absent for
   * an in-process call). Default `true`.
   */
  senderIsOwner?: boolean | ((caller?: Caller) => boolean);
  /**
   * Whether the caller of the current call may see `tool` (the gateway's visibility function;
   * `caller` is absent for an in-process call). A tool it may not see is neither listed by
   * `tool_index` nor called by `call_tool`, which answers as for an unknown name. Default: every tool.
   */
  toolVisible?: (tool: Tool, caller?: Caller) => boolean;
  /**
   * The view of the hub a caller's call reaches (a gateway profile's: only the servers
   * that caller may see). Default: the hub itself.
   */
  view?: (hub: McpToolHub, caller: Caller | undefined) => McpToolHub;
  /** `json` (default) or the `compact` two-line format. */
  format?: RouterFormat;
  /** The loaded configuration: `router.*` supplies defaults, `namespace` the naming rules. */
  config?: Pick<McpToolsConfig, 'router' | 'namespace'>;
  /** Naming of the per-server tools; defaults to `config.namespace`. */
  naming?: NamingOptions;
  /** Context for registry factories when `call_tool` resolves a tool one produces. */
  context?: ToolContext;
  /** Timeout of each hub request made by a router tool, in ms (the hub's own default otherwise). */
  timeoutMs?: number;
  /**
   * `tool_index` search fused with an embedding model (`embed`, `weight`); defaults to the
   * endpoint `config.router.semanticSearch` names, and to lexical only without one.
   */
  semanticSearch?: SemanticSearchOptions;
  /** Routes resource URIs without a server (see {@link ResourceUriRouting}). */
  resourceUris?: ResourceUriRouting;
  /**
   * Code mode: `run_script` and `describe_tools` beside the other router tools, with these
   * script limits (`true`: the defaults). Default: `config.router.codeMode`, else on.
   */
  codeMode?: boolean | Partial<ScriptLimits>;
}

/** Options with every default applied. */
export interface ResolvedRouterOptions {
  names: RouterToolNames;
  listMaxResources: number;
  readMaxBytes: number;
  maxResponseBytes: number | undefined;
  perServerResourceTools: boolean;
  planMode: () => boolean;
  senderIsOwner: (caller?: Caller) => boolean;
  toolVisible: ((tool: Tool, caller?: Caller) => boolean) | undefined;
  view: (hub: McpToolHub, caller: Caller | undefined) => McpToolHub;
  format: RouterFormat;
  naming: NamingOptions;
  context: ToolContext;
  timeoutMs: number | undefined;
  semanticSearch: SemanticSearchOptions | undefined;
  resourceUris: ResourceUriRouting | undefined;
  /** The script limits of code mode, or `undefined` when it is off. */
  codeMode: ScriptLimits | undefined;
}

/** Default router tool names. */
export const DEFAULT_ROUTER_TOOL_NAMES: RouterToolNames = {
  listResources: 'list_mcp_resources',
  readResource: 'read_mcp_resource',
  toolIndex: 'tool_index',
  callTool: 'call_tool',
  listPrompts: 'list_mcp_prompts',
  getPrompt: 'get_mcp_prompt',
  mcpAuth: 'mcp_auth',
  runScript: 'run_script',
  describeTools: 'describe_tools',
};

/** 200 entries: a listing stays readable in one result. */
export const DEFAULT_LIST_MAX_RESOURCES = 200;

/** 256 KiB: one read stays well inside a model's context. */
export const DEFAULT_READ_MAX_BYTES = 256 * 1024;

/** Code mode's limits from its option (`false`: off). */
function codeModeLimits(
  option: boolean | Partial<ScriptLimits> | undefined,
  configured: boolean | (Partial<ScriptLimits> & { enabled?: boolean }) | undefined,
): ScriptLimits | undefined {
  const fromConfig = typeof configured === 'object' ? configured : {};
  if (option === false) return undefined;
  // `true` turns it on with the configured limits, even where the configuration turned it off.
  if (option === true) return resolveScriptLimits(fromConfig);
  if (option !== undefined) return resolveScriptLimits({ ...fromConfig, ...option });
  if (configured === false || fromConfig.enabled === false) return undefined;
  return resolveScriptLimits(fromConfig);
}

/** A flag that is either fixed or read on every call, as a getter; `fallback` when absent. */
export function flagGetter<A extends unknown[]>(
  flag: boolean | ((...args: A) => boolean) | undefined,
  fallback: boolean,
): (...args: A) => boolean {
  if (typeof flag === 'function') return flag;
  const value = flag ?? fallback;
  return () => value;
}

function positiveInteger(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

/** Applies defaults: explicit options, then `config.router`, then the defaults below. */
export function resolveRouterOptions(options: RouterToolsOptions = {}): ResolvedRouterOptions {
  const router = options.config?.router ?? {};
  return {
    names: { ...DEFAULT_ROUTER_TOOL_NAMES, ...options.names },
    listMaxResources: positiveInteger(
      options.listMaxResources ?? router.listMaxResources,
      DEFAULT_LIST_MAX_RESOURCES,
    ),
    readMaxBytes: positiveInteger(options.readMaxBytes ?? router.readMaxBytes, DEFAULT_READ_MAX_BYTES),
    maxResponseBytes: options.maxResponseBytes ?? router.toolIndexMaxBytes,
    perServerResourceTools: options.perServerResourceTools ?? router.perServerResourceTools ?? false,
    planMode: flagGetter(options.planMode, false),
    senderIsOwner: flagGetter(options.senderIsOwner, true),
    toolVisible: options.toolVisible,
    view: options.view ?? ((hub) => hub),
    format: options.format ?? 'json',
    naming: options.naming ?? options.config?.namespace ?? {},
    context: options.context ?? {},
    timeoutMs: options.timeoutMs,
    semanticSearch: options.semanticSearch ?? semanticSearchFromConfig(router.semanticSearch),
    resourceUris: options.resourceUris,
    codeMode: codeModeLimits(options.codeMode, router.codeMode),
  };
}
