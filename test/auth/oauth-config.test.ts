// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} placeholders under test, not templates.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { redactConfig } from '../../src/config/redact-config.js';
import { caughtMcpToolsError } from '../caught-error.js';

const secret = 'oauth-client-s3cr3t-canary';

describe('auth: { type: "oauth" } in the configuration', () => {
  it('accepts every field and interpolates ${VAR} in the client id, secret and scopes', () => {
    const config = parseConfig(
      {
        servers: {
          linear: {
            url: 'https://mcp.example.com/mcp',
            auth: {
              type: 'oauth',
              clientId: '${CLIENT_ID}',
              clientSecret: '${CLIENT_SECRET}',
              scopes: ['read', '${EXTRA_SCOPE}'],
              grant: 'client_credentials',
              clientMetadataUrl: 'https://client.example.com/mcptools.json',
              redirectPort: 8765,
            },
          },
        },
      },
      { file: 'mcptools.json', env: { CLIENT_ID: 'cid', CLIENT_SECRET: secret, EXTRA_SCOPE: 'write' } },
    );
    const server = config.servers.linear!;
    expect(server.type === 'http' && server.auth).toEqual({
      type: 'oauth',
      clientId: 'cid',
      clientSecret: secret,
      scopes: ['read', 'write'],
      grant: 'client_credentials',
      clientMetadataUrl: 'https://client.example.com/mcptools.json',
      redirectPort: 8765,
    });
    const printed = JSON.stringify(redactConfig(config));
    expect(printed).not.toContain(secret);
    expect(printed).toContain('"clientId":"cid"');
  });

  it('names the file, the server and the field of a bad value, never the secret', async () => {
    const error = await caughtMcpToolsError(() =>
      parseConfig(
        {
          servers: {
            linear: {
              url: 'https://mcp.example.com/mcp',
              auth: { type: 'oauth', clientSecret: secret, grant: 'password' },
            },
          },
        },
        { file: 'mcptools.json', env: {} },
      ),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('mcptools.json');
    expect(error.message).toContain('"linear"');
    expect(error.message).toContain('auth.grant');
    expect(error.message).not.toContain(secret);
  });

  it('refuses a client metadata URL that is not https with a path', async () => {
    const error = await caughtMcpToolsError(() =>
      parseConfig(
        {
          servers: {
            s: {
              url: 'https://a.example/mcp',
              auth: { type: 'oauth', clientMetadataUrl: 'http://x.example/c' },
            },
          },
        },
        { file: 'mcptools.json', env: {} },
      ),
    );
    expect(error.message).toContain('auth.clientMetadataUrl');
  });

  it('an unset variable in the secret is an error naming the variable', async () => {
    const error = await caughtMcpToolsError(() =>
      parseConfig(
        {
          servers: {
            s: { url: 'https://a.example/mcp', auth: { type: 'oauth', clientSecret: '${NOPE_SECRET}' } },
          },
        },
        { file: 'mcptools.json', env: {} },
      ),
    );
    expect(error.message).toContain('NOPE_SECRET');
  });
});
