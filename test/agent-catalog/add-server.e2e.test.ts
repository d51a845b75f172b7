import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonc } from '../../src/config/parse-jsonc.js';
import { cliScratch, runCli } from '../cli/cli-process.js';
import {
  type CatalogFixture,
  REMOTE_API_KEY,
  startCatalogFixture,
} from '../fixtures/registry/catalog-fixture.js';
import {
  connectClient,
  type RunningGateway,
  startGateway,
  toolNames,
} from '../gateway/gateway-test-helpers.js';
import { type ServedHttp, startServeHttp } from '../gateway/start-serve-http.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';

/*
 * An agent finds and adds a server through `mcptools serve` (the built CLI) with
 * `router.catalogTools`: `find_server` and `add_server` go through the tool-call pipeline, each
 * call asked of the person (a form elicitation the test's client answers), and an added server's
 * tools appear in a connected client's list, with `tools/list_changed`, only after an operator
 * approved them with `mcptools pins approve`. The registries are two other gateways serving the
 * registry API: one open (its record needs nothing), one behind a token (its record needs the
 * token, a secret, which add_server never takes from the model).
 */

const OWNER_TOKEN = 'owner-token-for-the-gateway-0123';
const GUEST_TOKEN = 'guest-token-for-the-gateway-4567';
const REGISTRY_TOKEN = 'registry-token-0123456789abcdef';
const MODEL_SECRET = 'model-passed-secret-6e1f0a';
/** The probe package's API key, which the person gives the CLI; no project file may hold it. */
const PROBE_KEY = 'probe-person-secret-91c4d2';

let open: RunningGateway;
let catalog: CatalogFixture;
let locked: RunningGateway;
let served: ServedHttp;
let scratch: ReturnType<typeof cliScratch>;
let configFile: string;
let pinsFile: string;
let client: Client;
/** What the person is asked, and what the test's client answers next. */
const asked: string[] = [];
let decision: 'allow-once' | 'deny' = 'deny';
let listChanges = 0;

/** A comment of the person's configuration file, which an add must keep. */
const COMMENT = '// the team gateway: servers an agent adds land below';
const readConfig = () =>
  parseJsonc(readFileSync(configFile, 'utf8'), configFile) as { servers: Record<string, unknown> };

const textOf = (result: unknown) =>
  ((result as { content: { type: string; text?: string }[] }).content ?? [])
    .map((block) => block.text ?? '')
    .join('');

beforeAll(async () => {
  open = await startGateway({ servers: { echo: stdioFixture('echo') } });
  locked = await startGateway({
    servers: { echo: stdioFixture('echo') },
    gateway: { tokens: { reader: { token: REGISTRY_TOKEN } } },
  });
  catalog = await startCatalogFixture();
  scratch = cliScratch('mcptools-add-server-');
  configFile = join(scratch.dir, 'mcptools.json');
  pinsFile = join(scratch.dir, 'pins.json');
  // The open registry is reached as 127.0.0.1, the locked one as localhost: their records' names differ.
  const lockedOrigin = new URL(locked.url).origin.replace('127.0.0.1', 'localhost');
  writeFileSync(
    configFile,
    `${COMMENT}\n${JSON.stringify(
      {
        servers: {},
        registries: [
          { url: new URL(open.url).origin },
          { url: lockedOrigin, headers: { authorization: `Bearer ${REGISTRY_TOKEN}` } },
          { url: catalog.url },
        ],
        router: { catalogTools: true },
        // An entry name the pins would not hold back: add_server must refuse it.
        pins: { file: pinsFile, servers: { scratch: { mode: 'off' } } },
        gateway: {
          tokens: { owner: { token: OWNER_TOKEN, owner: true }, guest: { token: GUEST_TOKEN } },
        },
      },
      null,
      2,
    )}\n`,
  );
  served = await startServeHttp(['--config', configFile], { env: scratch.env });
  client = await connectClient(served.url, 'legacy', {
    headers: { authorization: `Bearer ${OWNER_TOKEN}` },
    capabilities: { elicitation: { form: {} } },
    prepare: (sdk) => {
      sdk.setRequestHandler('elicitation/create', async (request) => {
        asked.push(String(request.params.message));
        return { action: 'accept', content: { decision } };
      });
      sdk.setNotificationHandler('notifications/tools/list_changed', () => {
        listChanges++;
      });
    },
  });
}, 180_000);

afterAll(async () => {
  await client?.close();
  await served?.close();
  await open?.close();
  await locked?.close();
  await catalog?.close();
});

describe('find_server and add_server through serve', () => {
  it('serves both tools to the owner only', async () => {
    const names = await toolNames(client);
    expect(names).toEqual(expect.arrayContaining(['find_server', 'add_server']));
    const guest = await connectClient(served.url, 'legacy', {
      headers: { authorization: `Bearer ${GUEST_TOKEN}` },
    });
    try {
      const seen = await toolNames(guest);
      expect(seen).not.toContain('find_server');
      expect(seen).not.toContain('add_server');
      const call = await guest
        .callTool({ name: 'add_server', arguments: { name: '127.0.0.1/mcptools' } })
        .then(
          (result) => (result.isError ? 'error' : 'ran'),
          () => 'refused',
        );
      expect(call).not.toBe('ran');
    } finally {
      await guest.close();
    }
  });

  it('refuses a search the person denies, and runs one the person approves', async () => {
    decision = 'deny';
    const denied = await client.callTool({ name: 'find_server', arguments: { query: 'mcptools' } });
    expect(denied.isError).toBe(true);
    expect(asked.at(-1)).toContain('Send the query "mcptools"');
    decision = 'allow-once';
    const found = await client.callTool({ name: 'find_server', arguments: { query: 'mcptools' } });
    expect(found.isError).toBeFalsy();
    const servers = (JSON.parse(textOf(found)) as { servers: { name: string; kinds: string[] }[] }).servers;
    expect(servers.map((server) => server.name).sort()).toEqual(['127.0.0.1/mcptools', 'localhost/mcptools']);
    expect(servers.every((server) => server.kinds.includes('remote'))).toBe(true);
  });

  it('adds nothing without approval; with it, writes the entry and holds its tools until an operator approves them', async () => {
    decision = 'deny';
    const denied = await client.callTool({
      name: 'add_server',
      arguments: { name: '127.0.0.1/mcptools', as: 'found' },
    });
    expect(denied.isError).toBe(true);
    expect(asked.at(-1)).toContain('Add 127.0.0.1/mcptools');
    expect(readConfig().servers).toEqual({});

    decision = 'allow-once';
    const added = await client.callTool({
      name: 'add_server',
      arguments: { name: '127.0.0.1/mcptools', as: 'found' },
    });
    expect(added.isError).toBeFalsy();
    expect(textOf(added)).toContain('added "found"');
    // The approve command is the operator's: it goes to the log, never to the model.
    expect(textOf(added)).not.toContain('pins approve');
    expect(readFileSync(configFile, 'utf8')).toContain(COMMENT);
    expect(readConfig().servers.found).toEqual({
      type: 'streamable-http',
      url: open.url,
    });
    await expect
      .poll(() => served.stderr(), { message: 'until the reload connected the new server', timeout: 30_000 })
      .toMatch(/server found: connected|reloaded .*1 added/);
    // Not trusted on first use: the connected server's tools are held, so the list does not change.
    const before = listChanges;
    const held = await toolNames(client);
    expect(held.some((name) => name.startsWith('found'))).toBe(false);
    expect(served.stderr()).toContain('mcptools pins approve found');

    const approve = await runCli(['pins', 'approve', 'found', '--file', pinsFile], scratch.dir, scratch.env);
    expect(approve.code).toBe(0);
    await expect
      .poll(() => listChanges, { message: 'until tools/list_changed arrived', timeout: 20_000 })
      .toBeGreaterThan(before);
    const live = await toolNames(client);
    expect(live.filter((name) => name.startsWith('found')).length).toBeGreaterThan(0);
    const echoed = await client.callTool({
      name: live.find((name) => name.startsWith('found') && name.endsWith('echo'))!,
      arguments: { text: 'through' },
    });
    expect(textOf(echoed)).toContain('through');
  });

  it('refuses an entry name whose tools the pins would not hold back', async () => {
    decision = 'allow-once';
    const refused = await client.callTool({
      name: 'add_server',
      arguments: { name: '127.0.0.1/mcptools', as: 'scratch' },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('pin mode is not enforce');
    expect(readConfig().servers.scratch).toBeUndefined();
  });

  it('never takes a secret as an argument; a server that needs one waits disabled', async () => {
    decision = 'allow-once';
    const refused = await client.callTool({
      name: 'add_server',
      arguments: { name: 'localhost/mcptools', as: 'guarded', values: { token: MODEL_SECRET } },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('token is a secret');
    expect(textOf(refused)).not.toContain(MODEL_SECRET);
    expect(readFileSync(configFile, 'utf8')).not.toContain(MODEL_SECRET);

    const waiting = await client.callTool({
      name: 'add_server',
      arguments: { name: 'localhost/mcptools', as: 'guarded' },
    });
    expect(waiting.isError).toBeFalsy();
    expect(textOf(waiting)).toContain('needs configuration');
    const entry = readConfig().servers.guarded;
    expect(entry).toMatchObject({ type: 'streamable-http', enabled: false });
    expect(JSON.stringify(entry)).not.toContain(REGISTRY_TOKEN);
    expect(served.stderr()).not.toContain(MODEL_SECRET);
  });

  it("shows the registry's status, refuses a deleted record, and keeps a remote's secret header out", async () => {
    decision = 'allow-once';
    const found = await client.callTool({
      name: 'find_server',
      arguments: { query: 'io.github.fixture/', limit: 25 },
    });
    const servers = (
      JSON.parse(textOf(found)) as { servers: { name: string; status: string; statusMessage?: string }[] }
    ).servers;
    expect(servers.find((server) => server.name === 'io.github.fixture/withdrawn')).toMatchObject({
      status: 'deleted',
    });
    expect(servers.find((server) => server.name === 'io.github.fixture/old-probe')).toMatchObject({
      status: 'deprecated',
      statusMessage: 'renamed: use io.github.fixture/probe',
    });

    const deleted = await client.callTool({
      name: 'add_server',
      arguments: { name: 'io.github.fixture/withdrawn' },
    });
    expect(deleted.isError).toBe(true);
    expect(textOf(deleted)).toContain('is deleted in its registry');

    const withKey = await client.callTool({
      name: 'add_server',
      arguments: { name: 'io.github.fixture/remote-echo', values: { 'X-Api-Key': REMOTE_API_KEY } },
    });
    expect(withKey.isError).toBe(true);
    expect(textOf(withKey)).toContain('X-Api-Key is a secret');
    const waiting = await client.callTool({
      name: 'add_server',
      arguments: { name: 'io.github.fixture/remote-echo' },
    });
    expect(waiting.isError).toBeFalsy();
    expect(readConfig().servers['remote-echo']).toEqual({
      type: 'streamable-http',
      url: catalog.remoteUrl,
      enabled: false,
    });
    for (const text of [readFileSync(configFile, 'utf8'), served.stderr(), textOf(withKey)])
      expect(text).not.toContain(REMOTE_API_KEY);
  });

  it('adds an npm package by name: locked and installed, waiting for its secret, which the person gives the CLI into the vault', async () => {
    decision = 'allow-once';
    const withKey = await client.callTool({
      name: 'add_server',
      arguments: { name: 'io.github.fixture/probe', values: { PROBE_API_KEY: MODEL_SECRET } },
    });
    expect(withKey.isError).toBe(true);
    expect(textOf(withKey)).toContain('PROBE_API_KEY is a secret');
    expect(readConfig().servers.probe).toBeUndefined();

    decision = 'deny';
    const denied = await client.callTool({
      name: 'add_server',
      arguments: { name: 'io.github.fixture/probe', values: { PROBE_REGION: 'us' } },
    });
    expect(denied.isError).toBe(true);
    expect(readConfig().servers.probe).toBeUndefined();

    decision = 'allow-once';
    const added = await client.callTool({
      name: 'add_server',
      arguments: { name: 'io.github.fixture/probe', values: { PROBE_REGION: 'us' } },
    });
    expect(added.isError, textOf(added)).toBeFalsy();
    expect(textOf(added)).toContain('added "probe": io.github.fixture/probe@1.0.1 (npm)');
    expect(textOf(added)).toContain('needs configuration');
    expect(textOf(added)).toContain('PROBE_API_KEY (env, secret)');
    // The entry npx would run, disabled until the secret is there; the lock holds the version and integrity.
    expect(readConfig().servers.probe).toEqual({
      command: 'npx',
      args: ['-y', '@fixture/probe-server@1.0.1'],
      env: { PROBE_REGION: 'us' },
      enabled: false,
    });
    const lockFile = join(scratch.dir, 'mcptools-lock.json');
    const lock = JSON.parse(readFileSync(lockFile, 'utf8')).servers.probe;
    expect(lock).toMatchObject({
      registry: catalog.url,
      name: 'io.github.fixture/probe',
      version: '1.0.1',
      package: { registryType: 'npm', identifier: '@fixture/probe-server', version: '1.0.1' },
    });
    expect(lock.package.integrity).toBe(catalog.artifacts.tarballs.get('1.0.1')!.integrity);
    // The configure command names the value, never holds one, and goes to the operator's log.
    expect(served.stderr()).toContain(
      `mcptools add io.github.fixture/probe@1.0.1 --as probe --config ${configFile}`,
    );
    expect(textOf(added)).not.toContain('mcptools add');

    // The person gives the secret to the CLI (from their environment): it goes to the vault.
    const configure = await runCli(
      [
        'add',
        'io.github.fixture/probe@1.0.1',
        '--as',
        'probe',
        '--env',
        'PROBE_API_KEY',
        '--yes',
        '--config',
        configFile,
      ],
      scratch.dir,
      { ...scratch.env, PROBE_API_KEY: PROBE_KEY },
    );
    expect(configure.code, configure.stderr).toBe(0);
    expect(readFileSync(configFile, 'utf8')).toContain(COMMENT);
    expect(readConfig().servers.probe).toEqual({
      command: 'npx',
      args: ['-y', '@fixture/probe-server@1.0.1'],
      env: { PROBE_API_KEY: '${vault:probe/PROBE_API_KEY}', PROBE_REGION: 'us' },
    });
    const before = listChanges;
    served.child.kill('SIGHUP');
    await expect
      .poll(() => served.stderr(), { message: 'until the reload connected the probe', timeout: 60_000 })
      .toMatch(/server probe: connected/);
    // Not trusted on first use: held until an operator approves its tools.
    expect((await toolNames(client)).some((name) => name.startsWith('probe'))).toBe(false);
    const approve = await runCli(['pins', 'approve', 'probe', '--file', pinsFile], scratch.dir, scratch.env);
    expect(approve.code, approve.stderr).toBe(0);
    await expect
      .poll(() => listChanges, { message: 'until tools/list_changed arrived', timeout: 20_000 })
      .toBeGreaterThan(before);
    const live = await toolNames(client);
    const envTool = live.find((name) => name.startsWith('probe') && name.endsWith('env'));
    expect(envTool, live.join(' ')).toBeDefined();
    // The locked package runs with the vault's secret and the model's plain value.
    const region = await client.callTool({ name: envTool!, arguments: { name: 'PROBE_REGION' } });
    expect(textOf(region)).toBe('us');
    const key = await client.callTool({ name: envTool!, arguments: { name: 'PROBE_API_KEY' } });
    // The server got the vault's value: the gateway masks a configured secret in results, so
    // exactly that value comes back masked (another value, or none, would come back as it is).
    expect(textOf(key)).toBe('***');
    for (const file of readdirSync(scratch.dir).filter((name) => name.endsWith('.json')))
      expect(readFileSync(join(scratch.dir, file), 'utf8'), file).not.toContain(PROBE_KEY);
    expect(served.stderr()).not.toContain(PROBE_KEY);
    expect(served.stderr()).not.toContain(MODEL_SECRET);
  });
});
