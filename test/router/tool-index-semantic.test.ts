import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { createRouterTools } from '../../src/router/create-router-tools.js';
import type { EmbedTexts } from '../../src/router/search/embed-batches.js';
import { embeddingText } from '../../src/router/search/semantic-search.js';
import { createToolIndexTool } from '../../src/router/tool-index-tool.js';
import type { Tool } from '../../src/tool/tool.js';
import { waitUntil } from '../helpers/wait-until.js';
import { conceptEmbedder } from './concept-embedder.js';
import { jsonOf, namesOnlyProvider } from './router-test-helpers.js';
import { corpusRegistry, rememberFactTool } from './tool-index-corpus.js';

interface Response {
  tools: { name: string }[];
  total: number;
  warning?: string;
}

async function search(tool: Tool, query: string, extra: Record<string, unknown> = {}) {
  return jsonOf<Response>(await tool.execute('test', { search: query, ...extra }));
}

const names = (response: Response) => response.tools.map((entry) => entry.name);

describe('tool_index with semantic search', () => {
  it('finds a paraphrase that shares no word with the tool', async () => {
    const query = 'How high above sea level is Denver?';
    const lexical = await search(createToolIndexTool(corpusRegistry()), query);
    expect(names(lexical)).not.toContain('server-google-maps__maps_elevation');
    const { embed } = conceptEmbedder();
    const hybrid = await search(createToolIndexTool(corpusRegistry(), { semantic: { embed } }), query);
    expect(names(hybrid)[0]).toBe('server-google-maps__maps_elevation');
    expect(hybrid.warning).toBeUndefined();
  });

  it('is what createRouterTools gives tool_index with the semanticSearch option', async () => {
    const { embed } = conceptEmbedder();
    const tools = createRouterTools(namesOnlyProvider({}), corpusRegistry(), { semanticSearch: { embed } });
    const toolIndex = tools.find((tool) => tool.name === 'tool_index')!;
    const response = await search(toolIndex, 'How high above sea level is Denver?');
    expect(names(response)[0]).toBe('server-google-maps__maps_elevation');
  });

  it('embeds each tool once, then only queries, and after a change only the new tools', async () => {
    const registry = corpusRegistry();
    const { embed, calls } = conceptEmbedder();
    const tool = createToolIndexTool(registry, { semantic: { embed, batchSize: 20 } });
    // Two searches at once share one embedding of the catalog.
    await Promise.all([search(tool, 'remember this'), search(tool, 'remember this')]);
    const documents = () => calls.filter((call) => call.kind === 'document').flatMap((call) => call.texts);
    expect(documents()).toHaveLength(53);
    expect(calls.filter((call) => call.kind === 'document').every((call) => call.texts.length <= 20)).toBe(
      true,
    );
    await search(tool, 'remember this');
    await search(tool, 'post a message');
    expect(documents()).toHaveLength(53);
    const queries = calls.filter((call) => call.kind === 'query').map((call) => call.texts);
    expect(queries.slice(-1)).toEqual([['post a message']]);
    expect(queries.filter(([text]) => text === 'remember this').length).toBeLessThanOrEqual(2);
    const added = rememberFactTool();
    registry.register(added);
    const after = await search(tool, 'remember this');
    expect(documents().slice(53)).toEqual([embeddingText(added)]);
    expect(names(after)).toContain('notes__remember_fact');
  });

  it('keeps the category filter and ranks only lexically at weight 0', async () => {
    const { embed } = conceptEmbedder();
    const filtered = await search(
      createToolIndexTool(corpusRegistry(), { semantic: { embed } }),
      'How high is it',
      {
        category: 'server-memory',
      },
    );
    expect(names(filtered).every((name) => name.startsWith('server-memory__'))).toBe(true);
    const query = 'read a file from disk';
    const lexical = await search(createToolIndexTool(corpusRegistry()), query);
    const zero = await search(
      createToolIndexTool(corpusRegistry(), { semantic: { embed, weight: 0 } }),
      query,
    );
    expect(names(zero)).toEqual(names(lexical));
  });

  it('falls back to the lexical ranking with a warning when the embedder fails or misbehaves', async () => {
    const query = 'post a message to a channel';
    const lexical = names(await search(createToolIndexTool(corpusRegistry()), query));
    const failing: EmbedTexts = async () => {
      throw new Error('embedding service unavailable');
    };
    const failed = await search(
      createToolIndexTool(corpusRegistry(), { semantic: { embed: failing } }),
      query,
    );
    expect(names(failed)).toEqual(lexical);
    expect(failed.warning).toBe(
      'semantic search failed, lexical ranking only: embedding service unavailable',
    );
    let outage = true;
    const { embed: working } = conceptEmbedder();
    const flaky: EmbedTexts = async (texts, kind) => {
      if (outage) throw new Error('embedding service unavailable');
      return working(texts, kind);
    };
    const recovering = createToolIndexTool(corpusRegistry(), { semantic: { embed: flaky } });
    expect((await search(recovering, query)).warning).toContain('unavailable');
    outage = false;
    expect((await search(recovering, query)).warning).toBeUndefined();
    const uneven: EmbedTexts = async (texts, kind) =>
      texts.map(() => new Array(kind === 'document' ? 4 : 3).fill(1));
    const mismatched = await search(
      createToolIndexTool(corpusRegistry(), { semantic: { embed: uneven } }),
      query,
    );
    expect(names(mismatched)).toEqual(lexical);
    expect(mismatched.warning).toContain('embed returned a vector of 3 numbers, expected 4');
    const empty: EmbedTexts = async (texts) => texts.map(() => []);
    const none = await search(createToolIndexTool(corpusRegistry(), { semantic: { embed: empty } }), query);
    expect(none.warning).toContain('embed returned an empty vector');
    const short: EmbedTexts = async (texts) => texts.slice(1).map(() => [1]);
    const missing = await search(
      createToolIndexTool(new ToolRegistry(), { semantic: { embed: short } }),
      query,
    );
    expect(missing.tools).toEqual([]);
    const partial = await search(
      createToolIndexTool(corpusRegistry(), { semantic: { embed: short } }),
      query,
    );
    expect(partial.warning).toContain('embed returned 52 vectors for 53 texts');
  });

  it('answers lexically while the tools are still being embedded, then fuses', async () => {
    const query = 'How high above sea level is Denver?';
    const { embed: working, calls } = conceptEmbedder();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let embedding = 0;
    const slow: EmbedTexts = async (texts, kind) => {
      if (kind === 'document') {
        embedding += texts.length;
        await gate;
      }
      return working(texts, kind);
    };
    const tool = createToolIndexTool(corpusRegistry(), { semantic: { embed: slow, waitMs: 20 } });
    // A listing call already starts embedding the catalog.
    await tool.execute('list', {});
    expect(embedding).toBe(53);
    const lexical = names(await search(createToolIndexTool(corpusRegistry()), query));
    const early = await search(tool, query);
    expect(early.warning).toMatch(/still embedding the tools, lexical ranking only/);
    expect(names(early)).toEqual(lexical);
    release();
    await waitUntil(
      () => calls.some((call) => call.kind === 'document'),
      "until calls.some((call) => call.kind === 'document')",
    );
    const late = await search(tool, query);
    expect(late.warning).toBeUndefined();
    expect(names(late)[0]).toBe('server-google-maps__maps_elevation');
    // One embedding of the catalog, started by the listing call and shared by both searches.
    expect(embedding).toBe(53);
  });
});
