import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { isRawPluginTool } from './adapt-plugin-tool.js';
import { createPluginRuntime } from './create-plugin-runtime.js';
import type { PluginLogger } from './plugin-types.js';

/** OpenClaw's `registerTool` options. */
export interface PluginToolOptions {
  name?: string;
  names?: string[];
  optional?: boolean;
}

/** One `registerTool` call: a tool object or a factory, with its options. */
export interface PluginToolRegistration {
  tool?: unknown;
  factory?: (context: unknown) => unknown;
  /** 2 for `registerTool({ contextVersion: 2, create })`, whose context carries `assertInvocationCurrent`. */
  contextVersion?: 1 | 2;
  options: PluginToolOptions;
}

/** Who the plugin is, as `api` tells it. */
export interface PluginIdentity {
  id: string;
  name: string;
  version?: string;
  description?: string;
  /** The entry file. */
  source: string;
  rootDir: string;
}

/** The tool hooks mcptools runs (OpenClaw's names); every other `api.on` hook is a no-op. */
export const TOOL_HOOK_NAMES = ['before_tool_call', 'after_tool_call', 'tool_result_persist'] as const;

/** One `api.on(hookName, handler, options)` call for a tool hook. */
export interface PluginHookRegistration {
  hookName: (typeof TOOL_HOOK_NAMES)[number];
  handler: (...args: unknown[]) => unknown;
  priority?: number;
  matcher?: string[];
  timeoutMs?: number;
}

/** The `api` and what the plugin did with it. */
export interface PluginApiHandle {
  api: Record<string, unknown>;
  tools: PluginToolRegistration[];
  /** Its `before_tool_call`, `after_tool_call` and `tool_result_persist` handlers. */
  hooks: PluginHookRegistration[];
  /** Set after loading: hooks registered later go straight here. */
  onLateHook?: (registration: PluginHookRegistration) => void;
  /** Counts of accepted no-op calls by method name. */
  ignored: Record<string, number>;
  /** Set after loading: `registerTool` calls made later go straight here. */
  onLateTool?: (registration: PluginToolRegistration) => void;
  /** Aborts `api.lifecycle.signal` and runs the `onDispose` callbacks (at unload). Idempotent. */
  dispose(): Promise<void>;
}

/** `register*` methods OpenClaw's API has that we accept and ignore (tools are all we run). */
const IGNORED_METHODS = [
  'registerHook',
  'registerHttpRoute',
  'registerChannel',
  'registerGatewayMethod',
  'registerCli',
  'registerReload',
  'registerNodeHostCommand',
  'registerNodeInvokePolicy',
  'registerSecurityAuditCollector',
  'registerService',
  'registerGatewayDiscoveryService',
  'registerCliBackend',
  'registerTextTransforms',
  'registerConfigMigration',
  'registerMigrationProvider',
  'registerAutoEnableProbe',
  'registerProvider',
  'registerSpeechProvider',
  'registerRealtimeTranscriptionProvider',
  'registerRealtimeVoiceProvider',
  'registerMediaUnderstandingProvider',
  'registerImageGenerationProvider',
  'registerVideoGenerationProvider',
  'registerMusicGenerationProvider',
  'registerWebFetchProvider',
  'registerWebSearchProvider',
  'registerInteractiveHandler',
  'onConversationBindingResolved',
  'registerCommand',
  'registerContextEngine',
  'registerCompactionProvider',
  'registerAgentHarness',
  'registerAgentToolResultMiddleware',
  'registerSessionExtension',
  'registerTrustedToolPolicy',
  'registerToolMetadata',
  'registerControlUiDescriptor',
  'registerRuntimeLifecycle',
  'registerAgentEventSubscription',
  'registerSessionSchedulerJob',
  'registerSessionAction',
  'registerDetachedTaskRuntime',
  'registerMemoryCapability',
  'registerMemoryPromptSection',
  'registerMemoryPromptSupplement',
  'registerMemoryCorpusSupplement',
  'registerMemoryFlushPlan',
  'registerMemoryRuntime',
  'registerMemoryEmbeddingProvider',
  'registerMemoryPromptPreparation',
  'registerHostedMediaResolver',
  'registerWidgetPresenter',
  'registerGatewayAccessPolicy',
  'registerBoardWidgetContentKind',
  'registerSessionCatalog',
  'registerNodeCliFeature',
  'registerWorkerProvider',
  'registerModelCatalogProvider',
  'registerEmbeddingProvider',
  'registerTranscriptSourceProvider',
  'registerDecisionProvider',
  'registerCodexAppServerExtensionFactory',
];

/** Calls that answer something in OpenClaw: the answer OpenClaw gives when the feature is not wired. */
const ANSWERING_METHODS: Record<string, () => unknown> = {
  enqueueNextTurnInjection: async () => ({ enqueued: false, id: '' }),
  emitAgentEvent: () => ({ emitted: false, reason: 'not wired' }),
  setRunContext: () => false,
  getRunContext: () => undefined,
  clearRunContext: () => undefined,
  scheduleSessionTurn: async () => undefined,
  unscheduleSessionTurnsByTag: async () => ({ removed: 0, failed: 0 }),
  sendSessionAttachment: async () => ({ ok: false, error: 'not wired' }),
};

const UNKNOWN_CALL = /^(register[A-Z]|on$|on[A-Z])/;

function describeCall(method: string, args: unknown[]): string {
  const first = args[0];
  const detail = typeof first === 'string' ? ` "${first}"` : '';
  return `${method}${detail}`;
}

/**
 * Reads an `api.on` call for a tool hook the way OpenClaw checks it: a function handler, a
 * finite `priority`, a positive `timeoutMs`, and a `matcher` that is a non-empty list of tool
 * names without wildcards. Throws a TypeError naming the hook otherwise (the plugin then fails
 * to load: a policy that cannot be installed must not leave its tools unguarded).
 */
function readHookRegistration(
  hookName: PluginHookRegistration['hookName'],
  handler: unknown,
  options: unknown,
): PluginHookRegistration {
  const where = `api.on("${hookName}")`;
  if (typeof handler !== 'function') throw new TypeError(`${where}: the handler must be a function`);
  const registration: PluginHookRegistration = {
    hookName,
    handler: handler as PluginHookRegistration['handler'],
  };
  if (options === undefined || options === null) return registration;
  if (typeof options !== 'object') throw new TypeError(`${where}: the options must be an object`);
  const { priority, matcher, timeoutMs } = options as Record<string, unknown>;
  if (priority !== undefined) {
    if (typeof priority !== 'number' || !Number.isFinite(priority))
      throw new TypeError(`${where}: "priority" must be a finite number`);
    registration.priority = priority;
  }
  if (timeoutMs !== undefined) {
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0))
      throw new TypeError(`${where}: "timeoutMs" must be a positive number`);
    registration.timeoutMs = timeoutMs;
  }
  if (matcher !== undefined) {
    if (hookName === 'tool_result_persist')
      throw new TypeError(`${where}: "matcher" is only for tool call hooks`);
    if (!Array.isArray(matcher) || matcher.length === 0)
      throw new TypeError(`${where}: "matcher" must be a non-empty array of tool names`);
    for (const name of matcher) {
      if (typeof name !== 'string' || name.trim() === '')
        throw new TypeError(`${where}: "matcher" entries must be non-empty strings`);
      if (name.trim() === '*') throw new TypeError(`${where}: "matcher" wildcard entries are not supported`);
    }
    registration.matcher = matcher as string[];
  }
  return registration;
}

/** Reads a `registerTool` argument: a tool, a factory function, or a `{ contextVersion: 2, create }` factory. */
function readRegistration(
  toolOrFactory: unknown,
  options: PluginToolOptions,
): PluginToolRegistration | undefined {
  if (typeof toolOrFactory === 'function') {
    return { factory: toolOrFactory as (context: unknown) => unknown, options };
  }
  if (isRawPluginTool(toolOrFactory)) return { tool: toolOrFactory, options };
  const versioned = toolOrFactory as { contextVersion?: unknown; create?: unknown } | null;
  if (versioned && typeof versioned === 'object' && typeof versioned.create === 'function') {
    const create = versioned.create as (context: unknown) => unknown;
    return {
      // `create` may be a method of the object: keep its `this`.
      factory: (context) => create.call(versioned, context),
      contextVersion: versioned.contextVersion === 2 ? 2 : 1,
      options,
    };
  }
  return undefined;
}

/**
 * Builds the `api` handed to a plugin's `register`: a plain object with its own members
 * (`registerTool`, `logger`, `pluginConfig`, `config`, `registrationMode`, `resolvePath`
 * relative to the plugin's folder, `rootDir`, `id`, `name`, `version`, `description`,
 * `source`, `runtimeSource`, `runtime`, and the `session`, `agent`, `runContext` and
 * `lifecycle` facades) so that spreading it works, wrapped in a Proxy that answers any other
 * `register*`/`on*` call as a logged no-op.
 */
export function createPluginApi(params: {
  identity: PluginIdentity;
  config: Record<string, unknown>;
  pluginConfig: Record<string, unknown>;
  logger: PluginLogger;
  /** Root of plugin state (`runtime.state.resolveStateDir()`). */
  stateRoot: string;
}): PluginApiHandle {
  const { identity, logger } = params;
  const lifetime = new AbortController();
  const disposers = new Set<() => void | Promise<void>>();
  const handle: PluginApiHandle = {
    api: {},
    tools: [],
    hooks: [],
    ignored: {},
    async dispose() {
      if (lifetime.signal.aborted) return;
      lifetime.abort(new Error(`Plugin "${identity.id}" was unloaded`));
      for (const dispose of [...disposers].reverse()) {
        try {
          await dispose();
        } catch (error) {
          logger.warn('an onDispose callback threw:', error);
        }
      }
      disposers.clear();
    },
  };
  const noop = (method: string, answer: () => unknown = () => undefined) =>
    function ignoredCall(...args: unknown[]): unknown {
      handle.ignored[method] = (handle.ignored[method] ?? 0) + 1;
      logger.debug?.(`${describeCall(method, args)} accepted as a no-op (not supported outside OpenClaw)`);
      return answer();
    };
  const registerTool = (toolOrFactory: unknown, options: PluginToolOptions = {}): void => {
    const safeOptions = typeof options === 'object' && options !== null ? options : {};
    const registration = readRegistration(toolOrFactory, safeOptions);
    if (!registration) {
      logger.warn('registerTool called without a tool (name + execute) or a factory; ignored');
      return;
    }
    if (handle.onLateTool) handle.onLateTool(registration);
    else handle.tools.push(registration);
  };
  const ignoredOn = noop('on');
  /** `api.on`: the tool hooks are kept and run by the registry's pipeline; every other hook is a logged no-op. */
  const on = (hookName: unknown, handler: unknown, options?: unknown): void => {
    if (!TOOL_HOOK_NAMES.includes(hookName as PluginHookRegistration['hookName'])) {
      ignoredOn(hookName, handler, options);
      return;
    }
    const registration = readHookRegistration(
      hookName as PluginHookRegistration['hookName'],
      handler,
      options,
    );
    if (handle.onLateHook) handle.onLateHook(registration);
    else handle.hooks.push(registration);
  };
  const target: Record<string, unknown> = {
    id: identity.id,
    name: identity.name,
    version: identity.version,
    description: identity.description,
    source: identity.source,
    runtimeSource: identity.source,
    rootDir: identity.rootDir,
    registrationMode: 'full',
    config: params.config,
    pluginConfig: params.pluginConfig,
    runtime: createPluginRuntime({
      pluginId: identity.id,
      config: params.config,
      logger,
      stateRoot: params.stateRoot,
    }),
    logger,
    resolvePath: (input: string) =>
      resolve(identity.rootDir, input.startsWith('~') ? `${homedir()}${input.slice(1)}` : input),
    registerTool,
    on,
  };
  for (const method of IGNORED_METHODS) target[method] = noop(method);
  for (const [method, answer] of Object.entries(ANSWERING_METHODS)) target[method] = noop(method, answer);
  // The grouped facades OpenClaw 2026.9 adds over the same calls (its OpenClawPluginApi type).
  const pick = (...names: string[]) => Object.fromEntries(names.map((name) => [name, target[name]]));
  target.session = {
    state: pick('registerSessionExtension'),
    workflow: pick(
      'enqueueNextTurnInjection',
      'registerSessionSchedulerJob',
      'sendSessionAttachment',
      'scheduleSessionTurn',
      'unscheduleSessionTurnsByTag',
    ),
    controls: pick('registerSessionAction', 'registerControlUiDescriptor'),
  };
  target.agent = { events: pick('registerAgentEventSubscription', 'emitAgentEvent') };
  target.runContext = pick('setRunContext', 'getRunContext', 'clearRunContext');
  target.lifecycle = {
    signal: lifetime.signal,
    onDispose(dispose: () => void | Promise<void>) {
      disposers.add(dispose);
      return () => disposers.delete(dispose);
    },
    registerRuntimeLifecycle: target.registerRuntimeLifecycle,
  };
  handle.api = new Proxy(target, {
    get(object, property, receiver) {
      if (typeof property === 'string' && !(property in object) && UNKNOWN_CALL.test(property)) {
        // Defined on first use so a later `{ ...api }` copy carries it too.
        object[property] = noop(property);
      }
      return Reflect.get(object, property, receiver);
    },
  });
  return handle;
}
