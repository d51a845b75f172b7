/**
 * `openclaw/plugin-sdk` (and its `core` and `agent-runtime` sub-paths) for plugins loaded by mcptools: the entry, parameter and result helpers that
 * plugins import, without an OpenClaw install. The loader aliases the import to this file.
 */
export {
  buildJsonPluginConfigSchema,
  defineChannelPluginEntry,
  definePluginEntry,
  emptyPluginConfigSchema,
  type PluginConfigSchema,
  type PluginEntryDefinition,
} from './plugin-entry.js';
export {
  readBooleanParam,
  readNumberParam,
  readStringArrayParam,
  readStringParam,
  type StringParamOptions,
  ToolInputError,
} from './tool-params.js';
export { imageResult, jsonResult, textResult } from './tool-results.js';
