// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} placeholders under test, not templates.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';

const env = { GITHUB_TOKEN: 'ghp_example' };
const options = { file: 'mcptools.json', cwd: '/project', homeDir: '/home/user', env, onWarning: () => {} };

/** Runs `parseConfig` and returns the error it throws. */
function failure(value: unknown, overrides: Partial<typeof options> = {}): McpToolsError {
  try {
    parseConfig(value, { ...options, ...overrides });
  } catch (error) {
    if (McpToolsError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('parseConfig did not throw');
}

describe('mcptools.json', () => {
  it('normalizes the example configuration', () => {
    const config = parseConfig(
      {
        servers: {
          files: {
            type: 'stdio',
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-filesystem', '.'],
          },
          github: {
            type: 'streamable-http',
            url: 'https://api.example.com/mcp',
            headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
            tools: { deny: ['*delete*'] },
          },
          legacy: { type: 'sse', url: 'http://127.0.0.1:8080/sse', enabled: false },
        },
        namespace: { separator: '__', maxLength: 64 },
        router: { listMaxResources: 200, readMaxBytes: 262144 },
      },
      options,
    );
    expect(config).toEqual({
      servers: {
        files: {
          type: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '.'],
        },
        github: {
          type: 'streamable-http',
          url: 'https://api.example.com/mcp',
          headers: { Authorization: 'Bearer ghp_example' },
          tools: { deny: ['*delete*'] },
        },
        legacy: { type: 'sse', url: 'http://127.0.0.1:8080/sse', enabled: false },
      },
      namespace: { separator: '__', maxLength: 64 },
      router: { listMaxResources: 200, readMaxBytes: 262144 },
      format: 'mcptools',
      source: join('/project', 'mcptools.json'),
    });
  });

  it('infers stdio from command and http (Streamable HTTP with SSE fallback) from url', () => {
    const config = parseConfig(
      { servers: { local: { command: 'node' }, remote: { url: 'http://127.0.0.1:1/mcp' } } },
      options,
    );
    expect(config.servers.local?.type).toBe('stdio');
    expect(config.servers.remote?.type).toBe('http');
  });

  it('keeps every per-server setting and both auth kinds', () => {
    const config = parseConfig(
      {
        servers: {
          a: {
            url: 'https://a.example/mcp',
            auth: { type: 'bearer', token: '${GITHUB_TOKEN}' },
            enabled: true,
            connectTimeoutMs: 5000,
            callTimeoutMs: 9000,
            tools: { allow: ['read_*'], deny: ['read_secret'] },
            prefix: 'alpha',
            protocol: '2025',
          },
          b: {
            type: 'http',
            url: 'https://b.example/mcp',
            auth: { type: 'api-key', key: 'k-1', header: 'X-Key' },
          },
        },
        tools: { deny: ['*_delete'] },
        maxResultChars: 5000,
      },
      options,
    );
    expect(config.servers.a).toMatchObject({
      auth: { type: 'bearer', token: 'ghp_example' },
      connectTimeoutMs: 5000,
      callTimeoutMs: 9000,
      tools: { allow: ['read_*'], deny: ['read_secret'] },
      prefix: 'alpha',
      protocol: '2025',
    });
    expect(config.servers.b).toMatchObject({
      type: 'http',
      auth: { type: 'api-key', key: 'k-1', header: 'X-Key' },
    });
    expect(config.tools).toEqual({ deny: ['*_delete'] });
    expect(config.maxResultChars).toBe(5000);
  });

  it('resolves a relative cwd and workspaceDir against the config file and ~ against home', () => {
    const config = parseConfig(
      {
        servers: { a: { command: 'node', cwd: 'tools' }, b: { command: 'node', cwd: '~/bin' } },
        workspaceDir: '.',
      },
      { ...options, file: 'conf/mcptools.json' },
    );
    expect(config.servers.a).toMatchObject({ cwd: join('/project', 'conf', 'tools') });
    expect(config.servers.b).toMatchObject({ cwd: join('/home/user', 'bin') });
    expect(config.workspaceDir).toBe(join('/project', 'conf'));
  });

  it('accepts an optional $schema key and an already normalized config passed back in', () => {
    const first = parseConfig(
      { $schema: 'https://example.invalid/schema.json', servers: { a: { command: 'x' } } },
      options,
    );
    const again = parseConfig(first, { env, onWarning: () => {} });
    expect(again.servers).toEqual(first.servers);
    expect(again.source).toBe(first.source);
  });
});

describe('mcptools.json errors name file, server and field', () => {
  it.each([
    [{ servers: { github: { url: 'not a url' } } }, 'github', 'url', /Invalid URL/],
    [{ servers: { github: { url: 'ftp://x.example/' } } }, 'github', 'url', /Invalid URL/],
    [
      { servers: { github: { comand: 'npx' } } },
      'github',
      'comand',
      /unknown field \(did you mean "command"\?\)/,
    ],
    [{ servers: { github: { command: 'npx', agrs: [] } } }, 'github', 'agrs', /did you mean "args"/],
    [{ servers: { github: { type: 'websocket', url: 'http://x/' } } }, 'github', 'type', /must be one of/],
    [{ servers: { github: { type: 'stdio', url: 'http://x/' } } }, 'github', 'url', /unknown field/],
    [{ servers: { github: { command: 'npx', args: ['a', 2] } } }, 'github', 'args[1]', /expected string/],
    [{ servers: { github: { command: 'npx', env: { A: 1 } } } }, 'github', 'env.A', /expected string/],
    [
      { servers: { github: { command: 'npx', connectTimeoutMs: -1 } } },
      'github',
      'connectTimeoutMs',
      /must be a positive number of milliseconds/,
    ],
    [{ servers: { github: { command: 'npx', protocol: '2024' } } }, 'github', 'protocol', /Invalid option/],
    [
      { servers: { github: { command: 'npx', tools: { alow: ['x'] } } } },
      'github',
      'tools.alow',
      /unknown field/,
    ],
    [
      { servers: { github: { url: 'http://x/', auth: { type: 'bearer' } } } },
      'github',
      'auth.token',
      /is required/,
    ],
    [{ servers: { github: { command: '' } } }, 'github', 'command', /must not be empty/],
    [{ servers: { github: 'npx' } }, 'github', undefined, /must be an object/],
    [{ servers: { github: {} } }, 'github', undefined, /needs "command" \(a stdio server\) or "url"/],
    [
      { servers: { github: { url: 'http://x/', headers: { 'Bad Name': 'v' } } } },
      'github',
      'headers.Bad Name',
      /not a valid HTTP header name/,
    ],
    [
      { servers: { github: { url: 'http://x/', headers: { 'X-A': 'v\r\nX-B: 1' } } } },
      'github',
      'headers.X-A',
      /must not contain line breaks/,
    ],
    [{ servers: { '': { command: 'x' } } }, '', undefined, /is not an allowed server name/],
  ])('%j', (value, server, field, message) => {
    const error = failure(value);
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.data).toMatchObject({ file: 'mcptools.json', server, field });
    expect(error.data.issues).toBeInstanceOf(Array);
    const prefix = `mcptools.json: server "${server}": ${field === undefined ? '' : `field "${field}": `}`;
    expect(error.message.startsWith(prefix)).toBe(true);
    expect(error.message).toMatch(message);
  });

  it('names a misspelt top-level key with a hint, before the missing key it causes', () => {
    const error = failure({ servres: {} });
    expect(error.message).toBe(
      'mcptools.json: field "servres": unknown field (did you mean "servers"?) (and 1 more problem)',
    );
    expect(error.data.issues).toEqual([
      { path: ['servres'], message: 'unknown field (did you mean "servers"?)' },
      { path: ['servers'], message: 'is required (expected object)' },
    ]);
  });

  it('checks top-level settings', () => {
    expect(failure({ servers: {}, namespace: { separator: '' } }).data.field).toBe('namespace.separator');
    expect(failure({ servers: {}, maxResultChars: 'big' }).data.field).toBe('maxResultChars');
    expect(failure({ servers: [] }).message).toMatch(/^mcptools.json: field "servers": /);
  });

  it('turns an unset variable of a disabled server into a warning, since it is never started', () => {
    const warnings: string[] = [];
    const config = parseConfig(
      { servers: { off: { url: 'https://x.example/${NOPE}', enabled: false }, on: { command: 'x' } } },
      { ...options, onWarning: (message) => warnings.push(message) },
    );
    expect(config.servers.off).toEqual({ type: 'http', url: 'https://x.example/${NOPE}', enabled: false });
    expect(warnings).toEqual([
      'mcptools.json: server "off": field "url": environment variable "NOPE" is not set (write ${NOPE:-default} to give a default) (the server is disabled, so this is not an error)',
    ]);
    expect(failure({ servers: { on: { url: 'https://x.example/${NOPE}' } } }).data.field).toBe('url');
  });

  it('names every unset variable of every server in one error, the first with how to give a default', () => {
    const error = failure({
      servers: {
        a: { command: 'x', env: { K: '${NOPE_ONE}', L: '${NOPE_TWO}' } },
        b: { url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer ${NOPE_THREE}' } },
        fine: { command: 'y', env: { M: '${NOPE_FOUR:-default}' } },
      },
    });
    expect(error.message).toBe(
      'mcptools.json: server "a": field "env.K": environment variable "NOPE_ONE" is not set (write ${NOPE_ONE:-default} to give a default); also unset: mcptools.json: server "a": field "env.L": "NOPE_TWO"; mcptools.json: server "b": field "headers.Authorization": "NOPE_THREE"',
    );
    expect(error.data.variables).toEqual(['NOPE_ONE', 'NOPE_TWO', 'NOPE_THREE']);
    expect(error.data.issues).toHaveLength(3);
    // The control: one unset variable reads as before.
    expect(failure({ servers: { on: { url: 'https://x.example/${NOPE}' } } }).message).toBe(
      'mcptools.json: server "on": field "url": environment variable "NOPE" is not set (write ${NOPE:-default} to give a default)',
    );
  });

  it('honours an explicit format over detection', () => {
    const error = failure({ mcpServers: {} }, { format: 'mcptools' } as Partial<typeof options>);
    expect(error.message).toMatch(/field "mcpServers": unknown field/);
  });

  it('rejects a value that is no object', () => {
    expect(failure([1, 2]).message).toMatch(/^mcptools.json: must be a JSON object/);
  });

  it('reports issue paths from the top of the file', () => {
    const error = failure({ servers: { github: { url: 'nope' } } });
    expect(error.data.issues).toEqual([{ path: ['servers', 'github', 'url'], message: expect.any(String) }]);
    expect(error.recoverable).toBe(false);
  });
});
