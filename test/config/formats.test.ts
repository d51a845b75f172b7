// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} placeholders under test, not templates.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { createTempConfigDir, type TempConfigDir } from './temp-config-dir.js';

let dir: TempConfigDir;
const env = { API_TOKEN: 'tok-123', HOME_URL: 'https://h.example' };

beforeAll(async () => {
  dir = await createTempConfigDir();
});
afterAll(async () => {
  await dir.remove();
});

/** Loads a fixture file, collecting warnings. */
async function load(relativePath: string, content: string | object) {
  const file = await dir.write(relativePath, content);
  const warnings: string[] = [];
  const config = await loadConfig(file, {
    cwd: dir.path,
    homeDir: '/home/user',
    env,
    onWarning: (message) => warnings.push(message),
  });
  return { config, warnings, file };
}

async function loadError(relativePath: string, content: string | object): Promise<McpToolsError> {
  const error = await load(relativePath, content).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!McpToolsError.isInstance(error)) throw new Error(`expected McpToolsError, got ${String(error)}`);
  return error;
}

describe('Claude Desktop (claude_desktop_config.json)', () => {
  it('reads command entries and url entries (HTTP with SSE fallback), ignoring other settings', async () => {
    const { config, warnings, file } = await load('claude/claude_desktop_config.json', {
      globalShortcut: 'Ctrl+Space',
      mcpServers: {
        files: { command: 'npx', args: ['-y', 'server-filesystem', '/tmp'], env: { DEBUG: '1', PORT: 8080 } },
        remote: { url: 'https://mcp.example/mcp' },
      },
    });
    expect(config.format).toBe('claude-desktop');
    expect(config.source).toBe(file);
    expect(config.servers).toEqual({
      files: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', 'server-filesystem', '/tmp'],
        env: { DEBUG: '1', PORT: '8080' },
      },
      remote: { type: 'http', url: 'https://mcp.example/mcp' },
    });
    expect(warnings).toEqual([]);
  });

  it('is detected from content alone under any file name', async () => {
    const { config } = await load('servers.json', { mcpServers: { a: { command: 'node', args: ['a.js'] } } });
    expect(config.format).toBe('claude-desktop');
    expect(config.servers.a).toEqual({ type: 'stdio', command: 'node', args: ['a.js'] });
  });

  it('warns about and ignores keys it does not use, naming server and key', async () => {
    const { config, warnings } = await load('claude_desktop_config.json', {
      mcpServers: { a: { command: 'node', autoApprove: ['x'] } },
    });
    expect(config.servers.a).toEqual({ type: 'stdio', command: 'node' });
    expect(warnings).toEqual([
      'claude_desktop_config.json: server "a": field "autoApprove": not used by mcptools, ignored',
    ]);
  });

  it('names the file, server and field of a bad entry', async () => {
    const error = await loadError('claude_desktop_config.json', {
      mcpServers: { a: { command: 'node', args: 'x' } },
    });
    expect(error.message).toMatch(/^claude_desktop_config.json: server "a": field "args": Invalid input/);
    expect(error.data.issues).toEqual([{ path: ['mcpServers', 'a', 'args'], message: expect.any(String) }]);
  });
});

describe('Claude Code (.mcp.json)', () => {
  it('maps type stdio, http (Streamable HTTP) and sse, with ${VAR:-default}', async () => {
    const { config } = await load('project-a/.mcp.json', {
      mcpServers: {
        local: {
          type: 'stdio',
          command: 'node',
          args: ['${SCRIPT:-server.js}'],
          env: { TOKEN: '${API_TOKEN}' },
        },
        remote: { type: 'http', url: '${HOME_URL}/mcp', headers: { Authorization: 'Bearer ${API_TOKEN}' } },
        old: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
      },
    });
    expect(config.format).toBe('claude-code');
    expect(config.servers).toEqual({
      local: { type: 'stdio', command: 'node', args: ['server.js'], env: { TOKEN: 'tok-123' } },
      remote: {
        type: 'streamable-http',
        url: 'https://h.example/mcp',
        headers: { Authorization: 'Bearer tok-123' },
      },
      old: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
    });
  });

  it('names the field of an unset variable', async () => {
    const error = await loadError('project-b/.mcp.json', {
      mcpServers: { remote: { type: 'http', url: '${MISSING_URL}' } },
    });
    expect(error.message).toBe(
      `${join('project-b', '.mcp.json')}: server "remote": field "url": environment variable "MISSING_URL" is not set (write \${MISSING_URL:-default} to give a default)`,
    );
    expect(error.data).toMatchObject({ server: 'remote', field: 'url', variable: 'MISSING_URL' });
  });
});

describe('Cursor (.cursor/mcp.json)', () => {
  it('reads url + headers and substitutes ${env:VAR}, ${workspaceFolder} and ${userHome}', async () => {
    const { config } = await load('.cursor/mcp.json', {
      mcpServers: {
        remote: { url: 'https://c.example/mcp', headers: { 'X-Token': '${env:API_TOKEN}' } },
        local: { command: '${userHome}/bin/server', args: ['${workspaceFolder}/data'], envFile: '.env' },
      },
    });
    expect(config.format).toBe('cursor');
    expect(config.servers.remote).toEqual({
      type: 'http',
      url: 'https://c.example/mcp',
      headers: { 'X-Token': 'tok-123' },
    });
    expect(config.servers.local).toMatchObject({
      command: '/home/user/bin/server',
      args: [`${dir.path}/data`],
    });
  });
});

describe('VS Code (.vscode/mcp.json)', () => {
  it('reads servers with stdio/http/sse types, skips inputs and leaves ${input:…} with a warning', async () => {
    const text = `{
      // VS Code writes JSONC
      "inputs": [{ "type": "promptString", "id": "api-key", "description": "Key", "password": true }],
      "servers": {
        "github": { "type": "http", "url": "https://api.example/mcp", "headers": { "Authorization": "Bearer \${input:api-key}" } },
        "fs": { "type": "stdio", "command": "npx", "args": ["server", "\${workspaceFolder}"], "dev": { "watch": "src/**" } },
        "old": { "type": "sse", "url": "http://127.0.0.1:9/sse" },
      },
    }`;
    const { config, warnings } = await load('.vscode/mcp.json', text);
    expect(config.format).toBe('vscode');
    expect(config.servers.github).toEqual({
      type: 'http',
      url: 'https://api.example/mcp',
      headers: { Authorization: 'Bearer ${input:api-key}' },
    });
    expect(config.servers.fs).toEqual({ type: 'stdio', command: 'npx', args: ['server', dir.path] });
    expect(config.servers.old?.type).toBe('sse');
    expect(warnings).toEqual([
      `${join('.vscode', 'mcp.json')}: server "github": field "headers.Authorization": placeholder \${input:api-key} is not supported and is left as is`,
      `${join('.vscode', 'mcp.json')}: server "fs": field "dev": not used by mcptools, ignored`,
    ]);
  });

  it('is told from mcptools.json by its inputs even under another name', async () => {
    const { config } = await load('vscode-like.json', {
      inputs: [],
      servers: { a: { type: 'stdio', command: 'x' } },
    });
    expect(config.format).toBe('vscode');
  });
});

describe('Windsurf (mcp_config.json)', () => {
  it('reads serverUrl, disabled and disabledTools', async () => {
    const { config } = await load('.codeium/windsurf/mcp_config.json', {
      mcpServers: {
        remote: {
          serverUrl: 'https://w.example/mcp',
          headers: { Authorization: 'Bearer ${env:API_TOKEN}' },
          disabled: true,
        },
        local: { command: 'node', disabledTools: ['delete_*'] },
      },
    });
    expect(config.format).toBe('windsurf');
    expect(config.servers.remote).toEqual({
      type: 'http',
      url: 'https://w.example/mcp',
      headers: { Authorization: 'Bearer tok-123' },
      enabled: false,
    });
    expect(config.servers.local).toEqual({ type: 'stdio', command: 'node', tools: { deny: ['delete_*'] } });
  });

  it('names serverUrl, as written, in errors', async () => {
    const error = await loadError('mcp_config.json', { mcpServers: { remote: { serverUrl: 'nope' } } });
    expect(error.message).toMatch(/^mcp_config.json: server "remote": field "serverUrl": Invalid URL/);
  });
});

describe('Codex (config.toml)', () => {
  const toml = `
model = "o4-mini"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-server"]
cwd = "work"
startup_timeout_sec = 20
tool_timeout_sec = 45.5
enabled_tools = ["search", "fetch"]
disabled_tools = ["fetch"]
env_vars = ["API_TOKEN", "NOT_SET_ANYWHERE"]

[mcp_servers.docs.env]
LEVEL = "debug"

[mcp_servers.remote]
url = "https://x.example/mcp"
bearer_token_env_var = "API_TOKEN"
http_headers = { "X-Team" = "core" }
env_http_headers = { "X-Home" = "HOME_URL", "X-Absent" = "NOT_SET_ANYWHERE" }
enabled = false
oauth_resource = "https://x.example"
`;

  it('reads [mcp_servers.<name>] tables and maps every Codex field', async () => {
    const { config, warnings } = await load('.codex/config.toml', toml);
    expect(config.format).toBe('codex');
    expect(config.servers.docs).toEqual({
      type: 'stdio',
      command: 'npx',
      args: ['-y', 'docs-server'],
      cwd: join(dir.path, '.codex', 'work'),
      env: { LEVEL: 'debug', API_TOKEN: 'tok-123' },
      connectTimeoutMs: 20000,
      callTimeoutMs: 45500,
      tools: { allow: ['search', 'fetch'], deny: ['fetch'] },
    });
    expect(config.servers.remote).toEqual({
      type: 'streamable-http',
      url: 'https://x.example/mcp',
      headers: { 'X-Team': 'core', 'X-Home': 'https://h.example' },
      auth: { type: 'bearer', token: 'tok-123' },
      enabled: false,
    });
    expect(warnings).toEqual([
      `${join('.codex', 'config.toml')}: server "remote": field "oauth_resource": not used by mcptools, ignored`,
    ]);
  });

  it('names bearer_token_env_var when its variable is unset', async () => {
    const error = await loadError(
      'codex-a/config.toml',
      '[mcp_servers.r]\nurl = "https://x.example/mcp"\nbearer_token_env_var = "NO_SUCH_TOKEN"\n',
    );
    expect(error.message).toMatch(
      /^codex-a\/config.toml: server "r": field "bearer_token_env_var": environment variable "NO_SUCH_TOKEN" is not set/,
    );
  });

  it('names Codex field names in validation errors', async () => {
    const error = await loadError(
      'codex-b/config.toml',
      '[mcp_servers.r]\ncommand = "x"\nstartup_timeout_sec = "soon"\n',
    );
    expect(error.data).toMatchObject({ server: 'r', field: 'startup_timeout_sec' });
    const tools = await loadError(
      'codex-c/config.toml',
      '[mcp_servers.r]\ncommand = "x"\nenabled_tools = [1]\n',
    );
    expect(tools.data).toMatchObject({ server: 'r', field: 'enabled_tools[0]' });
  });

  it('gives an empty server map for a config.toml without MCP servers', async () => {
    const { config } = await load('codex-d/config.toml', 'model = "o3"\n');
    expect(config.servers).toEqual({});
  });
});
