import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { argumentMounts, namedPaths } from '../../src/boxes/argument-mounts.js';
import { bwrapCommand } from '../../src/boxes/bwrap-command.js';
import { protectedPaths } from '../../src/boxes/protected-paths.js';
import { checkServerConfig, suggestFix } from '../../src/cli/doctor/suggest-fix.js';
import { filterRoots } from '../../src/mcp/boxed-roots.js';

const temp = mkdtempSync(join(tmpdir(), 'mcptools-argument-mounts-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

// A home and a state folder of their own: the rules are checked against these, not the machine's.
const home = join(temp, 'home');
const env: NodeJS.ProcessEnv = {
  HOME: home,
  XDG_STATE_HOME: join(home, '.local', 'state'),
  XDG_CONFIG_HOME: join(home, '.config'),
};
const state = join(home, '.local', 'state', 'mcptools');
const project = join(home, 'project');
const notes = join(temp, 'notes');
const script = join(temp, 'server.js');
for (const dir of [
  project,
  join(project, 'data'),
  notes,
  join(state, 'workspace'),
  join(home, '.config', 'mcptools'),
])
  mkdirSync(dir, { recursive: true });
writeFileSync(script, '');
writeFileSync(join(state, 'secrets.json'), '{}');
const configFile = join(temp, 'gateway', 'mcptools.json');
mkdirSync(join(temp, 'gateway'));
writeFileSync(configFile, '{}');
const guarded = protectedPaths(env, configFile, temp);

const mountsOf = (args: string[], grants: { read?: string[]; write?: string[] } = {}, cwd?: string) =>
  argumentMounts('files', { args, ...(cwd === undefined ? {} : { cwd }) }, grants, guarded, env, configFile);

describe("paths named in an entry's args", () => {
  it('finds absolute paths, --flag=/path values and ./relative paths against the cwd, not bare words', () => {
    expect(
      namedPaths({
        args: ['-y', '@scope/server', notes, `--root=${project}`, './data', 'stdio', '--port', '8080'],
        cwd: project,
      }),
    ).toEqual([
      { path: notes, field: 'args[2]' },
      { path: project, field: 'args[3]' },
      { path: join(project, 'data'), field: 'args[4]' },
    ]);
    // Without a cwd a relative path means the box's own home: nothing of the host to mount.
    expect(namedPaths({ args: ['./data'] })).toEqual([]);
  });

  it('mounts a named folder read-write and a named file read-only; what does not exist adds nothing', () => {
    expect(mountsOf([script, notes, join(temp, 'missing'), '/proc/self/environ'])).toEqual({
      write: [notes],
      read: [script],
    });
  });

  it("keeps a folder read-only when the entry's read names it or a folder above it, and adds nothing a write grant covers", () => {
    expect(mountsOf([notes], { read: [temp] })).toEqual({ write: [], read: [] });
    expect(mountsOf([notes], { write: [notes] })).toEqual({ write: [], read: [] });
    // Control: without the grant the same folder is written.
    expect(mountsOf([notes])).toEqual({ write: [notes], read: [] });
    // A system folder stays read-only.
    expect(mountsOf(['/usr/share'])).toEqual({ write: [], read: ['/usr/share'] });
  });

  it.each([
    ['the state folder', state, "is the gateway's state folder"],
    [
      'a file in it (the secret vault)',
      join(state, 'secrets.json'),
      "would expose the gateway's state folder",
    ],
    ['a folder above it', join(home, '.local'), "would expose the gateway's state folder"],
    ["the OAuth vault's folder", join(home, '.config', 'mcptools'), "is the OAuth token vault's folder"],
    ['the home as a whole', home, "is the user's home folder as a whole"],
    ['the root folder', '/', 'would expose'],
    [
      "the configuration file's folder",
      join(temp, 'gateway'),
      "would expose the gateway's configuration file",
    ],
    ['the temp folder as a whole', tmpdir(), 'is the temp folder as a whole'],
  ])('refuses %s, naming the server, the file, the field and the path', (_what, path, reason) => {
    expect(() => mountsOf(['-y', 'server', path])).toThrow(
      `server "files" in ${configFile}: args[2] "${path}" ${reason}`,
    );
  });

  it('mounts the workspace folder under the state folder, and a folder inside the home', () => {
    expect(mountsOf([join(state, 'workspace'), project])).toEqual({
      write: [join(state, 'workspace'), project],
      read: [],
    });
  });
});

describe("paths named in an entry's env", () => {
  const envMounts = (entryEnv: Record<string, string>, grants: { read?: string[]; write?: string[] } = {}) =>
    argumentMounts('files', { args: [], env: entryEnv }, grants, guarded, env, configFile);

  it('finds the values that are absolute paths, after the args, named by their variable', () => {
    expect(
      namedPaths({
        args: [notes],
        env: { DATA_DIR: project, API_URL: 'https://example.test/x', MODE: 'stdio', REL: './data' },
        cwd: project,
      }),
    ).toEqual([
      { path: notes, field: 'args[0]' },
      { path: project, field: 'env.DATA_DIR' },
    ]);
  });

  it('mounts a folder read-write and a file read-only; a path that does not exist adds nothing', () => {
    expect(
      envMounts({ DATA_DIR: notes, SCRIPT: script, MEMORY_FILE_PATH: join(temp, 'missing', 'memory.json') }),
    ).toEqual({ write: [notes], read: [script] });
    // A folder the entry's read names stays read-only; one its write names adds nothing.
    expect(envMounts({ DATA_DIR: notes }, { read: [temp] })).toEqual({ write: [], read: [] });
    expect(envMounts({ DATA_DIR: notes }, { write: [notes] })).toEqual({ write: [], read: [] });
    // Control: an entry without env adds nothing.
    expect(envMounts({})).toEqual({ write: [], read: [] });
  });

  it.each([
    ['the state folder', state, "is the gateway's state folder"],
    ['the secret vault in it', join(state, 'secrets.json'), "would expose the gateway's state folder"],
    ['the home as a whole', home, "is the user's home folder as a whole"],
    ['the configuration file', configFile, "is the gateway's configuration file"],
  ])('refuses %s, naming the server, the file, the variable and the path', (_what, path, reason) => {
    expect(() => envMounts({ DATA_DIR: path })).toThrow(
      `server "files" in ${configFile}: env.DATA_DIR "${path}" ${reason}`,
    );
  });
});

describe('the bind order of a box', () => {
  it('binds a folder before the ones inside it, so a read-only folder in a written one stays read-only', () => {
    const { args } = bwrapCommand(
      '/usr/bin/bwrap',
      { command: 'true', args: [] },
      {
        read: [join(notes, 'sub')],
        write: [notes],
      },
    );
    const at = (flag: string, path: string) =>
      args.findIndex((arg, index) => arg === flag && args[index + 1] === path);
    expect(at('--bind', notes)).toBeGreaterThan(-1);
    expect(at('--ro-bind', join(notes, 'sub'))).toBeGreaterThan(at('--bind', notes));
  });
});

describe('roots a boxed server is told', () => {
  const url = (path: string) => pathToFileURL(path).href;

  it('keeps roots inside its mounts, narrows a root that holds a mount to it, and removes the rest', () => {
    const roots = [
      { uri: url(join(notes, 'today')), name: 'today' },
      { uri: url(temp), name: 'everything' },
      { uri: url(join(home, 'elsewhere')) },
      { uri: 'https://example.com/repo' },
    ];
    expect(filterRoots(roots, [notes, script])).toEqual([
      { uri: url(join(notes, 'today')), name: 'today' },
      { uri: url(notes), name: 'everything' },
      { uri: url(script), name: 'everything' },
    ]);
    // Control: a root the box shows whole is kept as it was.
    expect(filterRoots([{ uri: url(notes) }], [notes])).toEqual([{ uri: url(notes) }]);
    expect(filterRoots(roots, [])).toEqual([]);
  });
});

describe('doctor on a boxed server whose args name a protected folder', () => {
  it('names the variable when the path came from the env', () => {
    const server = { type: 'stdio' as const, command: 'node', env: { DATA_DIR: home }, sandbox: true };
    const message = `server "files": env.DATA_DIR "${home}" is the user's home folder as a whole, which a box never mounts: name a folder that holds only what the server needs (docs/sandbox.md)`;
    const fix = suggestFix(server, checkServerConfig(server), {
      state: 'error',
      lastError: { message },
    } as never);
    expect(fix).toContain(`env.DATA_DIR names ${home}`);
  });

  it('explains that a box never mounts it and what to name instead', () => {
    const server = { type: 'stdio' as const, command: 'npx', args: ['-y', 'server', home], sandbox: true };
    const message = `server "files": args[2] "${home}" is the user's home folder as a whole, which a box never mounts: name a folder that holds only what the server needs (docs/sandbox.md)`;
    const fix = suggestFix(server, checkServerConfig(server), {
      state: 'error',
      lastError: { message },
    } as never);
    expect(fix).toContain(`args[2] names ${home}`);
    expect(fix).toContain('a folder inside it');
  });
});
