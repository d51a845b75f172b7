import { isPlainObject } from '../json/is-plain-object.js';
import { MCPTOOLS_ENTRY_NAMES } from './connect-target.js';

/**
 * Whether a host entry is mcptools itself: one of the names `connect` writes, or a command that
 * runs `mcptools … serve` (the `mcptools` bin, or a path with `mcptools` in it). `import` never
 * copies such an entry into mcptools' own configuration: it would serve itself.
 */
export function isMcpToolsEntry(name: string, entry: unknown, cliEntry?: string): boolean {
  if (MCPTOOLS_ENTRY_NAMES.includes(name)) return true;
  if (!isPlainObject(entry) || typeof entry.command !== 'string') return false;
  const words = [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])].filter(
    (word): word is string => typeof word === 'string',
  );
  if (!words.includes('serve')) return false;
  return words.some((word) => word === cliEntry || /(^|[\\/])mcptools([\\/.-]|$)/.test(word));
}
