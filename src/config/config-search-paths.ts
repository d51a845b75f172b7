import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Options of {@link configSearchPaths} and `findConfigFile`. */
export interface ConfigSearchOptions {
  /** Project directory searched first. Default `process.cwd()`. */
  cwd?: string;
  /** Home directory for user-level files. Default `os.homedir()`. */
  homeDir?: string;
  /** Reads `APPDATA` (Windows) and `XDG_CONFIG_HOME` (Linux). Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Default `process.platform`. */
  platform?: NodeJS.Platform;
  /**
   * `project`: only the project's own files (what `serve` reads without `--config`, see
   * docs/gateway-recursion.md); `all` (default): the user's files of other hosts too.
   */
  scope?: 'project' | 'all';
}

/**
 * Every file configuration discovery looks at, in order: the project's own files
 * (`mcptools.json`, `.mcp.json`, `.cursor/mcp.json`, `.vscode/mcp.json`), then the user's
 * (Claude Desktop, Cursor, Windsurf, Codex).
 */
export function configSearchPaths(options: ConfigSearchOptions = {}): string[] {
  const cwd = resolve(options.cwd ?? process.cwd());
  const project = [
    join(cwd, 'mcptools.json'),
    join(cwd, '.mcp.json'),
    join(cwd, '.cursor', 'mcp.json'),
    join(cwd, '.vscode', 'mcp.json'),
  ];
  if (options.scope === 'project') return project;
  const home = options.homeDir ?? homedir();
  return [
    ...project,
    claudeDesktopConfigPath(home, options.env ?? process.env, options.platform ?? process.platform),
    join(home, '.cursor', 'mcp.json'),
    join(home, '.codeium', 'windsurf', 'mcp_config.json'),
    join(home, '.codex', 'config.toml'),
  ];
}

function claudeDesktopConfigPath(
  home: string,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
): string {
  const file = join('Claude', 'claude_desktop_config.json');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', file);
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), file);
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), file);
}
