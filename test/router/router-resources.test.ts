import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpToolsConfig } from '../../src/config/config-types.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { createRouterTools } from '../../src/router/create-router-tools.js';
import type { RouterToolsOptions } from '../../src/router/router-options.js';
import type { Tool } from '../../src/tool/tool.js';
import { everythingServer, firstText, fixtureServer, jsonOf } from './router-test-helpers.js';

const STRADDLE_PREFIX = 1023;

let provider: McpToolHub;
let registry: ToolRegistry;
const config: McpToolsConfig = {
  servers: {
    everything: everythingServer(),
    alpha: fixtureServer('resources', ['--name', 'alpha']),
    beta: fixtureServer('resources', ['--name', 'beta']),
    broken: fixtureServer('exit-at-start'),
    off: { ...fixtureServer('resources'), enabled: false },
  },
};

function routerTools(options: RouterToolsOptions = {}): Record<string, Tool> {
  return Object.fromEntries(createRouterTools(provider, registry, options).map((tool) => [tool.name, tool]));
}

beforeAll(async () => {
  registry = new ToolRegistry();
  provider = await loadMcpServers(config, registry, { reconnect: { enabled: false } });
});

afterAll(async () => {
  await provider?.close();
});

describe('list_mcp_resources against real servers', () => {
  it('lists every connected server in one call, templates included, and reports the dead one in errors', async () => {
    const { list_mcp_resources: list } = routerTools();
    const result = await list!.execute('l1', {});
    expect(result.isError).toBeUndefined();
    const payload = jsonOf(result);
    expect(result.details).toEqual(payload);
    const servers = new Set(payload.resources.map((entry: { server: string }) => entry.server));
    expect(servers).toEqual(new Set(['everything', 'alpha', 'beta']));
    expect(payload.resources[0]).toEqual(
      expect.objectContaining({
        server: expect.any(String),
        uri: expect.any(String),
        name: expect.any(String),
      }),
    );
    expect(Object.keys(payload.resources[0])).toEqual(['server', 'uri', 'name', 'description', 'mime_type']);
    const templates = payload.templates.map(
      (entry: { server: string; uri_template: string }) => `${entry.server} ${entry.uri_template}`,
    );
    expect(templates).toContain('everything demo://resource/dynamic/text/{resourceId}');
    expect(templates).toContain('alpha res://template/{name}');
    expect(payload.errors).toEqual([
      expect.objectContaining({
        server: 'broken',
        type: 'ConnectionFailed',
        recoverable: true,
        error: expect.any(String),
      }),
    ]);
    expect(payload.truncated).toBe(false);
    expect(payload.count).toBe(payload.resources.length + payload.templates.length);
    expect(payload.next_cursor).toBeUndefined();
  });

  it('caps at max, then pages to the end with next_cursor without losing or repeating an entry', async () => {
    const { list_mcp_resources: list } = routerTools();
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const payload = jsonOf(
        await list!.execute('l2', { server: 'alpha', max: 10, ...(cursor ? { cursor } : {}) }),
      );
      pages++;
      expect(payload.count).toBeLessThanOrEqual(10);
      for (const entry of payload.resources) seen.push(entry.uri);
      for (const entry of payload.templates) seen.push(entry.uri_template);
      expect(payload.truncated).toBe(payload.next_cursor !== undefined);
      cursor = payload.next_cursor;
    } while (cursor && pages < 10);
    // 35 resources + 1 template in the fixture.
    expect(seen).toHaveLength(36);
    expect(new Set(seen).size).toBe(36);
    expect(pages).toBe(4);
    expect(seen).toContain('res://template/{name}');
  });

  it('takes its default cap from config.router.listMaxResources', async () => {
    const { list_mcp_resources: list } = routerTools({ config: { router: { listMaxResources: 20 } } });
    const payload = jsonOf(await list!.execute('l3', {}));
    expect(payload.count).toBe(20);
    expect(payload.truncated).toBe(true);
    expect(typeof payload.next_cursor).toBe('string');
  });

  it('rejects a cursor made for another listing', async () => {
    const { list_mcp_resources: list } = routerTools();
    const first = jsonOf(await list!.execute('l4', { server: 'alpha', max: 5 }));
    const misuse = await list!.execute('l5', { server: 'beta', cursor: first.next_cursor });
    expect(misuse.isError).toBe(true);
    expect(jsonOf(misuse).error.type).toBe('InvalidArguments');
  });

  it('keeps the same URI on two servers apart', async () => {
    const { list_mcp_resources: list, read_mcp_resource: read } = routerTools();
    const payload = jsonOf(await list!.execute('l6', {}));
    const shared = payload.resources.filter((entry: { uri: string }) => entry.uri === 'shared://same');
    expect(shared.map((entry: { server: string }) => entry.server).sort()).toEqual(['alpha', 'beta']);
    const fromAlpha = jsonOf(await read!.execute('r1', { server: 'alpha', uri: 'shared://same' }));
    const fromBeta = jsonOf(await read!.execute('r2', { server: 'beta', uri: 'shared://same' }));
    expect(fromAlpha.contents[0].text).toBe('served by alpha');
    expect(fromBeta.contents[0].text).toBe('served by beta');
  });

  it('renders a listing in the compact format, partial when a server failed', async () => {
    const { list_mcp_resources: list } = routerTools({ format: 'compact' });
    const result = await list!.execute('l9', {});
    expect(result.isError).toBeUndefined();
    const [head, body] = firstText(result).split('\n');
    expect(head).toMatch(
      /^⚠️ mcp resource list: 3 server\(s\), \d+ resource\(s\), 4 template\(s\) \(1 server\(s\) failed\)$/,
    );
    expect(body).toContain('  state: partial | data: {servers: [{name: "everything", resources: ["demo://');
    expect(body).toContain('errors: [{server: "broken", error: ');
    expect((result.details as { errors: unknown[] }).errors).toHaveLength(1);
  });

  it('answers an unknown server with an error naming the configured ones', async () => {
    const { list_mcp_resources: list } = routerTools();
    const result = await list!.execute('l7', { server: 'nope' });
    expect(result.isError).toBe(true);
    expect(jsonOf(result).error.msg).toContain('alpha');
  });
});

describe('read_mcp_resource against real servers', () => {
  it('cuts text on a UTF-8 character boundary, never inside a multi-byte sequence', async () => {
    const { read_mcp_resource: read } = routerTools();
    const euro = jsonOf(
      await read!.execute('r3', { server: 'alpha', uri: 'res://straddle/euro', max_bytes: 1024 }),
    );
    expect(euro.truncated).toBe(true);
    expect(euro.contents[0].text).toBe('a'.repeat(STRADDLE_PREFIX));
    const emoji = jsonOf(
      await read!.execute('r4', { server: 'alpha', uri: 'res://straddle/emoji', max_bytes: 1024 }),
    );
    expect(emoji.contents[0].text).toBe('a'.repeat(1022));
    expect(emoji.contents[0].text).not.toContain('\uFFFD');
    const whole = jsonOf(
      await read!.execute('r5', { server: 'alpha', uri: 'res://straddle/euro', max_bytes: 1026 }),
    );
    expect(whole.contents[0].text).toBe(`${'a'.repeat(STRADDLE_PREFIX)}€`);
  });

  it('returns a blob larger than the cap verbatim with its decoded length', async () => {
    const { read_mcp_resource: read } = routerTools();
    const payload = jsonOf(await read!.execute('r6', { server: 'alpha', uri: 'res://big/blob' }));
    expect(payload.truncated).toBe(false);
    const [content] = payload.contents;
    expect(content.text).toBeNull();
    expect(content.blob_length).toBe(300 * 1024);
    const bytes = Buffer.from(content.blob, 'base64');
    expect(bytes.length).toBe(300 * 1024);
    expect(bytes[257]).toBe(1);
    expect(Object.keys(content)).toEqual(['uri', 'mime_type', 'text', 'blob_length', 'blob']);
  });

  it('cuts long text at the 256 KiB default and reports partial in the compact format', async () => {
    const { read_mcp_resource: read } = routerTools();
    const payload = jsonOf(await read!.execute('r7', { server: 'alpha', uri: 'res://big/text' }));
    expect(payload.truncated).toBe(true);
    expect(Buffer.byteLength(payload.contents[0].text)).toBe(256 * 1024);
    const compact = routerTools({ format: 'compact', readMaxBytes: 1000 }).read_mcp_resource!;
    const result = await compact.execute('r8', { server: 'alpha', uri: 'res://big/text' });
    const [head, body] = firstText(result).split('\n');
    expect(head).toMatch(/^⚠️ mcp resource read: res:\/\/big\/text \(truncated/);
    expect(body).toMatch(/^ {2}state: partial \| data: \{uri: "res:\/\/big\/text", content: "line 00000/);
    expect(body).toContain('truncated: true, original_size: 409600, shown: 1000}');
    expect(body).toMatch(/meta: \{agent: mcp, time: [\d.]+, ts: "[^"]+"\}$/);
    expect((result.details as { truncated: boolean }).truncated).toBe(true);
  });

  it('reads static documents and templated text and blobs of server-everything', async () => {
    const { list_mcp_resources: list, read_mcp_resource: read } = routerTools();
    const listed = jsonOf(await list!.execute('l8', { server: 'everything' }));
    const doc = listed.resources.find((entry: { uri: string }) =>
      entry.uri.startsWith('demo://resource/static/document/'),
    );
    expect(doc).toBeDefined();
    const docPayload = jsonOf(await read!.execute('r9', { server: 'everything', uri: doc.uri }));
    expect(docPayload.contents[0].text.length).toBeGreaterThan(0);
    expect(docPayload.contents[0].blob).toBeNull();
    const blob = jsonOf(
      await read!.execute('r10', { server: 'everything', uri: 'demo://resource/dynamic/blob/7' }),
    );
    const decoded = Buffer.from(blob.contents[0].blob, 'base64');
    expect(blob.contents[0].blob_length).toBe(decoded.length);
    expect(decoded.toString('utf8')).toContain('Resource 7');
    const text = jsonOf(
      await read!.execute('r11', { server: 'everything', uri: 'demo://resource/dynamic/text/3' }),
    );
    expect(text.contents[0].text).toContain('Resource 3');
  });

  it('answers a missing resource with ResourceNotFound listing what the server has', async () => {
    const { read_mcp_resource: read } = routerTools();
    const result = await read!.execute('r12', { server: 'alpha', uri: 'res://missing' });
    expect(result.isError).toBe(true);
    const { error } = jsonOf(result);
    expect(error).toMatchObject({
      type: 'ResourceNotFound',
      recoverable: false,
      msg: "URI 'res://missing' not found on server 'alpha'",
    });
    expect(error.available).toContain('res://item/1');
    expect(error.available.length).toBeLessThanOrEqual(20);
    expect(error.available_total).toBe(35);
    expect(error.available_templates).toEqual(['res://template/{name}']);
  });

  it('answers a malformed URI with InvalidURI before asking the server', async () => {
    const { read_mcp_resource: read } = routerTools({ format: 'compact' });
    const result = await read!.execute('r13', { server: 'alpha', uri: 'not a uri' });
    expect(result.isError).toBe(true);
    const [head, body] = firstText(result).split('\n');
    expect(head).toBe('❌ mcp InvalidURI: invalid URI format');
    expect(body).toMatch(
      /^ {2}state: error \| data: \{type: "InvalidURI", msg: ".+", recoverable: true\} \| meta: /,
    );
  });

  it('answers a server that never started with ConnectionFailed', async () => {
    const { read_mcp_resource: read } = routerTools();
    const result = await read!.execute('r14', { server: 'broken', uri: 'res://item/1' });
    expect(result.isError).toBe(true);
    expect(jsonOf(result).error).toMatchObject({ type: 'ConnectionFailed', recoverable: true });
  });

  it('reports an aborted read as an Aborted error result instead of throwing', async () => {
    const { read_mcp_resource: read } = routerTools();
    const controller = new AbortController();
    controller.abort();
    const result = await read!.execute('r16', { server: 'alpha', uri: 'res://item/1' }, controller.signal);
    expect(result.isError).toBe(true);
    expect(jsonOf(result).error).toMatchObject({ type: 'Aborted', recoverable: true });
  });

  it('validates its own arguments', async () => {
    const { read_mcp_resource: read } = routerTools();
    const result = await read!.execute('r15', { server: 'alpha' });
    expect(result.isError).toBe(true);
    expect(jsonOf(result).error).toMatchObject({ type: 'InvalidArguments', msg: 'field "uri" is required' });
  });
});
