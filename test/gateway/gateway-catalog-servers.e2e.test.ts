import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planAdd } from '../../src/catalog/add-server.js';
import { buildEntry } from '../../src/catalog/build-entry.js';
import { findCatalogEntry, searchCatalogs } from '../../src/catalog/catalog-lookup.js';
import type { CatalogSource } from '../../src/catalog/catalog-source.js';
import { createAjv, type DraftAjv } from '../../src/json/load-ajv.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, type RunningGateway, startGateway, toolNames } from './gateway-test-helpers.js';

/*
 * The gateway as its team's registry, one record per server: with `gateway.serverEndpoints`
 * each configured server is served alone at `/mcp/<server>` and listed as its own record, read
 * here with mcptools' own registry client (what `mcptools add` and `registry search` use) and
 * added through `planAdd`/`buildEntry` as a host would. Alice is the owner; Bob is another
 * caller who may not see `secretbox`; `hidden` is denied by the default endpoint's filter.
 */

const TOKENS = { alice: 'alice-token-0123456789abcdef', bob: 'bob-token-0123456789abcdef-b' };
const serverSchema = JSON.parse(
  readFileSync(new URL('../../spec/registry/server.schema.json', import.meta.url), 'utf8'),
) as { $id: string };

let gateway: RunningGateway;
let origin: string;
let ajv: DraftAjv;
const sourceOf = (who: keyof typeof TOKENS): CatalogSource => ({
  url: origin,
  headers: { authorization: `Bearer ${TOKENS[who]}` },
});

beforeAll(async () => {
  ajv = createAjv({ strict: false, allErrors: true });
  ajv.addSchema(serverSchema);
  gateway = await startGateway({
    servers: {
      echo: stdioFixture('echo'),
      secretbox: stdioFixture('echo'),
      hidden: stdioFixture('echo'),
      off: { ...stdioFixture('echo'), enabled: false },
    },
    gateway: {
      serverEndpoints: true,
      servers: { deny: ['hidden'] },
      tokens: { alice: { token: TOKENS.alice, owner: true }, bob: { token: TOKENS.bob } },
      access: [{ servers: ['secretbox'], who: { principals: ['token:alice'] } }],
      profiles: { team: { mode: 'router' } },
    },
  });
  origin = new URL(gateway.url).origin;
}, 120_000);

afterAll(async () => {
  await gateway?.close();
});

describe('the gateway as a registry, one record per server', () => {
  it('lists a record per server the caller may see, each a server.json whose remote is that server’s own endpoint', async () => {
    const found = await searchCatalogs([sourceOf('alice')], '');
    const names = found.map(({ entry }) => entry.server.name).sort();
    // The default endpoint, the configured profile, and one per served server: not the denied
    // nor the disabled one.
    expect(names).toEqual([
      '127.0.0.1/mcptools',
      '127.0.0.1/mcptools-echo',
      '127.0.0.1/mcptools-secretbox',
      '127.0.0.1/mcptools-team',
    ]);
    const echo = found.find(({ entry }) => entry.server.name === '127.0.0.1/mcptools-echo')!.entry;
    const validate = ajv.getSchema(serverSchema.$id)!;
    expect(validate(echo.server) ? [] : validate.errors).toEqual([]);
    expect(echo.server.remotes).toEqual([
      expect.objectContaining({ type: 'streamable-http', url: `${origin}/mcp/echo` }),
    ]);
    expect(echo.server.description).toContain('server echo through the mcptools gateway');
    expect(
      (echo.server._meta as Record<string, { server?: string; servers?: string[] }>)[
        'io.modelcontextprotocol.registry/publisher-provided'
      ],
    ).toMatchObject({ server: 'echo', servers: ['echo'] });
  });

  it('shows another caller only the servers it may see, and does not serve it the others’ endpoints', async () => {
    const found = await searchCatalogs([sourceOf('bob')], '');
    expect(found.map(({ entry }) => entry.server.name).sort()).toEqual([
      '127.0.0.1/mcptools',
      '127.0.0.1/mcptools-echo',
      '127.0.0.1/mcptools-team',
    ]);
    await expect(findCatalogEntry([sourceOf('bob')], '127.0.0.1/mcptools-secretbox')).rejects.toThrow(
      'is not in',
    );
    const post = (path: string, who: keyof typeof TOKENS) =>
      fetch(`${origin}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKENS[who]}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          },
        }),
      });
    const refused = await post('/mcp/secretbox', 'bob');
    await refused.body?.cancel();
    expect(refused.status).toBe(404);
    const denied = await post('/mcp/hidden', 'alice');
    await denied.body?.cancel();
    expect(denied.status).toBe(404);
    // The control: the owner reaches it.
    const allowed = await post('/mcp/secretbox', 'alice');
    await allowed.body?.cancel();
    expect(allowed.status).toBe(200);
  });

  it('is added by a host as any registry record, and its endpoint serves that server’s tools only', async () => {
    const plan = await planAdd({
      spec: '127.0.0.1/mcptools-echo',
      sources: [sourceOf('bob')],
      canRun: () => false,
    });
    expect(plan.entry).toBe('mcptools-echo');
    expect(plan.target.kind).toBe('remote');
    // The gateway's token is asked of the person as a secret, never held by the record.
    expect(plan.inputs).toEqual([expect.objectContaining({ key: 'token', secret: true, required: true })]);
    const built = buildEntry(plan.entry, plan.target, { token: TOKENS.bob });
    expect(built.server).toEqual({
      type: 'streamable-http',
      url: `${origin}/mcp/echo`,
      headers: { Authorization: 'Bearer ${vault:mcptools-echo/token}' },
    });
    const client = await connectClient(`${origin}/mcp/echo`, 'legacy', {
      headers: { authorization: `Bearer ${TOKENS.bob}` },
    });
    try {
      const names = await toolNames(client);
      expect(names.length).toBeGreaterThan(0);
      expect(names.every((name) => name.startsWith('echo'))).toBe(true);
    } finally {
      await client.close();
    }
    // The control: the default endpoint serves the other servers too.
    const all = await connectClient(`${origin}/mcp`, 'legacy', {
      headers: { authorization: `Bearer ${TOKENS.alice}` },
    });
    try {
      expect((await toolNames(all)).some((name) => name.startsWith('secretbox'))).toBe(true);
    } finally {
      await all.close();
    }
  });

  it('follows a reload: a server entry removed loses its record, one added gets its own', async () => {
    const before = (await searchCatalogs([sourceOf('alice')], '')).map(({ entry }) => entry.server.name);
    expect(before).toContain('127.0.0.1/mcptools-secretbox');
    await gateway.gateway.reconfigure({
      servers: { echo: stdioFixture('echo'), later: stdioFixture('echo') },
      gateway: {
        serverEndpoints: true,
        tokens: { alice: { token: TOKENS.alice, owner: true }, bob: { token: TOKENS.bob } },
      },
    });
    const after = (await searchCatalogs([sourceOf('alice')], '')).map(({ entry }) => entry.server.name);
    expect(after.sort()).toEqual([
      '127.0.0.1/mcptools',
      '127.0.0.1/mcptools-echo',
      '127.0.0.1/mcptools-later',
    ]);
  });
});
