// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} placeholders under test, not templates.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { redactConfig } from '../../src/config/redact-config.js';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { createRouterTools } from '../../src/router/create-router-tools.js';
import { openAIEmbeddings } from '../../src/router/search/openai-embeddings.js';
import { caughtMcpToolsError } from '../caught-error.js';
import { conceptVector } from './concept-embedder.js';
import { jsonOf, namesOnlyProvider } from './router-test-helpers.js';
import { corpusRegistry } from './tool-index-corpus.js';

const apiKey = 'sk-test-9f8e7d6c5b4a';

interface Received {
  headers: IncomingHttpHeaders;
  body: { model: string; input: string[]; dimensions?: number };
}

type Answer = { status: number; body: string } | 'hang';

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI embeddings API with concept vectors,
 * answering in reverse order (with `index`, as the API allows). `answer` overrides a reply.
 */
let server: Server;
let url: string;
const received: Received[] = [];
let answer: ((request: Received) => Answer | undefined) | undefined;

beforeAll(async () => {
  server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      const entry: Received = { headers: request.headers, body: JSON.parse(raw) };
      received.push(entry);
      const override = answer?.(entry);
      if (override === 'hang') return;
      const data = entry.body.input.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: conceptVector(text),
      }));
      const { status, body } = override ?? { status: 200, body: JSON.stringify({ data: data.reverse() }) };
      response.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/embeddings`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function configWith(semanticSearch: Record<string, unknown>, env: Record<string, string> = {}) {
  return parseConfig(
    { servers: {}, router: { semanticSearch } },
    { file: 'mcptools.json', cwd: '/project', homeDir: '/home/user', env, onWarning: () => {} },
  );
}

describe('openAIEmbeddings', () => {
  it('posts the model, the prefixed texts and the key, and returns vectors in input order', async () => {
    answer = undefined;
    const embed = openAIEmbeddings({
      url,
      model: 'concepts',
      apiKey,
      headers: { 'x-team': 'search' },
      dimensions: 4,
      queryPrefix: 'query: ',
      documentPrefix: 'passage: ',
    });
    const vectors = await embed(['elevation of a point', 'post to a channel'], 'document');
    expect(vectors).toEqual([conceptVector('elevation of a point'), conceptVector('post to a channel')]);
    const last = received.at(-1)!;
    expect(last.body).toEqual({
      model: 'concepts',
      input: ['passage: elevation of a point', 'passage: post to a channel'],
      dimensions: 4,
    });
    expect(last.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(last.headers['x-team']).toBe('search');
    await embed(['how high'], 'query');
    expect(received.at(-1)!.body.input).toEqual(['query: how high']);
  });

  it('reports an HTTP error without the key, even when the server echoes it', async () => {
    answer = (request) => ({
      status: 401,
      body: JSON.stringify({ error: { message: `Incorrect API key: ${request.headers.authorization}` } }),
    });
    const error = await caughtMcpToolsError(() =>
      openAIEmbeddings({ url, model: 'concepts', apiKey })(['x'], 'query'),
    );
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(error.message).toContain('HTTP 401');
    expect(error.message).toContain('Incorrect API key');
    expect(error.message).not.toContain(apiKey);
    expect(error.recoverable).toBe(false);
  });

  it('rejects answers that do not hold one vector of numbers per text', async () => {
    const embed = openAIEmbeddings({ url, model: 'concepts' });
    answer = () => ({ status: 200, body: JSON.stringify({ data: [{ index: 0, embedding: [1, 2] }] }) });
    expect((await caughtMcpToolsError(() => embed(['a', 'b'], 'document'))).message).toContain(
      '1 embeddings for 2 texts',
    );
    answer = () => ({ status: 200, body: JSON.stringify({ data: [{ index: 0, embedding: 'AAAA' }] }) });
    expect((await caughtMcpToolsError(() => embed(['a'], 'document'))).message).toContain(
      'not a list of numbers',
    );
    answer = () => ({ status: 200, body: '<html>' });
    expect((await caughtMcpToolsError(() => embed(['a'], 'document'))).message).toContain('not JSON');
  });

  it('times out on an endpoint that never answers, and names an unreachable one', async () => {
    answer = () => 'hang';
    const slow = await caughtMcpToolsError(() =>
      openAIEmbeddings({ url, model: 'concepts', timeoutMs: 150 })(['a'], 'query'),
    );
    expect(slow.code).toBe('TIMEOUT');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await caughtMcpToolsError(() =>
      openAIEmbeddings({ url: `http://127.0.0.1:${port}/v1/embeddings?key=${apiKey}`, model: 'm' })(
        ['a'],
        'query',
      ),
    );
    expect(unreachable.code).toBe('CONNECTION_FAILED');
    expect(unreachable.message).toContain(`127.0.0.1:${port}`);
    expect(unreachable.message).not.toContain(apiKey);
  });
});

describe('router.semanticSearch in the config', () => {
  it('gives tool_index the configured endpoint, with ${VAR} in the URL and the key', async () => {
    answer = undefined;
    const config = configWith(
      { url: '${EMBED_URL}', model: 'concepts', apiKey: '${EMBED_KEY}', weight: 0.5 },
      { EMBED_URL: url, EMBED_KEY: apiKey },
    );
    expect(config.router?.semanticSearch).toMatchObject({ url, apiKey, weight: 0.5 });
    const toolIndex = createRouterTools(namesOnlyProvider({}), corpusRegistry(), { config }).find(
      (tool) => tool.name === 'tool_index',
    )!;
    const before = received.length;
    const response = jsonOf<{ tools: { name: string }[]; warning?: string }>(
      await toolIndex.execute('t', { search: 'How high above sea level is Denver?' }),
    );
    expect(response.warning).toBeUndefined();
    expect(response.tools[0]?.name).toBe('server-google-maps__maps_elevation');
    expect(
      received.slice(before).every((request) => request.headers.authorization === `Bearer ${apiKey}`),
    ).toBe(true);
  });

  it('falls back to the lexical ranking with a warning free of the key when the endpoint fails', async () => {
    answer = (request) => ({ status: 500, body: `upstream broke for ${request.headers.authorization}` });
    const config = configWith({ url, model: 'concepts', apiKey });
    const toolIndex = createRouterTools(namesOnlyProvider({}), corpusRegistry(), { config }).find(
      (tool) => tool.name === 'tool_index',
    )!;
    const response = jsonOf<{ tools: { name: string }[]; warning?: string }>(
      await toolIndex.execute('t', { search: 'read a file' }),
    );
    expect(response.tools.length).toBeGreaterThan(0);
    expect(response.warning).toContain('HTTP 500');
    expect(response.warning).not.toContain(apiKey);
  });

  it('names the file and the field of a bad entry', () => {
    const error = (value: Record<string, unknown>, env: Record<string, string> = {}) => {
      try {
        configWith(value, env);
      } catch (caught) {
        if (McpToolsError.isInstance(caught)) return caught.message;
      }
      throw new Error('expected a config error');
    };
    expect(error({ url })).toBe(
      'mcptools.json: field "router.semanticSearch.model": is required (expected string)',
    );
    expect(error({ url: 'ftp://host/x', model: 'm' })).toMatch(
      /^mcptools\.json: field "router\.semanticSearch\.url": Invalid URL/,
    );
    expect(error({ url, model: 'm', weight: 2 })).toMatch(
      /^mcptools\.json: field "router\.semanticSearch\.weight"/,
    );
    expect(error({ url, model: 'm', apiKey: '${MISSING_KEY}' })).toMatch(
      /^mcptools\.json: field "router\.semanticSearch\.apiKey": environment variable "MISSING_KEY" is not set/,
    );
    expect(error({ url, model: 'm', modle: 'x' })).toMatch(/router\.semanticSearch\.modle/);
  });

  it('keeps tool vectors in cacheDir, one file per endpoint and model', async () => {
    answer = undefined;
    expect(configWith({ url, model: 'm', cacheDir: '.cache/vectors' }).router?.semanticSearch?.cacheDir).toBe(
      '/project/.cache/vectors',
    );
    expect(configWith({ url, model: 'm', cacheDir: '~/vectors' }).router?.semanticSearch?.cacheDir).toBe(
      '/home/user/vectors',
    );
    const cacheDir = mkdtempSync(join(tmpdir(), 'mcptools-vectors-'));
    try {
      const toolIndexOf = (model: string) =>
        createRouterTools(namesOnlyProvider({}), corpusRegistry(), {
          config: configWith({ url, model, cacheDir }),
        }).find((tool) => tool.name === 'tool_index')!;
      const embeddedTexts = () => received.reduce((sum, request) => sum + request.body.input.length, 0);
      const before = embeddedTexts();
      await toolIndexOf('concepts').execute('t', { search: 'remember this' });
      expect(embeddedTexts() - before).toBe(54);
      await toolIndexOf('concepts').execute('t', { search: 'remember this' });
      expect(embeddedTexts() - before).toBe(55);
      await toolIndexOf('concepts-v2').execute('t', { search: 'remember this' });
      expect(embeddedTexts() - before).toBe(55 + 54);
      expect(readdirSync(cacheDir).sort()).toEqual([
        expect.stringMatching(/^concepts-[0-9a-f]{12}\.json$/),
        expect.stringMatching(/^concepts-v2-[0-9a-f]{12}\.json$/),
      ]);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('is redacted for printing', () => {
    const config = configWith({
      url: `${url}?api-version=1&key=${apiKey}`,
      model: 'concepts',
      apiKey,
      headers: { 'api-key': apiKey },
    });
    const printed = JSON.stringify(redactConfig(config));
    expect(printed).not.toContain(apiKey);
    expect(redactConfig(config).router?.semanticSearch).toMatchObject({
      model: 'concepts',
      apiKey: '***',
      headers: { 'api-key': '***' },
    });
  });
});
