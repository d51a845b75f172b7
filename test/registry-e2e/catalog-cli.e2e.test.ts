import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliScratch, runCli } from '../cli/cli-process.js';
import {
  type CatalogFixture,
  OCI_DIGEST,
  REMOTE_API_KEY,
  startCatalogFixture,
} from '../fixtures/registry/catalog-fixture.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';

/** A secret given to `add`; no file of the project may hold it in any common encoding. */
const CANARY = 'canary-probe-key-5d1f0e9a';

let fixture: CatalogFixture;
let scratch: { dir: string; env: NodeJS.ProcessEnv };
let project: string;
let env: NodeJS.ProcessEnv;

function readJson(path: string) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) =>
    item.isDirectory() ? filesUnder(join(dir, item.name)) : [join(dir, item.name)],
  );
}

/** Fails when a file of `dir` holds `secret` in clear, base64 (any alignment) or hex. */
function expectNoSecretIn(dir: string, secret: string): void {
  const forms = [
    secret,
    Buffer.from(secret).toString('base64').slice(0, -2),
    Buffer.from(`x${secret}`).toString('base64').slice(4, -4),
    Buffer.from(`xx${secret}`).toString('base64').slice(4, -4),
    Buffer.from(secret).toString('hex'),
  ];
  const files = filesUnder(dir);
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    const text = readFileSync(file, 'latin1');
    for (const form of forms) expect(text.includes(form), `${file} holds the secret (${form})`).toBe(false);
  }
}

const cli = (args: string[], cwd = project, extraEnv: NodeJS.ProcessEnv = {}) =>
  runCli(args, cwd, { ...env, ...extraEnv });

beforeAll(async () => {
  fixture = await startCatalogFixture();
  scratch = cliScratch('mcptools-catalog-cli-');
  project = join(scratch.dir, 'project');
  mkdirSync(project);
  env = {
    ...scratch.env,
    XDG_STATE_HOME: join(scratch.dir, 'state'),
    MCPTOOLS_REGISTRY: fixture.url,
    npm_config_cache: join(scratch.dir, 'npm-cache'),
  };
}, 120_000);

afterAll(async () => {
  await fixture?.close();
  if (scratch) rmSync(scratch.dir, { recursive: true, force: true });
});

describe('mcptools registry', () => {
  it('searches the registry, with each server’s status', async () => {
    const run = await cli(['registry', 'search', 'fixture']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/io\.github\.fixture\/probe\s+1\.0\.1\s+active/);
    expect(run.stdout).toMatch(/io\.github\.fixture\/withdrawn\s+1\.0\.0\s+deleted/);
    const json = await cli(['registry', 'search', 'memory', '--json']);
    expect(JSON.parse(json.stdout).servers.map((server: { name: string }) => server.name)).toEqual([
      'io.github.modelcontextprotocol/server-memory',
    ]);
  });

  it('shows a server: versions, status, packages and the variables each needs', async () => {
    const run = await cli(['registry', 'show', 'io.github.fixture/probe']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Versions: 1.0.1, 1.0.0');
    expect(run.stdout).toContain('npm @fixture/probe-server@1.0.1');
    expect(run.stdout).toMatch(/env PROBE_API_KEY \(required, secret\)/);
    const old = await cli(['registry', 'show', 'io.github.fixture/old-probe', '--json']);
    expect(JSON.parse(old.stdout)).toMatchObject({
      status: 'deprecated',
      statusMessage: 'renamed: use io.github.fixture/probe',
    });
    const missing = await cli(['registry', 'show', 'io.github.fixture/absent']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain(`io.github.fixture/absent is not in ${fixture.url}`);
  });

  it('reads registries[] of the configuration, headers through ${VAR}', async () => {
    const team = await startCatalogFixture({
      remote: false,
      requireHeader: { name: 'X-Team-Token', value: 'team-secret' },
    });
    try {
      const dir = join(scratch.dir, 'private');
      mkdirSync(dir);
      writeFileSync(
        join(dir, 'mcptools.json'),
        JSON.stringify({
          servers: {},
          registries: [{ url: team.url, headers: { 'X-Team-Token': '${TEAM_TOKEN}' } }],
        }),
      );
      const { MCPTOOLS_REGISTRY: _ignored, ...withoutOverride } = env;
      const run = (extra: NodeJS.ProcessEnv) =>
        runCli(['registry', 'search', 'probe'], dir, { ...withoutOverride, ...extra });
      const unset = await run({});
      expect(unset.stderr).toMatch(/registries\.0\.headers\.X-Team-Token.*TEAM_TOKEN/);
      const refused = await run({ TEAM_TOKEN: 'wrong' });
      expect(refused.stderr).toContain('answered HTTP 401');
      const ok = await run({ TEAM_TOKEN: 'team-secret' });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toContain('io.github.fixture/probe');
    } finally {
      await team.close();
    }
  });
});

describe('mcptools add, locked start, update, doctor and remove', () => {
  it('adds an npm server: version resolved, integrity locked, the secret only in the vault', async () => {
    const run = await cli([
      'add',
      'io.github.fixture/probe@1.0.0',
      '--env',
      `PROBE_API_KEY=${CANARY}`,
      '--env',
      'PROBE_REGION=us',
      '--yes',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Added probe: io.github.fixture/probe@1.0.0 (npm)');
    const config = readJson(join(project, 'mcptools.json'));
    expect(config.servers.probe).toEqual({
      command: 'npx',
      args: ['-y', '@fixture/probe-server@1.0.0'],
      env: { PROBE_API_KEY: '${vault:probe/PROBE_API_KEY}', PROBE_REGION: 'us' },
    });
    const lock = readJson(join(project, 'mcptools-lock.json')).servers.probe;
    expect(lock).toMatchObject({ registry: fixture.url, name: 'io.github.fixture/probe', version: '1.0.0' });
    expect(lock.package.integrity).toBe(fixture.artifacts.tarballs.get('1.0.0')!.integrity);
    expect(lock.package.modules['node_modules/@fixture/probe-server'].integrity).toBe(lock.package.integrity);
    const vault = join(scratch.dir, 'state', 'mcptools', 'secrets.json');
    expect(statSync(vault).mode & 0o777).toBe(0o600);
    expect(readJson(vault).entries.probe.PROBE_API_KEY).toBe(CANARY);
    expectNoSecretIn(project, CANARY);
  });

  it('starts the locked version from its own prefix, the secret resolved from the vault', async () => {
    const region = await cli(['call', 'probe__env', 'name=PROBE_REGION']);
    expect(region.code, region.stderr).toBe(0);
    expect(region.stdout.trim()).toBe('us');
    // The value the server received is the vault's: output redaction knows it and masks it.
    const key = await cli(['call', 'probe__env', 'name=PROBE_API_KEY']);
    expect(key.code, key.stderr).toBe(0);
    expect(key.stdout).not.toContain(CANARY);
    expect(key.stdout.trim()).toMatch(/^\*+$/);
    const prefixes = readdirSync(join(scratch.dir, 'state', 'mcptools', 'packages', 'npm')).filter(
      (name) => !name.endsWith('.lock'),
    );
    const versions = prefixes.map(
      (prefix) =>
        readJson(
          join(
            scratch.dir,
            'state',
            'mcptools',
            'packages',
            'npm',
            prefix,
            'node_modules',
            '@fixture',
            'probe-server',
            'package.json',
          ),
        ).version,
    );
    expect(versions).toEqual(['1.0.0']);
  });

  it('refuses to start when the lock’s integrity no longer matches, naming both hashes', async () => {
    const copy = join(scratch.dir, 'tampered');
    cpSync(project, copy, { recursive: true });
    const lockFile = join(copy, 'mcptools-lock.json');
    const lock = readJson(lockFile);
    const locked = `sha512-${randomBytes(64).toString('base64')}`;
    const served = fixture.artifacts.tarballs.get('1.0.0')!.integrity;
    lock.servers.probe.package.integrity = locked;
    lock.servers.probe.package.modules['node_modules/@fixture/probe-server'].integrity = locked;
    writeFileSync(lockFile, JSON.stringify(lock));
    const run = await cli(['call', 'probe__env', 'name=PROBE_REGION'], copy);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`locks @fixture/probe-server@1.0.0 with integrity ${locked}`);
    expect(run.stderr).toContain(`the tarball served has ${served}`);
    // A configuration that names another version than its lock is refused too, naming both.
    const config = readJson(join(copy, 'mcptools.json'));
    config.servers.probe.args = ['-y', '@fixture/probe-server@1.0.1'];
    writeFileSync(join(copy, 'mcptools.json'), JSON.stringify(config));
    writeFileSync(lockFile, readFileSync(join(project, 'mcptools-lock.json')));
    const moved = await cli(['call', 'probe__env', 'name=PROBE_REGION'], copy);
    expect(moved.code).not.toBe(0);
    expect(moved.stderr).toMatch(
      /runs @fixture\/probe-server@1\.0\.1, but .*mcptools-lock\.json locks @fixture\/probe-server@1\.0\.0/,
    );
  });

  it('update moves the lock on purpose, showing the change, and keeps the secret in the vault', async () => {
    const dry = await cli(['update', 'probe', '--dry-run']);
    expect(dry.stdout).toContain('version: 1.0.0 → 1.0.1');
    expect(readJson(join(project, 'mcptools-lock.json')).servers.probe.version).toBe('1.0.0');
    // Pins in use (the default pin file exists): the definitions of 1.0.0 are pinned on first use.
    const pinFile = join(scratch.env.XDG_CONFIG_HOME!, 'mcptools', 'pins.json');
    mkdirSync(dirname(pinFile), { recursive: true });
    writeFileSync(pinFile, JSON.stringify({ version: 1, servers: {} }));
    expect((await cli(['call', 'probe__env', 'name=PROBE_REGION'])).code).toBe(0);
    expect(readJson(pinFile).servers.probe.pins['tool:env'].definition.description).toBe(
      'One environment variable',
    );
    const run = await cli(['update', 'probe', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    // 1.0.1 describes its env tool differently: the diff against the pin is shown, and re-pinned.
    expect(run.stdout).toContain('-  "description": "One environment variable",');
    expect(run.stdout).toContain('+  "description": "One environment variable, read at call time",');
    expect(run.stdout).toContain('re-pinned 1 definition(s) of probe');
    const pinned = readJson(pinFile).servers.probe;
    expect(pinned.pending).toEqual({});
    expect(pinned.pins['tool:env'].definition.description).toBe(
      'One environment variable, read at call time',
    );
    expect(run.stdout).toContain(
      `integrity: ${fixture.artifacts.tarballs.get('1.0.0')!.integrity} → ${fixture.artifacts.tarballs.get('1.0.1')!.integrity}`,
    );
    expect(readJson(join(project, 'mcptools.json')).servers.probe.args).toEqual([
      '-y',
      '@fixture/probe-server@1.0.1',
    ]);
    expect(readJson(join(project, 'mcptools-lock.json')).servers.probe.version).toBe('1.0.1');
    const again = await cli(['update', 'probe']);
    expect(again.stdout).toContain('is the latest');
    // The re-pinned tool is served (pins enforce: a definition differing from its pin would be refused).
    const key = await cli(['call', 'probe__env', 'name=PROBE_API_KEY']);
    expect(key.stdout.trim()).toMatch(/^\*+$/);
    expectNoSecretIn(project, CANARY);
  });

  it('adds a remote server with its secret header in the vault', async () => {
    const run = await cli([
      'add',
      'io.github.fixture/remote-echo',
      '--header',
      `X-Api-Key=${REMOTE_API_KEY}`,
      '--yes',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(readJson(join(project, 'mcptools.json')).servers['remote-echo']).toEqual({
      type: 'streamable-http',
      url: fixture.remoteUrl,
      headers: { 'X-Api-Key': '${vault:remote-echo/X-Api-Key}' },
    });
    const call = await cli(['call', 'remote-echo__echo', 'text=through the header']);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toContain('through the header');
    expectNoSecretIn(project, REMOTE_API_KEY);
  });

  it('adds an MCPB bundle only when its hash matches, and refuses one changed on disk at start', async () => {
    const bad = await cli(['add', 'io.github.fixture/tampered-bundle', '--yes']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(
      `has SHA-256 ${fixture.artifacts.bundles.get('echo.mcpb')!.sha256}, but its registry record says ${'f'.repeat(64)}`,
    );
    expect(readJson(join(project, 'mcptools.json')).servers['tampered-bundle']).toBeUndefined();
    const good = await cli(['add', 'io.github.fixture/echo-bundle', '--yes']);
    expect(good.code, good.stderr).toBe(0);
    const call = await cli(['call', 'echo-bundle__echo', 'text=bundled']);
    expect(call.stdout.trim()).toBe('bundled');
    const sha = fixture.artifacts.bundles.get('echo.mcpb')!.sha256;
    const kept = join(scratch.dir, 'state', 'mcptools', 'packages', 'mcpb', `${sha}.mcpb`);
    const original = readFileSync(kept);
    chmodSync(kept, 0o600);
    writeFileSync(kept, Buffer.concat([original, Buffer.from('changed')]));
    const refused = await cli(['call', 'echo-bundle__echo', 'text=again']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(new RegExp(`but mcptools-lock\\.json locks ${sha}`));
    writeFileSync(kept, original);
  });

  it("asks for an MCPB bundle's user_config, the sensitive value into the vault", async () => {
    const refused = await cli(['add', 'io.github.fixture/configured-bundle', '--yes']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('needs api_key (--arg api_key=…)');
    const run = await cli(
      ['add', 'io.github.fixture/configured-bundle', '--arg', 'api_key', '--yes'],
      project,
      {
        api_key: CANARY,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('${vault:configured-bundle/api_key}');
    const entry = readJson(join(project, 'mcptools.json')).servers['configured-bundle'];
    const sha = fixture.artifacts.bundles.get('probe.mcpb')!.sha256;
    // The optional argument without a value is left out; the default fills the region.
    expect(entry.args).toEqual([expect.stringMatching(new RegExp(`${sha}/server/index\\.mjs$`))]);
    expect(entry.env).toEqual({
      PROBE_API_KEY: '${vault:configured-bundle/api_key}',
      PROBE_REGION: 'eu',
    });
    const region = await cli(['call', 'configured-bundle__env', 'name=PROBE_REGION']);
    expect(region.stdout.trim(), region.stderr).toBe('eu');
    // The bundle's server received the vault's value: masked as a configured secret is.
    const key = await cli(['call', 'configured-bundle__env', 'name=PROBE_API_KEY']);
    expect(key.stdout.trim(), key.stderr).toBe('***');
    expectNoSecretIn(project, CANARY);
  });

  it('refuses a deleted server and warns of a deprecated one with its message', async () => {
    const deleted = await cli(['add', 'io.github.fixture/withdrawn', '--yes']);
    expect(deleted.code).not.toBe(0);
    expect(deleted.stderr).toContain(
      'is deleted in its registry and is not installed: withdrawn: the package was taken over',
    );
    const deprecated = await cli([
      'add',
      'io.github.fixture/old-probe',
      '--env',
      `PROBE_API_KEY=${CANARY}`,
      '--yes',
    ]);
    expect(deprecated.code, deprecated.stderr).toBe(0);
    expect(deprecated.stderr).toContain('deprecated in its registry: renamed: use io.github.fixture/probe');
    expectNoSecretIn(project, CANARY);
  });

  it('writes PyPI, NuGet and OCI entries and locks, saying which runtime is missing', async () => {
    const bin = join(scratch.dir, 'bin');
    mkdirSync(bin, { recursive: true });
    if (!existsSync(join(bin, 'node'))) symlinkSync(process.execPath, join(bin, 'node'));
    const onlyNode = { PATH: bin };
    const py = await cli(
      [
        'add',
        'io.github.fixture/time-py',
        '--env',
        `TIME_API_TOKEN=${CANARY}`,
        '--arg',
        'local-timezone=UTC',
        '--yes',
      ],
      project,
      onlyNode,
    );
    expect(py.code, py.stderr).toBe(0);
    expect(py.stderr).toContain('uvx is not installed here');
    const nuget = await cli(['add', 'io.github.fixture/nuget-tool', '--yes'], project, onlyNode);
    expect(nuget.stderr).toContain('dnx is not installed here');
    const oci = await cli(
      ['add', 'io.github.fixture/oci-tool', '--env', `OCI_TOKEN=${CANARY}`, '--yes'],
      project,
      onlyNode,
    );
    expect(oci.stderr).toContain('docker is not installed here');
    const { servers } = readJson(join(project, 'mcptools.json'));
    const digest = `sha256:${'a1'.repeat(32)}`;
    expect(servers['time-py']).toEqual({
      command: 'uvx',
      args: ['mcp-server-time==0.6.2', '--local-timezone', 'UTC'],
      env: { TIME_API_TOKEN: '${vault:time-py/TIME_API_TOKEN}' },
    });
    expect(servers['nuget-tool']).toEqual({ command: 'dnx', args: ['Fixture.Mcp.Server@1.2.0', '--yes'] });
    expect(servers['oci-tool']).toEqual({
      command: 'docker',
      args: ['run', '-i', '--rm', '-e', 'OCI_TOKEN', `ghcr.io/fixture/mcp-tool:2.0.0@${digest}`],
      env: { OCI_TOKEN: '${vault:oci-tool/OCI_TOKEN}' },
    });
    const lock = readJson(join(project, 'mcptools-lock.json')).servers;
    expect(lock['time-py'].package).toEqual({
      registryType: 'pypi',
      identifier: 'mcp-server-time',
      version: '0.6.2',
    });
    expect(lock['nuget-tool'].package).toEqual({
      registryType: 'nuget',
      identifier: 'Fixture.Mcp.Server',
      version: '1.2.0',
    });
    expect(lock['oci-tool'].package).toMatchObject({ registryType: 'oci', digest });
    const start = await cli(['call', 'time-py__get_current_time'], project, onlyNode);
    expect(start.code).not.toBe(0);
    expect(start.stderr).toMatch(/uvx/);
    expectNoSecretIn(project, CANARY);
  });

  it('locks an OCI tag to the digest its registry serves, refuses a tag it lacks, and a start whose digest differs', async () => {
    const bin = join(scratch.dir, 'bin');
    const onlyNode = { PATH: bin };
    const image = `${new URL(fixture.url).host}/fixture/mcp-tool:2.1.0`;
    const seen = fixture.requests.length;
    const run = await cli(['add', 'io.github.fixture/oci-tagged', '--yes'], project, onlyNode);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('docker is not installed here');
    const asked = fixture.requests.slice(seen).map((request) => `${request.method} ${request.path}`);
    // The anonymous pull token the registry's challenge named, then the manifest's digest with it.
    expect(asked).toContain('GET /oci-token?service=fixture&scope=repository%3Afixture%2Fmcp-tool%3Apull');
    expect(asked).toContain('HEAD /v2/fixture/mcp-tool/manifests/2.1.0');
    expect(readJson(join(project, 'mcptools.json')).servers['oci-tagged']).toEqual({
      command: 'docker',
      args: ['run', '-i', '--rm', `${image}@${OCI_DIGEST}`],
    });
    expect(readJson(join(project, 'mcptools-lock.json')).servers['oci-tagged'].package).toEqual({
      registryType: 'oci',
      identifier: image,
      digest: OCI_DIGEST,
      integrity: OCI_DIGEST,
    });

    const missing = await cli(['add', 'io.github.fixture/oci-untagged', '--yes'], project, onlyNode);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('the registry has no image');
    expect(readJson(join(project, 'mcptools.json')).servers['oci-untagged']).toBeUndefined();

    // An entry whose image names another digest than its lock does not start, naming both.
    const copy = join(scratch.dir, 'oci-moved');
    cpSync(project, copy, { recursive: true });
    const config = readJson(join(copy, 'mcptools.json'));
    const other = `sha256:${'0d'.repeat(32)}`;
    config.servers['oci-tagged'].args[3] = `${image}@${other}`;
    writeFileSync(join(copy, 'mcptools.json'), JSON.stringify(config));
    const moved = await cli(['call', 'oci-tagged__anything'], copy, onlyNode);
    expect(moved.code).not.toBe(0);
    expect(moved.stderr).toContain(`runs ${image}@${other}`);
    expect(moved.stderr).toContain(`locks ${image}`);
  });

  it('runs a NuGet server with dnx as the entry says, and says what is missing when dnx or dotnet is not there', async () => {
    const bin = join(scratch.dir, 'bin');
    const onlyNode = { PATH: bin };
    const none = await cli(['call', 'nuget-tool__echo', 'text=hi'], project, onlyNode);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain(
      'runs the NuGet package Fixture.Mcp.Server@1.2.0 with dnx, and neither dnx nor dotnet is installed',
    );
    // A .NET SDK older than 10: dotnet without dnx.
    const older = join(scratch.dir, 'dotnet-only');
    mkdirSync(older, { recursive: true });
    writeFileSync(join(older, 'dotnet'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const old = await cli(['call', 'nuget-tool__echo', 'text=hi'], project, { PATH: `${bin}:${older}` });
    expect(old.code).not.toBe(0);
    expect(old.stderr).toContain(
      'dnx is not on PATH, but dotnet is: dnx comes with the .NET SDK 10 or later',
    );
    // The control: a dnx that checks its command line is exactly the entry's, then runs the
    // echo fixture as the package would.
    const withDnx = join(scratch.dir, 'with-dnx');
    mkdirSync(withDnx, { recursive: true });
    const echo = stdioFixture('echo');
    const quoted = [echo.command, ...(echo.args ?? [])].map((part) => `'${part}'`).join(' ');
    writeFileSync(
      join(withDnx, 'dnx'),
      `#!/bin/sh\n[ "$*" = "Fixture.Mcp.Server@1.2.0 --yes" ] || { echo "dnx got: $*" >&2; exit 2; }\nexec ${quoted}\n`,
      { mode: 0o755 },
    );
    const ran = await cli(['call', 'nuget-tool__echo', 'text=through-dnx'], project, {
      PATH: `${bin}:${withDnx}`,
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('through-dnx');
  });

  it('doctor flags an installed server its registry has since deleted', async () => {
    const before = await cli(['doctor', 'probe']);
    expect(before.code, before.stdout + before.stderr).toBe(0);
    fixture.setStatus('io.github.fixture/probe', '1.0.1', 'deleted', 'malware reported');
    try {
      const after = await cli(['doctor', 'probe']);
      expect(after.code).toBe(3);
      expect(after.stdout).toContain('io.github.fixture/probe@1.0.1 is deleted');
      expect(after.stdout).toContain('malware reported');
      expect(after.stdout).toContain('fix: mcptools remove probe');
    } finally {
      fixture.setStatus('io.github.fixture/probe', '1.0.1', 'active');
    }
  });

  it('remove cleans the entry, its lock, its vault secrets and its pins', async () => {
    const pins = join(scratch.env.XDG_CONFIG_HOME!, 'mcptools', 'pins.json');
    mkdirSync(join(scratch.env.XDG_CONFIG_HOME!, 'mcptools'), { recursive: true });
    writeFileSync(
      pins,
      JSON.stringify({
        version: 1,
        servers: {
          probe: { pins: {}, pending: {}, seen: ['tool'] },
          other: { pins: {}, pending: {}, seen: [] },
        },
      }),
    );
    const run = await cli(['remove', 'probe']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('its secrets in the vault (PROBE_API_KEY)');
    expect(readJson(join(project, 'mcptools.json')).servers.probe).toBeUndefined();
    expect(readJson(join(project, 'mcptools-lock.json')).servers.probe).toBeUndefined();
    expect(readJson(join(scratch.dir, 'state', 'mcptools', 'secrets.json')).entries.probe).toBeUndefined();
    expect(Object.keys(readJson(pins).servers)).toEqual(['other']);
    // The control: the other entries are untouched.
    expect(readJson(join(project, 'mcptools.json')).servers['remote-echo']).toBeDefined();
    const again = await cli(['remove', 'probe']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('has no server "probe"');
  });
});
