/**
 * `mcptools/config`: the configuration in detail: where it is looked for, the formats it is read
 * from, its redaction for printing, and the tool filters of its `tools` fields. Reading it
 * (`loadConfig`, `parseConfig`) is the package root's.
 */
export { type ConfigSearchOptions, configSearchPaths } from './config/config-search-paths.js';
export type { ConfigFormat } from './config/config-types.js';
export { redactConfig, redactServer } from './config/redact-config.js';
export { compileToolFilter, type ToolFilter } from './config/tool-filter.js';
