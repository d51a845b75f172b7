import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { LEGACY_WORKSPACE_FOLDER_NAME, WORKSPACE_FOLDER_NAME } from '../../boxes/protected-paths.js';
import type { McpToolsConfig, ServerConfig, StdioServerConfig } from '../../config/config-types.js';
import type { SandboxSettings } from '../../config/sandbox-settings.js';
import { stateDir } from '../../paths/state-dir.js';
import { resolvePackageBin } from './resolve-package-bin.js';

/**
 * The published servers the built-in default runs, at the versions this release is tested
 * with (the devDependencies; a test keeps the two in step). Spawned from the local install
 * when it has them (a clone of the repository), else through `npx -y` (an install of the
 * package from npm, which does not carry them: they are 40 MB a library user would never run).
 */
export const DEFAULT_SERVER_PACKAGES = {
  everything: '@modelcontextprotocol/server-everything@2026.8.31',
  files: '@modelcontextprotocol/server-filesystem@2026.8.31',
  memory: '@modelcontextprotocol/server-memory@2026.8.31',
} as const;

/** The `source` of the built-in configuration. */
export const BUILT_IN_SOURCE = 'built-in default configuration';

/** The connect timeout of a default server run through `npx`, whose first start downloads it. */
const NPX_CONNECT_TIMEOUT_MS = 180_000;

/** Options of {@link defaultConfig}. */
export interface DefaultConfigOptions {
  /** The folder the filesystem server is rooted at and the memory file lives in. Default {@link defaultWorkspaceDir}. */
  workspaceDir?: string;
  /** `false` for commands that only show the configuration: no folder is created. */
  createWorkspace?: boolean;
  /** Told once when a server runs through `npx` (not installed locally). */
  onNpx?: (packages: string[]) => void;
}

/**
 * The built-in configuration `mcptools demo` (and `npm start`) runs: three published MCP
 * servers sharing one workspace folder under the user's state directory, never the working
 * folder (a host may start mcptools from `/` or from the user's project).
 */
export function defaultConfig(options: DefaultConfigOptions = {}): McpToolsConfig {
  const workspaceDir = options.workspaceDir ?? defaultWorkspaceDir(options.createWorkspace !== false);
  const viaNpx: string[] = [];
  const spawn = (spec: string, args: string[]): StdioServerConfig => {
    const name = spec.slice(0, spec.lastIndexOf('@'));
    const bin = installedBin(name);
    if (bin) return { type: 'stdio', command: process.execPath, args: [bin, ...args] };
    viaNpx.push(name);
    // The first use downloads the package (about 15 s on a quiet machine): more than the usual connect.
    return {
      type: 'stdio',
      command: 'npx',
      args: ['-y', spec, ...args],
      connectTimeoutMs: NPX_CONNECT_TIMEOUT_MS,
    };
  };
  const config: McpToolsConfig = {
    servers: {
      everything: spawn(DEFAULT_SERVER_PACKAGES.everything, ['stdio']),
      files: spawn(DEFAULT_SERVER_PACKAGES.files, [workspaceDir]),
      memory: {
        ...spawn(DEFAULT_SERVER_PACKAGES.memory, []),
        env: { MEMORY_FILE_PATH: join(workspaceDir, 'memory.jsonl') },
      },
    },
    workspaceDir,
    source: BUILT_IN_SOURCE,
  };
  if (viaNpx.length > 0) options.onNpx?.(viaNpx);
  return config;
}

/**
 * What each server of the built-in configuration needs in `serve`'s default box, or `undefined`
 * for any other configuration: its workspace folder writable (the filesystem server's root, and
 * the memory file, which server-memory takes from `MEMORY_FILE_PATH`, not from an argument), and,
 * for a server run from the packages installed beside mcptools, that `node_modules` read-only. A
 * server run through `npx` needs nothing more: the package runner mounts its installed package.
 */
export function builtInBoxGrants(
  config: McpToolsConfig,
): ((name: string, server: ServerConfig) => SandboxSettings) | undefined {
  if (config.source !== BUILT_IN_SOURCE) return undefined;
  return (_name, server) => {
    const grants: SandboxSettings = config.workspaceDir ? { write: [config.workspaceDir] } : {};
    const script = server.type === 'stdio' ? server.args?.[0] : undefined;
    const at = script?.indexOf(`${sep}node_modules${sep}`) ?? -1;
    if (script !== undefined && at >= 0) grants.read = [script.slice(0, at + '/node_modules'.length)];
    return grants;
  };
}

/**
 * `<state dir>/workspace` (see {@link stateDir}), created when `create` is set; when it cannot
 * be written, `mcptools-workspace-<uid>` under the OS temp folder. A `<state dir>/sandbox` of an
 * earlier release (the folder's old name) is moved to it, memory file and all; where it cannot
 * be moved, it stays in use. Never throws: a folder that cannot be made leaves the filesystem
 * server to fail alone, isolated like any server.
 */
export function defaultWorkspaceDir(create = true, env: NodeJS.ProcessEnv = process.env): string {
  const preferred = join(stateDir(env), WORKSPACE_FOLDER_NAME);
  const former = join(stateDir(env), LEGACY_WORKSPACE_FOLDER_NAME);
  if (!existsSync(preferred) && existsSync(former)) {
    if (!create) return former;
    try {
      renameSync(former, preferred);
    } catch {
      return former;
    }
  }
  if (!create) return preferred;
  const fallback = join(tmpdir(), `mcptools-workspace-${process.getuid?.() ?? 'user'}`);
  for (const dir of [preferred, fallback]) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      return dir;
    } catch {
      // Not writable (a read-only home, a sandboxed host): try the next place.
    }
  }
  return fallback;
}

function installedBin(packageName: string): string | undefined {
  try {
    return resolvePackageBin(packageName);
  } catch {
    return undefined;
  }
}
