import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { containerCommand } from '../../src/boxes/container-command.js';
import { findContainerEngine, findContainerEngineSync } from '../../src/boxes/find-container-engine.js';
import { sandboxStatus } from '../../src/boxes/sandbox-status.js';
import { checkServerConfig, suggestFix } from '../../src/cli/doctor/suggest-fix.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import { findOnPath } from '../../src/paths/find-on-path.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';

const empty = mkdtempSync(join(tmpdir(), 'mcptools-no-engines-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

/** A PATH with neither docker nor podman on it. */
const NO_ENGINES = { PATH: empty };
/** The real docker CLI, pointed at a socket no daemon listens on: it answers "cannot connect". */
const docker = findOnPath('docker');
const NO_DAEMON = { ...process.env, DOCKER_HOST: `unix://${join(empty, 'docker.sock')}` };
if (docker === undefined)
  console.warn('test/boxes/container-box.e2e.test.ts: skipping the docker CLI cases: docker is not on PATH');

describe('the container command line', () => {
  it('runs the image with no network, a read-only root, the grants as mounts and the limits as flags; values stay off it', () => {
    const run = containerCommand(
      '/usr/bin/docker',
      {
        command: 'node',
        args: ['/srv/app/server.js'],
        env: { API_KEY: 'secret-value-1234' },
        cwd: '/srv/app',
      },
      {
        image: 'node:20-slim',
        read: ['/srv/app'],
        write: ['/srv/data'],
        env: ['LANG'],
        maxMemoryBytes: 268435456,
        maxCpus: 0.5,
        maxOpenFiles: 256,
        maxCpuSeconds: 60,
      },
      'mcptools-1-1',
      64,
      {
        LANG: 'C.UTF-8',
        PATH: '/usr/bin',
        HOME: '/root',
        DOCKER_HOST: 'unix:///run/docker.sock',
        SECRET_OF_GATEWAY: 'x',
      },
    );
    expect(run.command).toBe('/usr/bin/docker');
    expect(run.args).toEqual([
      'run',
      '--rm',
      '--interactive',
      '--init',
      '--name',
      'mcptools-1-1',
      '--label',
      'mcptools.box=1',
      '--network',
      'none',
      '--read-only',
      '--tmpfs',
      '/tmp',
      '--user',
      '65534:65534',
      '--cap-drop',
      'ALL',
      '--security-opt',
      'no-new-privileges',
      '--pids-limit',
      '64',
      '--memory',
      '268435456',
      '--memory-swap',
      '268435456',
      '--cpus',
      '0.5',
      '--ulimit',
      'nofile=256:256',
      '--ulimit',
      'cpu=60:61',
      '--volume',
      '/srv/app:/srv/app:ro',
      '--volume',
      '/srv/data:/srv/data',
      '--workdir',
      '/srv/app',
      '--env',
      'HOME=/tmp/home',
      '--env',
      'LANG',
      '--env',
      'API_KEY',
      'node:20-slim',
      'node',
      '/srv/app/server.js',
    ]);
    // The values reach the engine in its environment only; the gateway's other variables reach
    // neither the container (no -e) nor, unless the engine needs them, the engine.
    expect(run.args.join(' ')).not.toContain('secret-value-1234');
    expect(run.env).toEqual({
      PATH: '/usr/bin',
      HOME: '/root',
      DOCKER_HOST: 'unix:///run/docker.sock',
      LANG: 'C.UTF-8',
      API_KEY: 'secret-value-1234',
    });
  });

  it('shares the network only with "all", binds a working directory read-only unless granted, and sets no limit not asked for', () => {
    const run = containerCommand(
      'podman',
      { command: 'python3', args: ['server.py'], cwd: '/srv/tool' },
      { image: 'python:3.12', network: 'all' },
      'mcptools-1-2',
      1024,
      {},
    );
    expect(run.args.slice(run.args.indexOf('--network'), run.args.indexOf('--network') + 2)).toEqual([
      '--network',
      'bridge',
    ]);
    expect(run.args).toContain('/srv/tool:/srv/tool:ro');
    for (const flag of ['--memory', '--cpus', '--ulimit']) expect(run.args).not.toContain(flag);
    expect(run.args.slice(-3)).toEqual(['python:3.12', 'python3', 'server.py']);
  });

  it('refuses an allowlist with an image, and an engine without one, naming file, server and field', () => {
    const bad = (sandbox: unknown) => () =>
      parseConfig({ servers: { box: { command: 'node', sandbox } } }, { file: 'mcptools.json' });
    expect(bad({ image: 'node:20', network: { allow: ['api.example.com:443'] } })).toThrow(
      /mcptools\.json.*box.*sandbox\.network.*"none" or "all"/s,
    );
    expect(bad({ engine: 'docker' })).toThrow(/mcptools\.json.*box.*sandbox\.engine.*needs "image"/s);
    expect(bad({ image: 'not an image' })).toThrow(/sandbox\.image.*image reference/s);
    // The control: a plain image entry is accepted.
    expect(() => bad({ image: 'ghcr.io/example/server:1.2@sha256:abc', engine: 'podman' })()).not.toThrow();
  });
});

describe('no container engine available', () => {
  it('says so for a PATH without docker or podman, in doctor too', async () => {
    expect(await findContainerEngine(undefined, NO_ENGINES)).toEqual({
      available: false,
      tried: ['docker: not on PATH', 'podman: not on PATH'],
    });
    const status = sandboxStatus(
      { type: 'stdio', command: 'node', sandbox: { image: 'node:20-slim' } },
      NO_ENGINES,
    );
    expect(status).toEqual({
      boxed: false,
      reason:
        'the image "node:20-slim" is asked for but no container engine is available (docker: not on PATH; podman: not on PATH): the server is refused',
    });
  });

  it.skipIf(docker === undefined)(
    'says what the real docker CLI answered when it reaches no daemon',
    async () => {
      const found = await findContainerEngine('docker', NO_DAEMON);
      expect(found.available).toBe(false);
      expect(found).toMatchObject({
        tried: [expect.stringMatching(/^docker: .*Cannot connect to the Docker daemon/)],
      });
      expect(findContainerEngineSync('docker', NO_DAEMON)).toEqual(found);
      expect(
        sandboxStatus(
          { type: 'stdio', command: 'node', sandbox: { image: 'node:20-slim', engine: 'docker' } },
          NO_DAEMON,
        ).reason,
      ).toMatch(
        /^the image "node:20-slim" is asked for but no container engine is available \(docker: .*Cannot connect/,
      );
    },
  );

  it.skipIf(docker === undefined)(
    'refuses the server through the hub, naming it, the image and each engine; never runs it otherwise',
    async () => {
      const saved = process.env.DOCKER_HOST;
      const savedPath = process.env.PATH;
      process.env.DOCKER_HOST = NO_DAEMON.DOCKER_HOST;
      // Only docker on PATH: a Podman installed here would answer and run the server.
      const onlyDocker = join(empty, 'only-docker');
      mkdirSync(onlyDocker, { recursive: true });
      symlinkSync(docker!, join(onlyDocker, 'docker'));
      process.env.PATH = onlyDocker;
      const registry = new ToolRegistry();
      try {
        const hub = await loadMcpServers(
          {
            servers: {
              imaged: {
                type: 'stdio',
                command: process.execPath,
                args: ['-e', 'process.exit(3)'],
                sandbox: { image: 'node:20-slim' },
              },
            },
          },
          registry,
          { eraCache: false, reconnect: { enabled: false } },
        );
        try {
          const status = hub.status('imaged')!;
          expect(status.state).toBe('error');
          expect(status.lastError?.message).toMatch(
            /server "imaged" names the image "node:20-slim" but no container engine is available \(docker: .*Cannot connect to the Docker daemon.*; podman: not on PATH\): start the Docker daemon or install Podman, or remove "sandbox\.image"/,
          );
          // Refused before anything ran: no process was started for it.
          expect(status.pid).toBeUndefined();
          // doctor's fix: the engine, not the command (it runs inside the image, not on the host).
          const entry = {
            type: 'stdio' as const,
            command: 'python3-only-in-the-image',
            sandbox: { image: 'node:20-slim' },
          };
          expect(suggestFix(entry, checkServerConfig(entry), status)).toBe(
            'start the Docker daemon or install Podman, or remove "sandbox.image" to box it with bubblewrap (docs/sandbox.md)',
          );
        } finally {
          await hub.close();
        }
      } finally {
        if (saved === undefined) delete process.env.DOCKER_HOST;
        else process.env.DOCKER_HOST = saved;
        if (savedPath === undefined) delete process.env.PATH;
        else process.env.PATH = savedPath;
      }
    },
  );
});
