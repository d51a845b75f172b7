import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogClient } from '../../src/catalog/catalog-client.js';
import { findCatalogEntry, searchCatalogs } from '../../src/catalog/catalog-lookup.js';
import { catalogSources } from '../../src/catalog/catalog-source.js';
import { checkCatalogStatus } from '../../src/catalog/catalog-status.js';
import { DEFAULT_CATALOG_URL } from '../../src/catalog/default-catalog-url.js';
import { createAjv } from '../../src/json/load-ajv.js';
import { type CatalogFixture, startCatalogFixture } from '../fixtures/registry/catalog-fixture.js';

let fixture: CatalogFixture;
let scratch: string;

beforeAll(async () => {
  fixture = await startCatalogFixture({ remote: false });
  scratch = mkdtempSync(join(tmpdir(), 'mcptools-catalog-client-'));
}, 60_000);

afterAll(async () => {
  await fixture?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the registry fixture', () => {
  it('serves records that follow the vendored server.json schema', () => {
    const schema = JSON.parse(readFileSync(resolve('spec/registry/server.schema.json'), 'utf8'));
    const ajv = createAjv({ strict: false, allErrors: true });
    const validate = ajv.compile(schema);
    for (const record of fixture.records) {
      // The vendored schema allows only https icons and the like; our loopback URLs are http.
      expect(validate(record.server), `${record.server.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    // The control: a record without its required description is refused by the same schema.
    const { description: _dropped, ...broken } = fixture.records[0]!.server;
    expect(validate(broken)).toBe(false);
  });
});

describe('CatalogClient', () => {
  it('lists with search, version, limit and cursor, following nextCursor to the end', async () => {
    const client = new CatalogClient({ url: fixture.url });
    const first = await client.list({ search: 'fixture', version: 'latest', limit: 3 });
    expect(first.servers).toHaveLength(3);
    expect(first.metadata?.nextCursor).toBeTruthy();
    const names = first.servers.map((entry) => entry.server.name);
    let cursor = first.metadata?.nextCursor ?? undefined;
    while (cursor) {
      const page = await client.list({ search: 'fixture', version: 'latest', limit: 3, cursor });
      names.push(...page.servers.map((entry) => entry.server.name));
      cursor = page.metadata?.nextCursor ?? undefined;
    }
    expect(names).toContain('io.github.fixture/probe');
    expect(names.filter((name) => name === 'io.github.fixture/probe')).toHaveLength(1);
    expect(names.every((name) => name.includes('fixture'))).toBe(true);
    const sent = fixture.requests.find((request) => request.path.includes('limit=3'));
    expect(sent?.path).toMatch(/search=fixture/);
    expect(sent?.path).toMatch(/version=latest/);
  });

  it('filters by updated_since and by an exact version', async () => {
    const client = new CatalogClient({ url: fixture.url });
    const recent = await client.list({ updatedSince: '2026-08-15T00:00:00Z', search: 'probe' });
    // probe@1.0.0 was last updated on 2026-08-01; the others on 2026-09-01.
    expect(recent.servers.map((entry) => `${entry.server.name}@${entry.server.version}`)).toEqual([
      'io.github.fixture/old-probe@1.0.0',
      'io.github.fixture/probe@1.0.1',
    ]);
    const exact = await client.list({ search: 'server-memory', version: '2026.7.4' });
    expect(exact.servers.map((entry) => entry.server.version)).toEqual(['2026.7.4']);
  });

  it('reads the versions of a server, one version, and latest; 404 is undefined', async () => {
    const client = new CatalogClient({ url: fixture.url });
    const versions = await client.versions('io.github.fixture/probe');
    expect(versions?.map((entry) => entry.server.version)).toEqual(['1.0.1', '1.0.0']);
    expect((await client.version('io.github.fixture/probe', '1.0.0'))?.server.version).toBe('1.0.0');
    expect((await client.version('io.github.fixture/probe'))?.server.version).toBe('1.0.1');
    expect(await client.version('io.github.fixture/nothing-here')).toBeUndefined();
    expect(await client.versions('io.github.fixture/nothing-here')).toBeUndefined();
  });

  it('refuses an answer that does not follow the API, naming the registry', async () => {
    const client = new CatalogClient(
      { url: fixture.url },
      { fetch: async () => new Response(JSON.stringify({ servers: [{ server: { name: 'x' } }] })) },
    );
    await expect(client.list()).rejects.toThrow(
      `the registry ${fixture.url} answered /v0.1/servers with a record`,
    );
  });

  it('answers from the cache when the registry is unreachable, with a warning', async () => {
    const { CatalogCache } = await import('../../src/catalog/catalog-cache.js');
    const cache = new CatalogCache(join(scratch, 'cache'));
    const warnings: string[] = [];
    const online = new CatalogClient({ url: fixture.url }, { cache });
    expect((await online.version('io.github.fixture/probe'))?.server.version).toBe('1.0.1');
    const offline = new CatalogClient(
      { url: fixture.url },
      {
        cache,
        onWarning: (message) => warnings.push(message),
        fetch: async () => Promise.reject(new TypeError('fetch failed')),
      },
    );
    expect((await offline.version('io.github.fixture/probe'))?.server.version).toBe('1.0.1');
    expect(warnings[0]).toMatch(/cannot be reached .* using its answer cached at/);
    await expect(offline.version('io.github.fixture/old-probe')).rejects.toThrow(/nothing of it is cached/);
  });

  it('sends a registry’s headers with every request', async () => {
    const privateFixture = await startCatalogFixture({
      remote: false,
      requireHeader: { name: 'Authorization', value: 'Bearer team' },
    });
    try {
      await expect(new CatalogClient({ url: privateFixture.url }).list()).rejects.toThrow(
        /answered HTTP 401/,
      );
      const page = await new CatalogClient({
        url: privateFixture.url,
        headers: { Authorization: 'Bearer team' },
      }).list();
      expect(page.servers.length).toBeGreaterThan(0);
    } finally {
      await privateFixture.close();
    }
  });
});

describe('catalog lookups', () => {
  it('searches registries in order, the first one winning a name', async () => {
    const found = await searchCatalogs([{ url: fixture.url }, { url: fixture.url }], 'probe');
    expect(found.map((item) => item.entry.server.name).sort()).toEqual([
      'io.github.fixture/old-probe',
      'io.github.fixture/probe',
    ]);
  });

  it('finds a version in the first registry that has it, else names every registry', async () => {
    const missing = 'http://127.0.0.1:9/none';
    const { entry, source } = await findCatalogEntry(
      [{ url: fixture.url }],
      'io.github.fixture/probe',
      '1.0.0',
    );
    expect([entry.server.version, source.url]).toEqual(['1.0.0', fixture.url]);
    await expect(findCatalogEntry([{ url: fixture.url }], 'io.github.fixture/absent')).rejects.toThrow(
      `io.github.fixture/absent is not in ${fixture.url}`,
    );
    await expect(findCatalogEntry([{ url: missing }], 'io.github.fixture/probe')).rejects.toThrow(
      /cannot be reached/,
    );
  });

  it('refuses a deleted record and warns of a deprecated one with its message', async () => {
    const deleted = await new CatalogClient({ url: fixture.url }).version('io.github.fixture/withdrawn');
    expect(() => checkCatalogStatus(deleted!)).toThrow(
      /is deleted in its registry and is not installed: withdrawn/,
    );
    const deprecated = await new CatalogClient({ url: fixture.url }).version('io.github.fixture/old-probe');
    expect(checkCatalogStatus(deprecated!)).toMatch(
      /deprecated in its registry: renamed: use io.github.fixture\/probe/,
    );
    const active = await new CatalogClient({ url: fixture.url }).version('io.github.fixture/probe');
    expect(checkCatalogStatus(active!)).toBeUndefined();
  });

  it('reads MCPTOOLS_REGISTRY for one run, else the configured list, else the official registry', () => {
    expect(catalogSources(undefined, {})).toEqual([{ url: DEFAULT_CATALOG_URL }]);
    expect(catalogSources([{ url: 'http://127.0.0.1:1', headers: { a: 'b' } }], {})).toEqual([
      { url: 'http://127.0.0.1:1', headers: { a: 'b' } },
    ]);
    expect(
      catalogSources([{ url: 'http://127.0.0.1:1' }], { MCPTOOLS_REGISTRY: 'http://127.0.0.1:2' }),
    ).toEqual([{ url: 'http://127.0.0.1:2' }]);
  });
});
