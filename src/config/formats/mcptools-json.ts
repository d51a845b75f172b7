import { isPlainObject } from '../../json/is-plain-object.js';
import { attachLocks } from '../attach-locks.js';
import { configError } from '../config-error.js';
import type { ConfigReadContext } from '../config-read-context.js';
import type { McpToolsConfig, PluginEntryConfig, ServerConfig } from '../config-types.js';
import { interpolateSettings } from '../interpolate-settings.js';
import { normalizeServer, resolvePath } from '../normalize-server.js';
import { protocolMode } from '../protocol-mode.js';
import { applySandboxDefault } from '../sandbox-default.js';

/**
 * Reads our own `mcptools.json`. Strict: an unknown key anywhere is an error naming it, with a
 * "did you mean" hint, because a typo such as `comand` would otherwise silently drop a setting.
 */
export function readMcpToolsJson(value: unknown, context: ConfigReadContext): McpToolsConfig {
  if (!isPlainObject(value))
    throw configError({ file: context.file }, 'must be a JSON object with "servers"');
  const data = context.validator.mcpToolsFile(interpolateSettings(value, context), context.file);
  const { $schema: _schema, servers: _servers, workspaceDir, plugins, ...settings } = data;
  const normalized: Record<string, ServerConfig> = {};
  // The raw map, not zod's copy: zod drops a "__proto__" key that must be reported instead.
  for (const [name, entry] of Object.entries(value.servers as Record<string, unknown>)) {
    normalized[name] = normalizeServer(name, entry, context);
  }
  const config: McpToolsConfig = { servers: normalized, ...settings };
  if (config.protocol !== undefined)
    config.protocol = protocolMode(config.protocol, { file: context.file, field: 'protocol' }, context.warn);
  applySandboxDefault(normalized, config.sandbox);
  if (context.baseDir !== undefined) attachLocks(normalized, context.baseDir);
  if (workspaceDir !== undefined) config.workspaceDir = resolvePath(workspaceDir, context);
  const cacheDir = config.router?.semanticSearch?.cacheDir;
  if (cacheDir !== undefined)
    config.router = {
      ...config.router,
      semanticSearch: { ...config.router!.semanticSearch!, cacheDir: resolvePath(cacheDir, context) },
    };
  const auditFile = config.policies?.audit?.file;
  if (auditFile !== undefined)
    config.policies = {
      ...config.policies,
      audit: { ...config.policies!.audit!, file: resolvePath(auditFile, context) },
    };
  const pinsFile = config.pins?.file;
  if (pinsFile !== undefined) config.pins = { ...config.pins, file: resolvePath(pinsFile, context) };
  if (plugins !== undefined) config.plugins = plugins.map((entry) => resolvePluginSpec(entry, context));
  return config;
}

/** Paths (`./x`, `../x`, `~/x`, absolute) resolve against the config file; package names stay as they are. */
function resolvePluginSpec(entry: PluginEntryConfig, context: ConfigReadContext): PluginEntryConfig {
  const resolveSpec = (spec: string) =>
    /^(\.{1,2}\/|~\/|\/)/.test(spec) ? resolvePath(spec, context) : spec;
  return typeof entry === 'string' ? resolveSpec(entry) : { ...entry, spec: resolveSpec(entry.spec) };
}
