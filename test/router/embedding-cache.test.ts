import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EmbedTexts } from '../../src/router/search/embed-batches.js';
import { fileEmbeddingCache } from '../../src/router/search/file-embedding-cache.js';
import { embeddingText } from '../../src/router/search/semantic-search.js';
import { createToolIndexTool } from '../../src/router/tool-index-tool.js';
import type { Tool } from '../../src/tool/tool.js';
import { conceptEmbedder } from './concept-embedder.js';
import { jsonOf } from './router-test-helpers.js';
import { corpusRegistry, rememberFactTool } from './tool-index-corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'mcptools-embedding-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const query = 'How high above sea level is Denver?';

async function topHit(tool: Tool) {
  const response = jsonOf<{ tools: { name: string }[]; warning?: string }>(
    await tool.execute('t', { search: query }),
  );
  return { first: response.tools[0]?.name, warning: response.warning };
}

const documentTexts = (calls: { texts: string[]; kind: string }[]) =>
  calls.filter((call) => call.kind === 'document').flatMap((call) => call.texts);

describe('fileEmbeddingCache', () => {
  it('keeps vectors across instances, drops the oldest past maxEntries, and survives a damaged file', async () => {
    const file = join(dir, 'round-trip', 'model.json');
    const first = fileEmbeddingCache(file, { maxEntries: 2 });
    await first.set([
      { key: 'a', vector: Float32Array.of(1, 0) },
      { key: 'b', vector: Float32Array.of(0.6, 0.8) },
    ]);
    await first.set([{ key: 'c', vector: Float32Array.of(0, 1) }]);
    const second = fileEmbeddingCache(file);
    expect(await second.get(['a', 'b', 'c', 'zzz'])).toEqual([
      undefined,
      Float32Array.of(0.6, 0.8),
      Float32Array.of(0, 1),
      undefined,
    ]);
    writeFileSync(file, '{"version":1,"vectors":');
    const damaged = fileEmbeddingCache(file);
    expect(await damaged.get(['b'])).toEqual([undefined]);
    await damaged.set([{ key: 'd', vector: Float32Array.of(1, 1) }]);
    expect(JSON.parse(readFileSync(file, 'utf8')).vectors).toHaveProperty('d');
  });
});

describe('tool_index with an embedding cache', () => {
  it('embeds the catalog once across runs, and only changed tools after that', async () => {
    const file = join(dir, 'runs', 'concepts.json');
    const firstRun = conceptEmbedder();
    const before = createToolIndexTool(corpusRegistry(), {
      semantic: { embed: firstRun.embed, cache: fileEmbeddingCache(file) },
    });
    expect(await topHit(before)).toEqual({ first: 'server-google-maps__maps_elevation', warning: undefined });
    expect(documentTexts(firstRun.calls)).toHaveLength(53);

    // A new process: a new registry, tool objects and cache instance over the same file.
    const secondRun = conceptEmbedder();
    const registry = corpusRegistry();
    const after = createToolIndexTool(registry, {
      semantic: { embed: secondRun.embed, cache: fileEmbeddingCache(file) },
    });
    expect(await topHit(after)).toEqual({ first: 'server-google-maps__maps_elevation', warning: undefined });
    expect(documentTexts(secondRun.calls)).toHaveLength(0);
    expect(secondRun.calls.map((call) => call.kind)).toEqual(['query']);
    const added = rememberFactTool();
    registry.register(added);
    await topHit(after);
    expect(documentTexts(secondRun.calls)).toEqual([embeddingText(added)]);
  });

  it('embeds everything again when the cached vectors come from another model', async () => {
    const file = join(dir, 'switch', 'model.json');
    const old = conceptEmbedder();
    await topHit(
      createToolIndexTool(corpusRegistry(), {
        semantic: { embed: old.embed, cache: fileEmbeddingCache(file) },
      }),
    );
    const longer = conceptEmbedder();
    const calls: string[] = [];
    // Another model: five numbers per vector instead of four.
    const embed: EmbedTexts = async (texts, kind) => {
      if (kind === 'document') calls.push(...texts);
      return (await longer.embed(texts, kind)).map((vector) => [...Array.from(vector), 0.5]);
    };
    const tool = createToolIndexTool(corpusRegistry(), {
      semantic: { embed, cache: fileEmbeddingCache(file) },
    });
    expect(await topHit(tool)).toEqual({ first: 'server-google-maps__maps_elevation', warning: undefined });
    expect(calls).toHaveLength(53);
  });

  it('still ranks semantically when the cache cannot be written', async () => {
    const blocker = join(dir, 'not-a-directory');
    writeFileSync(blocker, 'a file where the cache directory should be');
    const { embed } = conceptEmbedder();
    const tool = createToolIndexTool(corpusRegistry(), {
      semantic: { embed, cache: fileEmbeddingCache(join(blocker, 'model.json')) },
    });
    expect(await topHit(tool)).toEqual({ first: 'server-google-maps__maps_elevation', warning: undefined });
  });
});
