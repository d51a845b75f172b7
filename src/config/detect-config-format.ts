import { basename, dirname } from 'node:path';
import { isPlainObject } from '../json/is-plain-object.js';
import type { ConfigFormat } from './config-types.js';

/**
 * Tells which client's format a parsed configuration is in. The top-level key decides the family
 * (`servers`, `mcpServers`, `mcp_servers`); the file name, then the entries' own keys, decide
 * between clients that share a family. `undefined` when nothing matches.
 */
export function detectConfigFormat(value: unknown, file?: string): ConfigFormat | undefined {
  const byName = file === undefined ? undefined : formatFromFileName(file);
  if (!isPlainObject(value)) return byName;
  if ('mcp_servers' in value || byName === 'codex') return 'codex';
  if ('servers' in value) {
    if (byName === 'vscode' || byName === 'mcptools') return byName;
    return looksLikeVsCode(value) ? 'vscode' : 'mcptools';
  }
  if ('mcpServers' in value) {
    if (
      byName === 'claude-desktop' ||
      byName === 'claude-code' ||
      byName === 'cursor' ||
      byName === 'windsurf'
    ) {
      return byName;
    }
    const entries = isPlainObject(value.mcpServers)
      ? Object.values(value.mcpServers).filter(isPlainObject)
      : [];
    if (entries.some((entry) => 'serverUrl' in entry)) return 'windsurf';
    if (entries.some((entry) => 'type' in entry)) return 'claude-code';
    return 'claude-desktop';
  }
  // A client's own file without any servers yet is still that client's file; a misspelt
  // `mcptools.json` goes to the strict reader, which names the stray key.
  return byName;
}

/** The format a well-known file name implies, if any. */
export function formatFromFileName(file: string): ConfigFormat | undefined {
  const name = basename(file);
  const folder = basename(dirname(file));
  if (name.endsWith('.toml')) return 'codex';
  if (name === 'mcptools.json') return 'mcptools';
  if (name === 'claude_desktop_config.json') return 'claude-desktop';
  if (name === '.mcp.json') return 'claude-code';
  if (name === 'mcp_config.json') return 'windsurf';
  if (name === 'mcp.json' && folder === '.cursor') return 'cursor';
  if (name === 'mcp.json' && folder === '.vscode') return 'vscode';
  return undefined;
}

const vsCodeOnlyKeys = ['envFile', 'dev', 'gallery', 'version'];
const ownTopLevelKeys = [
  'namespace',
  'tools',
  'router',
  'maxResultChars',
  'maxResponseBytes',
  'maxArgumentBytes',
  'workspaceDir',
];

function looksLikeVsCode(value: Record<string, unknown>): boolean {
  if ('inputs' in value) return true;
  if (ownTopLevelKeys.some((key) => key in value)) return false;
  const entries = isPlainObject(value.servers) ? Object.values(value.servers).filter(isPlainObject) : [];
  return entries.some(
    (entry) => vsCodeOnlyKeys.some((key) => key in entry) || JSON.stringify(entry).includes('${input:'),
  );
}
