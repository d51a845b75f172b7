import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { EmbeddingCache } from './embedding-cache.js';

/** Options of {@link fileEmbeddingCache}. */
export interface FileEmbeddingCacheOptions {
  /** Most vectors kept; the oldest go first. Default 50 000. */
  maxEntries?: number;
}

interface CacheFile {
  version: 1;
  /** Base64 of each unit vector's float32 bytes, by key, oldest first. */
  vectors: Record<string, string>;
}

const DEFAULT_MAX_ENTRIES = 50_000;

function decode(text: string): Float32Array | undefined {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length === 0 || bytes.length % 4 !== 0) return undefined;
  // Copied into a fresh buffer, which is aligned for float32 whatever the source offset.
  return new Float32Array(Uint8Array.from(bytes).buffer);
}

function encode(vector: Float32Array): string {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
}

async function load(file: string): Promise<Map<string, string>> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<CacheFile>;
    if (parsed.version !== 1 || typeof parsed.vectors !== 'object' || parsed.vectors === null)
      return new Map();
    return new Map(Object.entries(parsed.vectors).filter(([, value]) => typeof value === 'string'));
  } catch {
    // Missing or unreadable: start empty; the next write replaces it.
    return new Map();
  }
}

/**
 * An {@link EmbeddingCache} in one JSON file, for one model: tool vectors survive restarts,
 * so a CLI run or a restarted gateway embeds only the tools that changed. The file is read
 * on first use and replaced atomically on each write; a damaged file counts as empty.
 *
 * @example
 * createRouterTools(hub, registry, {
 *   semanticSearch: { embed, cache: fileEmbeddingCache('.cache/mcptools/text-embedding-3-small.json') },
 * });
 */
export function fileEmbeddingCache(file: string, options: FileEmbeddingCacheOptions = {}): EmbeddingCache {
  const maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_MAX_ENTRIES);
  let entries: Promise<Map<string, string>> | undefined;
  let writing: Promise<void> = Promise.resolve();
  const loaded = () => {
    entries ??= load(file);
    return entries;
  };

  const write = async (map: Map<string, string>) => {
    await mkdir(dirname(file), { recursive: true });
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    const content: CacheFile = { version: 1, vectors: Object.fromEntries(map) };
    try {
      await writeFile(temporary, JSON.stringify(content));
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  };

  return {
    async get(keys) {
      const map = await loaded();
      return keys.map((key) => {
        const text = map.get(key);
        return text === undefined ? undefined : decode(text);
      });
    },
    async set(vectors) {
      const map = await loaded();
      for (const { key, vector } of vectors) {
        // Re-inserted, so the map's order stays oldest first.
        map.delete(key);
        map.set(key, encode(vector));
      }
      for (const key of map.keys()) {
        if (map.size <= maxEntries) break;
        map.delete(key);
      }
      // One write at a time, each with everything set so far.
      writing = writing.catch(() => {}).then(() => write(map));
      await writing;
    },
  };
}
