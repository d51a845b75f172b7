/**
 * What `connect` points a host at: mcptools started by the host over stdio (the absolute command
 * of the running CLI and its arguments), or a running `serve --http` at a URL, with the name of
 * the environment variable holding its bearer token when it wants one (never the token itself).
 */
export type ConnectTarget =
  | { kind: 'stdio'; command: string; args: string[] }
  | { kind: 'http'; url: string; tokenEnv?: string };

/** The entry name `connect` writes: `mcptools-stdio` for stdio, `mcptools` for HTTP, so both fit side by side. */
export function entryName(target: ConnectTarget): string {
  return target.kind === 'stdio' ? 'mcptools-stdio' : 'mcptools';
}

/** The names `connect` writes, whichever transport. */
export const MCPTOOLS_ENTRY_NAMES: readonly string[] = ['mcptools-stdio', 'mcptools'];
