// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} placeholders under test, not templates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { redactConfig, redactServer } from '../../src/config/redact-config.js';
import { redactUrl } from '../../src/config/redact-url.js';
import { SecretRedactor } from '../../src/config/secret-redactor.js';
import { serverSecrets } from '../../src/config/server-secrets.js';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { caughtMcpToolsError } from '../caught-error.js';
import { createTempConfigDir, type TempConfigDir } from './temp-config-dir.js';

const secret = 'sk-live-5up3r-s3cr3t';

let dir: TempConfigDir;
beforeAll(async () => {
  dir = await createTempConfigDir();
});
afterAll(async () => {
  await dir.remove();
});

/** Everything an error could leak through: message, JSON view, stack and cause chain. */
function everything(error: unknown): string {
  const seen: string[] = [];
  let current: unknown = error;
  while (current instanceof Error) {
    seen.push(current.message, current.stack ?? '', JSON.stringify(current));
    if (McpToolsError.isInstance(current)) seen.push(JSON.stringify(current.toJSON()));
    current = current.cause;
  }
  return seen.join('\n');
}

describe('no error message carries a secret', () => {
  it('a bad field next to a secret header', async () => {
    const error = await caughtMcpToolsError(() =>
      parseConfig(
        { servers: { github: { url: 'not a url', headers: { Authorization: `Bearer ${secret}` } } } },
        { file: 'mcptools.json', env: {} },
      ),
    );
    expect(error.message).toBe(
      'mcptools.json: server "github": field "url": Invalid URL (expected an http: or https: URL)',
    );
    expect(everything(error)).not.toContain(secret);
  });

  it('a secret that itself is the wrong type, or in a misspelt key', async () => {
    for (const entry of [
      { url: 'https://x.example/', headers: { Authorization: [secret] } },
      { url: 'https://x.example/', auth: { type: 'bearer', tokn: secret } },
      { url: 'https://x.example/', auth: { type: 'basic', token: secret } },
      { command: 'x', env: { KEY: { nested: secret } } },
      { url: `https://user:${secret}@x.example/`, type: 'stdio' },
      { url: `ftp://user:${secret}@x.example/` },
    ]) {
      const error = await caughtMcpToolsError(() =>
        parseConfig({ servers: { s: entry } }, { file: 'mcptools.json', env: {} }),
      );
      expect(error.data.server).toBe('s');
      expect(everything(error)).not.toContain(secret);
    }
  });

  it('an interpolated secret that makes a URL invalid', async () => {
    const error = await caughtMcpToolsError(() =>
      parseConfig(
        { servers: { s: { url: '${URL}' } } },
        { file: 'mcptools.json', env: { URL: `${secret} x` } },
      ),
    );
    expect(error.data.field).toBe('url');
    expect(everything(error)).not.toContain(secret);
  });

  it('invalid JSON around a secret (JSON.parse would quote the text)', async () => {
    const file = await dir.write(
      'mcptools.json',
      `{ "servers": { "a": { "url": "https://x/", "headers": { "K": ${secret} } } } }`,
    );
    const error = await caughtMcpToolsError(() => loadConfig(file, { cwd: dir.path, env: {} }));
    expect(error.message).toBe('mcptools.json: invalid JSON at line 1, column 62: expected a value');
    expect(error.data).toMatchObject({ file: 'mcptools.json', line: 1, column: 62 });
    expect(everything(error)).not.toContain(secret);
  });

  it('invalid TOML around a secret (smol-toml would quote the text)', async () => {
    const file = await dir.write(
      'codex/config.toml',
      `[mcp_servers.a]\nurl = "https://x/"\nbearer_token = "${secret}"\nhttp_headers = = 1\n`,
    );
    const error = await caughtMcpToolsError(() => loadConfig(file, { cwd: dir.path, env: {} }));
    expect(error.message).toMatch(/^codex\/config.toml: invalid TOML at line 4, column \d+: /);
    expect(everything(error)).not.toContain(secret);
  });

  it('a warning about an ignored key carries no value', async () => {
    const warnings: string[] = [];
    parseConfig(
      { mcpServers: { a: { command: 'x', apiKey: secret } } },
      { env: {}, onWarning: (message) => warnings.push(message) },
    );
    expect(warnings).toHaveLength(1);
    expect(warnings.join()).not.toContain(secret);
  });
});

describe('redactConfig / redactServer', () => {
  it('hides env, header, auth and URL secrets but keeps names', () => {
    const config = parseConfig(
      {
        servers: {
          local: {
            command: 'node',
            args: ['srv.js', '--token', secret, `--api-key=${secret}`, '--port', '80'],
            env: { KEY: secret },
          },
          remote: {
            url: `https://me:${secret}@x.example/mcp?key=${secret}&region=eu`,
            headers: { Authorization: `Bearer ${secret}` },
            auth: { type: 'bearer', token: secret },
          },
          keyed: { url: 'https://k.example/mcp', auth: { type: 'api-key', key: secret, header: 'X-Key' } },
        },
      },
      { env: {} },
    );
    const redacted = redactConfig(config);
    expect(JSON.stringify(redacted)).not.toContain(secret);
    expect(redacted.servers.local).toEqual({
      type: 'stdio',
      command: 'node',
      args: ['srv.js', '--token', '***', '--api-key=***', '--port', '80'],
      env: { KEY: '***' },
    });
    expect(redacted.servers.remote).toEqual({
      type: 'http',
      url: 'https://***:***@x.example/mcp?key=***&region=***',
      headers: { Authorization: '***' },
      auth: { type: 'bearer', token: '***' },
    });
    expect(redacted.servers.keyed).toMatchObject({ auth: { type: 'api-key', key: '***', header: 'X-Key' } });
    // The original is untouched.
    expect(config.servers.local).toMatchObject({ env: { KEY: secret } });
  });

  it('leaves a plain loopback URL as it is', () => {
    expect(redactServer({ type: 'sse', url: 'http://127.0.0.1:8080/sse' })).toEqual({
      type: 'sse',
      url: 'http://127.0.0.1:8080/sse',
    });
    expect(redactUrl('http://127.0.0.1:8080/sse')).toBe('http://127.0.0.1:8080/sse');
  });

  it('hides userinfo and query values even in text that is no URL', () => {
    expect(redactUrl(`//me:${secret}@host/x?token=${secret}`)).toBe('//***@host/x?token=***');
  });
});

describe('a query key without a value', () => {
  it('is hidden whole by redactUrl, in URLs and in text that is no URL', () => {
    expect(redactUrl(`https://api.example/mcp?${secret}`)).toBe('https://api.example/mcp?***');
    expect(redactUrl(`https://api.example/mcp?${secret}&region=eu`)).toBe(
      'https://api.example/mcp?***&region=***',
    );
    expect(redactUrl(`//host/x?${secret}`)).toBe('//host/x?***');
  });

  it('is a secret of its server', () => {
    expect(serverSecrets({ type: 'http', url: `https://api.example/mcp?${secret}` })).toContain(secret);
  });
});

describe('SecretRedactor', () => {
  it('hides every ${VAR} value of a server, wherever the placeholder sat', () => {
    const config = parseConfig(
      {
        servers: {
          local: { command: 'server', args: ['--region', 'eu', '${KEY}'] },
          remote: { url: 'https://api.example/${KEY}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
        },
      },
      { env: { KEY: secret, TOKEN: 'tok-123456789' } },
    );
    const redactor = SecretRedactor.forConfig(config);
    expect(redactor.text(`no key ${secret}, no token tok-123456789`)).toBe('no key ***, no token ***');
    expect(redactServer(config.servers.local!)).toMatchObject({ args: ['--region', 'eu', '***'] });
    expect(redactServer(config.servers.remote!)).toMatchObject({ url: 'https://api.example/***/mcp' });
    // The remembered values stay invisible to JSON and key listings.
    expect(Object.keys(config.servers.remote!).sort()).toEqual(['headers', 'type', 'url']);
  });

  it('matches URL-encoded and JSON-escaped forms, not ordinary words', () => {
    const redactor = new SecretRedactor(['p@ss/wo"rd', 'true', 'abc', '8080']);
    expect(redactor.text('a p%40ss%2Fwo%22rd b')).toBe('a *** b');
    expect(redactor.text(JSON.stringify({ key: 'p@ss/wo"rd' }))).toBe('{"key":"***"}');
    expect(redactor.text('true abc 8080')).toBe('true abc 8080');
  });

  it('redacts an error in place down its cause chain, stack and data included', () => {
    const cause = new Error(`upstream said ${secret}`);
    const error = new McpToolsError('UPSTREAM_ERROR', `failed: ${secret}`, {
      cause,
      data: { echoed: [secret] },
    });
    const redactor = new SecretRedactor([secret]);
    expect(redactor.error(error)).toBe(error);
    expect(error.message).toBe('failed: ***');
    expect(error.stack).not.toContain(secret);
    expect(cause.message).toBe('upstream said ***');
    expect(cause.stack).not.toContain(secret);
    expect(error.data).toEqual({ echoed: ['***'] });
  });

  it('copies only the parts of a value that held a secret', () => {
    const untouched = { a: 1, b: ['x'] };
    const value = { untouched, hit: { text: `key ${secret}` } };
    const redacted = new SecretRedactor([secret]).value(value);
    expect(redacted).toEqual({ untouched, hit: { text: 'key ***' } });
    expect(redacted.untouched).toBe(untouched);
    expect(value.hit.text).toContain(secret);
  });
});
