import { serverEntryKeys, topLevelKeys } from './config-keys.js';
import { httpServerSchema, mcpToolsFileSchema, stdioServerSchema } from './config-schema.js';
import type { ServerConfig } from './config-types.js';
import type { ConfigValidator } from './config-validator.js';
import { zodConfigError } from './zod-config-error.js';

/** The {@link ConfigValidator} of the zod schemas: names the first problem's field exactly. */
export const zodConfigValidator: ConfigValidator = {
  mcpToolsFile(value, file) {
    const result = mcpToolsFileSchema().safeParse(value);
    if (!result.success) throw zodConfigError(result.error, { file, knownKeys: topLevelKeys });
    return result.data;
  },
  server(entry, { file, server, basePath, fieldNames }) {
    const schema = entry.type === 'stdio' ? stdioServerSchema() : httpServerSchema();
    const result = schema.safeParse(entry);
    if (!result.success) {
      throw zodConfigError(result.error, { file, server, basePath, fieldNames, knownKeys: serverEntryKeys });
    }
    const data: ServerConfig = result.data;
    return data;
  },
};
