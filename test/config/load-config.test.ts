import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configSearchPaths } from '../../src/config/config-search-paths.js';
import { findConfigFile } from '../../src/config/find-config-file.js';
import { loadConfig } from '../../src/config/load-config.js';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { createTempConfigDir, type TempConfigDir } from './temp-config-dir.js';

let project: TempConfigDir;
let home: TempConfigDir;

beforeEach(async () => {
  project = await createTempConfigDir();
  home = await createTempConfigDir();
});
afterEach(async () => {
  await project.remove();
  await home.remove();
});

const server = (command: string) => ({ command });

describe('findConfigFile', () => {
  it('walks project files first, in order, then user files', async () => {
    const options = { cwd: project.path, homeDir: home.path, env: {}, platform: 'linux' as const };
    expect(await findConfigFile(options)).toBeUndefined();
    await home.write('.codex/config.toml', '');
    expect(await findConfigFile(options)).toBe(join(home.path, '.codex', 'config.toml'));
    await home.write('.codeium/windsurf/mcp_config.json', {});
    expect(await findConfigFile(options)).toBe(join(home.path, '.codeium', 'windsurf', 'mcp_config.json'));
    await home.write('.cursor/mcp.json', {});
    expect(await findConfigFile(options)).toBe(join(home.path, '.cursor', 'mcp.json'));
    await home.write('.config/Claude/claude_desktop_config.json', {});
    expect(await findConfigFile(options)).toBe(
      join(home.path, '.config', 'Claude', 'claude_desktop_config.json'),
    );
    await project.write('.vscode/mcp.json', {});
    expect(await findConfigFile(options)).toBe(join(project.path, '.vscode', 'mcp.json'));
    await project.write('.cursor/mcp.json', {});
    expect(await findConfigFile(options)).toBe(join(project.path, '.cursor', 'mcp.json'));
    await project.write('.mcp.json', {});
    expect(await findConfigFile(options)).toBe(join(project.path, '.mcp.json'));
    await project.write('mcptools.json', {});
    expect(await findConfigFile(options)).toBe(join(project.path, 'mcptools.json'));
  });

  it('skips a directory that has a config file name', async () => {
    await project.write('mcptools.json/keep', '');
    await project.write('.mcp.json', {});
    expect(await findConfigFile({ cwd: project.path, homeDir: home.path })).toBe(
      join(project.path, '.mcp.json'),
    );
  });

  it("uses Claude Desktop's path for each platform", () => {
    const paths = (platform: NodeJS.Platform, env = {}) =>
      configSearchPaths({ cwd: '/p', homeDir: '/h', platform, env }).find((path) =>
        path.endsWith('claude_desktop_config.json'),
      );
    expect(paths('darwin')).toBe(
      join('/h', 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json'),
    );
    expect(paths('win32', { APPDATA: '/appdata' })).toBe(
      join('/appdata', 'Claude', 'claude_desktop_config.json'),
    );
    expect(paths('linux', { XDG_CONFIG_HOME: '/xdg' })).toBe(
      join('/xdg', 'Claude', 'claude_desktop_config.json'),
    );
  });
});

describe('loadConfig', () => {
  it('discovers the first file and sets source and format', async () => {
    await project.write('.mcp.json', { mcpServers: { a: server('from-claude-code') } });
    await home.write('.cursor/mcp.json', { mcpServers: { b: server('from-cursor') } });
    const config = await loadConfig(undefined, { cwd: project.path, homeDir: home.path, env: {} });
    expect(config.source).toBe(join(project.path, '.mcp.json'));
    expect(config.format).toBe('claude-code');
    expect(Object.keys(config.servers)).toEqual(['a']);
  });

  it('falls back to user-level files without touching the real home', async () => {
    await home.write('.codex/config.toml', '[mcp_servers.c]\ncommand = "codex-server"\n');
    const config = await loadConfig(undefined, { cwd: project.path, homeDir: home.path, env: {} });
    expect(config.servers.c).toEqual({ type: 'stdio', command: 'codex-server' });
    expect(config.source).toBe(join(home.path, '.codex', 'config.toml'));
  });

  it('throws CONFIG_INVALID listing the searched files when none exists, or returns no servers if optional', async () => {
    const options = { cwd: project.path, homeDir: home.path, env: {} };
    const error = await loadConfig(undefined, options).catch((thrown: unknown) => thrown);
    expect(McpToolsError.isInstance(error) && error.code).toBe('CONFIG_INVALID');
    expect((error as McpToolsError).message).toMatch(
      /no configuration file found \(looked for mcptools\.json, \.mcp\.json, /,
    );
    expect((error as McpToolsError).data.searched).toEqual(configSearchPaths(options));
    expect(await loadConfig(undefined, { ...options, optional: true })).toEqual({ servers: {} });
  });

  it('loads a relative path against cwd and names a missing file', async () => {
    await project.write('conf/tools.json', { servers: { a: server('x') } });
    const config = await loadConfig('conf/tools.json', { cwd: project.path, env: {} });
    expect(config.source).toBe(join(project.path, 'conf', 'tools.json'));
    const missing = await loadConfig('nope.json', { cwd: project.path }).catch((thrown: unknown) => thrown);
    expect((missing as McpToolsError).message).toBe('nope.json: file not found');
  });

  it('accepts an already-parsed object in any format', async () => {
    const config = await loadConfig({ mcpServers: { a: { url: 'http://127.0.0.1:1/mcp' } } }, { env: {} });
    expect(config.servers.a).toEqual({ type: 'http', url: 'http://127.0.0.1:1/mcp' });
    expect(config.source).toBeUndefined();
  });

  it('reads JSONC: comments and trailing commas', async () => {
    await project.write(
      'mcptools.json',
      '{\n  // a comment\n  "servers": { /* inline */ "a": { "command": "x", }, },\n}\n',
    );
    const config = await loadConfig(undefined, { cwd: project.path, homeDir: home.path, env: {} });
    expect(config.servers.a).toEqual({ type: 'stdio', command: 'x' });
  });

  it.each([
    ['', 'line 1, column 1: the file is empty'],
    ['{ "servers": {} ', 'line 1, column 17: expected "," or "}"'],
    ['{\n  "servers" {}\n}', 'line 2, column 13: expected ":" after a property name'],
    ['{ "servers": { "a": "x\ny" } }', 'line 1, column 23: control character in a string'],
    ['{ "servers": {} } extra', 'line 1, column 19: unexpected content after the end of the document'],
    ['{ "a": "\\q" }', 'line 1, column 8: invalid escape sequence in a string'],
    ['{ /* open', 'line 1, column 3: unterminated comment'],
    ["{ 'a': 1 }", 'line 1, column 3: expected a double-quoted property name or "}"'],
  ])('names file, line and column of invalid JSON %j', async (text, position) => {
    await project.write('mcptools.json', text);
    const error = await loadConfig(undefined, { cwd: project.path, homeDir: home.path }).catch(
      (thrown: unknown) => thrown,
    );
    expect((error as McpToolsError).code).toBe('CONFIG_INVALID');
    expect((error as McpToolsError).message).toContain(`mcptools.json: invalid JSON at ${position}`);
  });

  it('refuses a file nested thousands of levels deep with CONFIG_INVALID naming it, not a RangeError', async () => {
    for (const [name, text] of [
      ['mcptools.json', `{ "servers": {}, "x": ${'['.repeat(3000)}${']'.repeat(3000)} }`],
      ['mcptools.json', `{ "servers": {}, "x": ${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)} }`],
      ['config.toml', `[mcp_servers.a]\ncommand = "x"\nargs = ${'['.repeat(3000)}${']'.repeat(3000)}\n`],
    ] as const) {
      const file = await project.write(name, text);
      const error = await loadConfig(file, { cwd: project.path, homeDir: home.path, env: {} }).catch(
        (thrown: unknown) => thrown,
      );
      expect((error as McpToolsError).code).toBe('CONFIG_INVALID');
      expect((error as McpToolsError).message.startsWith(`${name}: invalid `)).toBe(true);
      expect((error as McpToolsError).message).toMatch(/at line \d+, column \d+: .*nested/);
    }
  });

  it('refuses "__proto__" as a server name rather than polluting the servers map', async () => {
    await project.write('mcptools.json', '{ "servers": { "__proto__": { "command": "x" } } }');
    const error = await loadConfig(undefined, { cwd: project.path, homeDir: home.path, env: {} }).catch(
      (thrown: unknown) => thrown,
    );
    expect((error as McpToolsError).message).toBe(
      'mcptools.json: server "__proto__": is not an allowed server name',
    );
    expect(({} as Record<string, unknown>).command).toBeUndefined();
  });

  it('rejects a file in no known format', async () => {
    await project.write('other.json', { hello: 'world' });
    const error = await loadConfig('other.json', { cwd: project.path }).catch((thrown: unknown) => thrown);
    expect((error as McpToolsError).message).toMatch(/^other\.json: unrecognized format/);
  });
});
