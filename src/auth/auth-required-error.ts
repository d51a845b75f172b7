import { McpToolsError } from '../errors/mcp-tools-error.js';

/** The command that authorizes `server` from a shell. */
export function authCommand(server: string): string {
  return /^[\w.-]+$/.test(server)
    ? `mcptools auth ${server}`
    : `mcptools auth '${server.replaceAll("'", "'\\''")}'`;
}

/**
 * The error of a server that needs a person to authorize it (no token, or a refresh token the
 * authorization server no longer accepts): `PERMISSION_DENIED`, recoverable, with the command to
 * run in its message and `data.authRequired: true`.
 */
export function authRequiredError(server: string, reason: string, cause?: unknown): McpToolsError {
  const command = authCommand(server);
  return new McpToolsError(
    'PERMISSION_DENIED',
    `server "${server}" needs authorization: run \`${command}\` (${reason})`,
    {
      recoverable: true,
      ...(cause === undefined ? {} : { cause }),
      data: { server, authRequired: true, command },
    },
  );
}

/** The authorization-required error in `error`'s cause chain, if there is one. */
export function findAuthRequired(error: unknown): McpToolsError | undefined {
  for (
    let current = error, depth = 0;
    current instanceof Error && depth < 8;
    current = current.cause, depth++
  ) {
    if (McpToolsError.isInstance(current) && current.data?.authRequired === true) return current;
  }
  return undefined;
}

/**
 * The error a gateway caller gets from a server that signs in per user (`perUser`) before they
 * signed in: `PERMISSION_DENIED`, recoverable, with the authorization URL made for this caller
 * (`data.url`) and the `mcp_auth` call that reports when it completed.
 */
export function signInRequiredError(server: string, url: string | undefined, reason?: string): McpToolsError {
  const open = url === undefined ? 'call `mcp_auth` to sign in' : `open ${url} to sign in`;
  return new McpToolsError(
    'PERMISSION_DENIED',
    `server "${server}" needs you to sign in: ${open}${reason ? ` (${reason})` : ''}`,
    {
      recoverable: true,
      data: { server, authRequired: true, perUser: true, ...(url === undefined ? {} : { url }) },
    },
  );
}
