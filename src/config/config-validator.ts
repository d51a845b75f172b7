import type { z } from 'zod';
import type { mcpToolsFileSchema } from './config-schema.js';
import type { ServerConfig } from './config-types.js';

/** The top level of `mcptools.json` as validated (server entries not looked into yet). */
export type McpToolsFileData = z.output<ReturnType<typeof mcpToolsFileSchema>>;

/** Where a server entry sits, for the messages of its errors. */
export interface ServerEntryLocation {
  /** The file as named in messages. */
  file: string;
  /** The server's name. */
  server: string;
  /** Path of the entry inside the file, e.g. `["mcpServers", "github"]`. */
  basePath: (string | number)[];
  /** Maps our field names to the ones the user wrote (`url` → `serverUrl` for Windsurf). */
  fieldNames?: Readonly<Record<string, string>>;
}

/**
 * Checks the shape of a configuration after `${VAR}` interpolation and returns it typed (durations
 * clamped). Failures throw `CONFIG_INVALID` naming the file, the server and the field. Two exist:
 * the zod schemas (every message), and a quick check of the common valid shapes that needs no zod
 * (so that `mcptools config` starts fast) and hands everything else to the zod one.
 */
export interface ConfigValidator {
  /** The top level of `mcptools.json`. */
  mcpToolsFile(value: Record<string, unknown>, file: string): McpToolsFileData;
  /** One server entry in the `mcptools.json` shape whose `type` is a known transport. */
  server(entry: Record<string, unknown>, location: ServerEntryLocation): ServerConfig;
}
