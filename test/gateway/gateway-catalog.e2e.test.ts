import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createAjv, createAjv2020, type DraftAjv } from '../../src/json/load-ajv.js';
import { startHttpFixture } from '../fixtures/spawn-http.js';
import { httpServer, stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, type RunningGateway, startGateway, toolNames } from './gateway-test-helpers.js';

/*
 * The gateway as a registry: `GET /v0.1/servers…` answers with `server.json` records whose one
 * remote is an endpoint of the gateway itself, checked against the registry API's own OpenAPI
 * document and `server.json` schema (spec/registry/), and filtered by who asks: the same front
 * door and the same visibility as `/mcp`. Alice is the owner and may use every profile; Bob's
 * token is bound to the `team` profile, and the `secretbox` server is Alice's only.
 */

const spec = new URL('../../spec/registry/', import.meta.url);
const openapi = parseYaml(readFileSync(new URL('openapi.yaml', spec), 'utf8')) as { $id: string };
const serverSchema = JSON.parse(readFileSync(new URL('server.schema.json', spec), 'utf8')) as { $id: string };

let ajv2020: DraftAjv;
let ajv07: DraftAjv;
/** Fails with ajv's own report when `value` does not follow the named OpenAPI component. */
function expectComponent(name: 'ServerList' | 'ServerResponse', value: unknown): void {
  const validate = ajv2020.getSchema(`${openapi.$id}#/components/schemas/${name}`);
  if (validate === undefined) throw new Error(`no component ${name}`);
  expect(validate(value) ? [] : validate.errors).toEqual([]);
}
/** Fails with ajv's report when `server` is not a valid `server.json`. */
function expectServerJson(server: unknown): void {
  const validate = ajv07.getSchema(serverSchema.$id);
  if (validate === undefined) throw new Error('no server.json schema');
  expect(validate(server) ? [] : validate.errors).toEqual([]);
}

const TOKENS = {
  alice: 'alice-token-0123456789abcdef',
  bob: 'bob-token-0123456789abcdef-b',
};
/** Secrets and launch details of the upstreams: none may appear in any registry answer. */
const CANARY_ENV = 'canary-env-value-5f1c9e';
const CANARY_HEADER = 'canary-header-value-77ad20';

let gateway: RunningGateway;
let origin: string;
let remote: Awaited<ReturnType<typeof startHttpFixture>>;
let echoCommand: { command: string; args: string[] };

interface Record {
  server: {
    name: string;
    version: string;
    description: string;
    $schema: string;
    remotes: {
      type: string;
      url: string;
      headers?: { name: string; value?: string; isSecret?: boolean }[];
    }[];
    _meta: { [key: string]: { profile: string; servers: string[] } };
  };
  _meta: { [key: string]: { status: string; isLatest: boolean; updatedAt: string } };
}
interface ServerList {
  servers: Record[];
  metadata: { count: number; nextCursor?: string };
}

/** Every answer's text, to look for a leaked secret afterwards. */
const answers: string[] = [];
async function get(path: string, who?: keyof typeof TOKENS): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${origin}${path}`, {
    headers: who === undefined ? {} : { authorization: `Bearer ${TOKENS[who]}` },
  });
  const text = await response.text();
  answers.push(text);
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, body };
}

const PUBLISHER = 'io.modelcontextprotocol.registry/publisher-provided';
const OFFICIAL = 'io.modelcontextprotocol.registry/official';

beforeAll(async () => {
  ajv2020 = createAjv2020({ strict: false, allErrors: true });
  ajv2020.addSchema(openapi);
  ajv07 = createAjv({ strict: false, allErrors: true });
  ajv07.addSchema(serverSchema);
  remote = await startHttpFixture('echo');
  const echo = stdioFixture('echo', [], { env: { ECHO_SECRET: CANARY_ENV } });
  echoCommand = { command: echo.command, args: echo.args ?? [] };
  gateway = await startGateway({
    servers: {
      echo,
      secretbox: stdioFixture('echo'),
      remote: httpServer(remote.url, { headers: { authorization: `Bearer ${CANARY_HEADER}` } }),
    },
    gateway: {
      tokens: {
        alice: { token: TOKENS.alice, owner: true },
        bob: { token: TOKENS.bob, profile: 'team' },
      },
      access: [{ servers: ['secretbox'], who: { principals: ['token:alice'] } }],
      profiles: {
        team: { mode: 'full' },
        ops: { mode: 'router', who: { principals: ['token:alice'] } },
      },
    },
  });
  origin = new URL(gateway.url).origin;
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await remote?.close();
});

describe('the gateway as a registry (v0.1)', () => {
  it("lists one record per profile the owner may use, each a valid ServerList entry and server.json pointing at the gateway's own endpoint", async () => {
    const { status, body } = await get('/v0.1/servers', 'alice');
    expect(status).toBe(200);
    expectComponent('ServerList', body);
    const list = body as ServerList;
    expect(list.servers.map((record) => record.server.name)).toEqual([
      '127.0.0.1/mcptools',
      '127.0.0.1/mcptools-ops',
      '127.0.0.1/mcptools-team',
    ]);
    expect(list.metadata).toEqual({ count: 3 });
    for (const record of list.servers) {
      expectComponent('ServerResponse', record);
      expectServerJson(record.server);
      expect(record.server.$schema).toBe(serverSchema.$id);
      expect(record._meta[OFFICIAL]).toMatchObject({ status: 'active', isLatest: true });
      // The one remote is this gateway's endpoint, its token asked of the person as a secret variable.
      expect(record.server.remotes).toHaveLength(1);
      expect(new URL(record.server.remotes[0]!.url).origin).toBe(origin);
      expect(record.server.remotes[0]!.headers).toEqual([
        expect.objectContaining({ name: 'Authorization', value: 'Bearer {token}', isSecret: true }),
      ]);
    }
    expect(list.servers.map((record) => new URL(record.server.remotes[0]!.url).pathname)).toEqual([
      '/mcp',
      '/mcp/ops',
      '/mcp/team',
    ]);
    expect(list.servers[0]!.server._meta[PUBLISHER]!.servers).toEqual(['echo', 'remote', 'secretbox']);
  });

  it("shows a token bound to one profile only that profile's record, without the servers it may not see", async () => {
    const { status, body } = await get('/v0.1/servers', 'bob');
    expect(status).toBe(200);
    expectComponent('ServerList', body);
    const list = body as ServerList;
    expect(list.servers.map((record) => record.server.name)).toEqual(['127.0.0.1/mcptools-team']);
    const [team] = list.servers;
    expect(team!.server._meta[PUBLISHER]!.servers).toEqual(['echo', 'remote']);
    // Alice's view of the same record names secretbox as well.
    const alices = (
      await get(`/v0.1/servers/${encodeURIComponent(team!.server.name)}/versions/latest`, 'alice')
    ).body as Record;
    expect(alices.server._meta[PUBLISHER]!.servers).toEqual(['echo', 'remote', 'secretbox']);
    // A record Bob may not use is not found for him, though it exists for Alice.
    const ops = encodeURIComponent('127.0.0.1/mcptools-ops');
    expect((await get(`/v0.1/servers/${ops}/versions`, 'bob')).status).toBe(404);
    expect((await get(`/v0.1/servers/${ops}/versions`, 'alice')).status).toBe(200);
  });

  it("each record's remote serves, to its caller, the tools it describes", async () => {
    const list = (await get('/v0.1/servers', 'bob')).body as ServerList;
    const team = list.servers[0]!;
    const client = await connectClient(team.server.remotes[0]!.url, 'modern', {
      headers: { authorization: `Bearer ${TOKENS.bob}` },
    });
    try {
      const names = await toolNames(client);
      expect(team.server.description).toContain(`${names.length} tools from 2 servers`);
      expect(names.some((name) => name.startsWith('secretbox'))).toBe(false);
      expect(names.some((name) => name.startsWith('echo'))).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('answers versions, one version and latest as ServerList and ServerResponse', async () => {
    const name = encodeURIComponent('127.0.0.1/mcptools');
    const versions = await get(`/v0.1/servers/${name}/versions`, 'alice');
    expect(versions.status).toBe(200);
    expectComponent('ServerList', versions.body);
    const [only] = (versions.body as ServerList).servers;
    const version = only!.server.version;
    for (const asked of [version, 'latest']) {
      const one = await get(`/v0.1/servers/${name}/versions/${encodeURIComponent(asked)}`, 'alice');
      expect(one.status).toBe(200);
      expectComponent('ServerResponse', one.body);
      expect((one.body as Record).server.name).toBe('127.0.0.1/mcptools');
    }
    expect((await get(`/v0.1/servers/${name}/versions/0.0.0-none`, 'alice')).status).toBe(404);
    expect((await get(`/v0.1/servers/${encodeURIComponent('x.y/none')}/versions`, 'alice')).status).toBe(404);
  });

  it('pages with an opaque cursor and filters by search, version and updated_since', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await get(
        `/v0.1/servers?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        'alice',
      );
      expectComponent('ServerList', page.body);
      const list = page.body as ServerList;
      expect(list.servers).toHaveLength(1);
      seen.push(list.servers[0]!.server.name);
      cursor = list.metadata.nextCursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(['127.0.0.1/mcptools', '127.0.0.1/mcptools-ops', '127.0.0.1/mcptools-team']);

    const names = async (query: string) =>
      ((await get(`/v0.1/servers?${query}`, 'alice')).body as ServerList).servers.map(
        (record) => record.server.name,
      );
    expect(await names('search=TEAM')).toEqual(['127.0.0.1/mcptools-team']);
    expect(await names('version=latest')).toHaveLength(3);
    expect(await names('version=0.0.0-none')).toEqual([]);
    expect(await names('updated_since=2000-01-01T00:00:00Z')).toHaveLength(3);
    expect(
      await names(`updated_since=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`),
    ).toEqual([]);
    expect((await get('/v0.1/servers?limit=0', 'alice')).status).toBe(400);
    expect((await get('/v0.1/servers?updated_since=yesterday', 'alice')).status).toBe(400);
    expect((await get('/v0.1/servers?cursor=%%%', 'alice')).status).toBe(400);
  });

  it('is behind the same front door as /mcp: no token or a wrong one gets 401, a write 405', async () => {
    expect((await get('/v0.1/servers')).status).toBe(401);
    const forged = await fetch(`${origin}/v0.1/servers`, {
      headers: { authorization: 'Bearer not-a-token-at-all-000' },
    });
    expect(forged.status).toBe(401);
    expect(
      (
        await fetch(`${origin}/v0.1/publish`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKENS.alice}`, 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(404);
    const put = await fetch(
      `${origin}/v0.1/servers/${encodeURIComponent('127.0.0.1/mcptools')}/versions/latest`,
      {
        method: 'PUT',
        headers: { authorization: `Bearer ${TOKENS.alice}` },
      },
    );
    expect(put.status).toBe(405);
  });

  it("never shows an upstream's command, arguments, URL, headers or environment", async () => {
    await get('/v0.1/servers', 'alice');
    const text = answers.join('\n');
    expect(answers.length).toBeGreaterThan(10);
    for (const secret of [
      CANARY_ENV,
      CANARY_HEADER,
      remote.url,
      new URL(remote.url).host,
      echoCommand.command,
      ...echoCommand.args,
      TOKENS.alice,
      TOKENS.bob,
    ])
      expect(text).not.toContain(secret);
  });
});
