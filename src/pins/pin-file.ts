import { readFileSync } from 'node:fs';
import type { PinnedKind } from '../config/pins-config.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { QUICK_FILE_LOCK, underFileLock } from '../paths/under-file-lock.js';
import { writeFileAtomically } from '../paths/write-file-atomically.js';

/** One approved definition: its fingerprint and the pinned view it was computed over (for diffs). */
export interface PinEntry {
  fingerprint: string;
  definition: Record<string, unknown>;
  pinnedAt: string;
}

/** A definition that differs from its pin (or has none) and waits for an operator's approval. */
export interface PendingEntry {
  fingerprint: string;
  definition: Record<string, unknown>;
  seenAt: string;
}

/** The pins of one server, keyed `<kind>:<name>` (`tool:search`, `prompt:greet`). */
export interface ServerPins {
  pins: Record<string, PinEntry>;
  pending: Record<string, PendingEntry>;
  /** The kinds first listed already: trust on first use applies to a kind only once. */
  seen: PinnedKind[];
}

/** The pin file's content. */
export interface PinFileContent {
  version: 1;
  servers: Record<string, ServerPins>;
}

/** The key of one definition in {@link ServerPins}. */
export function pinKey(kind: PinnedKind, name: string): string {
  return `${kind}:${name}`;
}

/** The kind and name a {@link pinKey} holds. */
export function splitPinKey(key: string): { kind: PinnedKind; name: string } {
  const colon = key.indexOf(':');
  return { kind: key.slice(0, colon) as PinnedKind, name: key.slice(colon + 1) };
}

/** An empty record for one server. */
export function emptyServerPins(): ServerPins {
  return { pins: {}, pending: {}, seen: [] };
}

/**
 * Reads the pin file at `path` (an absent file is empty). Synchronous: the guard needs its pins
 * before the first list is screened, and the file is small. A file that is not a pin file is
 * refused with its path, never served as "no pins" (that would trust everything anew).
 */
export function readPinFile(path: string): PinFileContent {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, servers: {} };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new McpToolsError('CONFIG_INVALID', `the pin file ${path} is not valid JSON`);
  }
  const servers = (parsed as { servers?: unknown } | null)?.servers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    throw new McpToolsError('CONFIG_INVALID', `the pin file ${path} has no "servers" object`);
  const content: PinFileContent = { version: 1, servers: {} };
  for (const [server, entry] of Object.entries(servers as Record<string, Partial<ServerPins>>)) {
    if (typeof entry !== 'object' || entry === null)
      throw new McpToolsError('CONFIG_INVALID', `the pin file ${path}: servers.${server} is not an object`);
    content.servers[server] = {
      pins: { ...entry.pins },
      pending: { ...entry.pending },
      seen: Array.isArray(entry.seen) ? [...entry.seen] : [],
    };
  }
  return content;
}

/**
 * Changes the pin file under a lock (`<file>.lock`, broken when stale after a crash): the file is
 * read again under the lock, `change` edits it, and it is written to a temporary owner-only file
 * renamed over the old one, so a reader never sees half a file and two processes never lose each
 * other's approvals. Resolves with what was written.
 */
export async function updatePinFile(
  path: string,
  change: (content: PinFileContent) => void,
): Promise<PinFileContent> {
  return underFileLock(path, QUICK_FILE_LOCK, async () => {
    const content = readPinFile(path);
    change(content);
    await writeFileAtomically(path, `${JSON.stringify(content, null, 2)}\n`, 0o600);
    return content;
  });
}
