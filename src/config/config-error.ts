import { McpToolsError } from '../errors/mcp-tools-error.js';

/** One problem found in a configuration, free of any configured value (values may be secrets). */
export interface ConfigIssue {
  /** Path inside the file, e.g. `["servers", "github", "url"]`. */
  path: (string | number)[];
  message: string;
}

/** Where in a configuration a problem sits. Every part is a name, never a value. */
export interface ConfigErrorLocation {
  /** The file as shown to the user (relative to the working directory when inside it). */
  file: string;
  server?: string;
  field?: string;
  /** Path of the problem inside the file, for `data.issues`; derived from server and field when unset. */
  path?: (string | number)[];
}

/**
 * Builds the `CONFIG_INVALID` error every configuration problem becomes: the message names the
 * file, the server and the field (`mcptools.json: server "github": field "url": Invalid URL`).
 * Callers pass names and messages only, so no configured value can reach the message.
 */
export function configError(
  location: ConfigErrorLocation,
  message: string,
  options: { issues?: ConfigIssue[]; cause?: unknown; data?: Record<string, unknown> } = {},
): McpToolsError {
  const issues = options.issues ?? [{ path: location.path ?? issuePath(location), message }];
  return new McpToolsError('CONFIG_INVALID', `${describeConfigLocation(location)}: ${message}`, {
    cause: options.cause,
    data: {
      file: location.file,
      server: location.server,
      field: location.field,
      issues,
      ...options.data,
    },
  });
}

function issuePath(location: ConfigErrorLocation): (string | number)[] {
  const path: (string | number)[] = [];
  if (location.server !== undefined) path.push(location.server);
  if (location.field !== undefined) path.push(...location.field.split('.'));
  return path;
}

/** `file: server "name": field "name"` — the prefix of every configuration error and warning. */
export function describeConfigLocation(location: ConfigErrorLocation): string {
  const parts = [location.file];
  if (location.server !== undefined) parts.push(`server ${JSON.stringify(location.server)}`);
  if (location.field !== undefined) parts.push(`field ${JSON.stringify(location.field)}`);
  return parts.join(': ');
}
