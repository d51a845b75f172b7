import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { McpToolsConfig } from '../../config/config-types.js';
import { resolvePackageBin } from './resolve-package-bin.js';

/**
 * The built-in configuration `mcptools demo` (and `npm start`) runs: three published MCP
 * servers spawned from the local install (no network), sharing one sandbox directory
 * (created unless `createSandbox` is `false`).
 */
export function defaultConfig(
  sandboxDir = resolve('.sandbox'),
  options: { createSandbox?: boolean } = {},
): McpToolsConfig {
  // `mcptools config` only shows the configuration: it must not create the directory.
  if (options.createSandbox !== false) mkdirSync(sandboxDir, { recursive: true });
  const node = process.execPath;
  return {
    servers: {
      everything: {
        type: 'stdio',
        command: node,
        args: [resolvePackageBin('@modelcontextprotocol/server-everything'), 'stdio'],
      },
      files: {
        type: 'stdio',
        command: node,
        args: [resolvePackageBin('@modelcontextprotocol/server-filesystem'), sandboxDir],
      },
      memory: {
        type: 'stdio',
        command: node,
        args: [resolvePackageBin('@modelcontextprotocol/server-memory')],
        env: { MEMORY_FILE_PATH: join(sandboxDir, 'memory.jsonl') },
      },
    },
    workspaceDir: sandboxDir,
    source: 'built-in default configuration',
  };
}
