// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} placeholders under test, not templates.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { type OidcFixture, startOidcProvider } from '../fixtures/oidc/oidc-fixture.js';
import { freePort } from '../helpers/free-port.js';
import { initializeRequest } from '../helpers/initialize-request.js';

/*
 * Secrets written as `${VAR}` in the gateway section of a configuration file: the static token
 * and the introspection client secret are read from the environment like a server entry's, the
 * placeholder text is never a token, and an unset variable stops the start naming file, field
 * and variable. A real OpenID provider on loopback answers the introspection.
 */

const CI_SECRET = 'the-real-ci-secret-0123456789';
const GATEWAY_SECRET = 'gateway-secret-0123456789';

let dir: string;
let oidc: OidcFixture;
let gateway: Gateway;
let provider: McpToolHub;
let url: string;
let opaqueAudience: string;

function writeConfig(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

const initialize = JSON.stringify(initializeRequest());

async function status(token: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: initialize,
  });
  await response.text();
  return response.status;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-config-secrets-'));
  const port = await freePort();
  opaqueAudience = `http://127.0.0.1:${port}/mcp`;
  oidc = await startOidcProvider({
    jwtResources: ['http://127.0.0.1:1/unused'],
    opaqueResources: [opaqueAudience],
    users: { alice: { groups: [] } },
    clients: { 'app-a': 'app-a-secret-0123456789', gateway: GATEWAY_SECRET },
  });
  const file = writeConfig('mcptools.json', {
    servers: {},
    gateway: {
      auth: {
        type: 'oauth',
        issuer: oidc.issuer,
        audience: opaqueAudience,
        introspection: { clientId: 'gateway', clientSecret: '${MCPTOOLS_INTROSPECTION_SECRET}' },
      },
      tokens: { ci: { token: '${MCPTOOLS_CI_TOKEN}', principal: 'ci-bot', owner: true } },
    },
  });
  const config = await loadConfig(file, {
    env: { MCPTOOLS_CI_TOKEN: CI_SECRET, MCPTOOLS_INTROSPECTION_SECRET: GATEWAY_SECRET },
  });
  const registry = new ToolRegistry();
  provider = await loadMcpServers({ servers: {} }, registry);
  gateway = createGateway({ registry, provider, config });
  ({ url } = await gateway.listen({ host: '127.0.0.1', port }));
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await provider?.close();
  await oidc?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('${VAR} in the gateway section', () => {
  it('refuses the placeholder text as a bearer token and accepts the secret its variable holds', async () => {
    expect(await status('${MCPTOOLS_CI_TOKEN}')).toBe(401);
    expect(await status(CI_SECRET)).toBe(200);
  });

  it('sends the interpolated introspection secret: an opaque token of the provider is let in', async () => {
    const before = oidc.counts.introspection;
    const token = await oidc.userToken('alice', 'app-a', opaqueAudience);
    expect(await status(token)).toBe(200);
    expect(oidc.counts.introspection).toBe(before + 1);
    // The control: a token the provider does not know is still refused.
    expect(await status('AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg')).toBe(401);
  });

  it('stops the start at unset variables, naming the file, every field and every variable', async () => {
    const file = writeConfig('unset.json', {
      servers: {},
      gateway: {
        auth: {
          type: 'oauth',
          issuer: 'http://127.0.0.1:1',
          audience: 'http://127.0.0.1:2/mcp',
          introspection: { clientId: 'gateway', clientSecret: '${MCPTOOLS_UNSET_SECRET}' },
        },
        tokens: { ci: { token: '${MCPTOOLS_UNSET_TOKEN}' } },
      },
      telemetry: { endpoint: '${MCPTOOLS_UNSET_OTLP}' },
    });
    const error = await loadConfig(file, { env: {}, cwd: dir }).catch((caught: unknown) => caught);
    expect(McpToolsError.isInstance(error) && error.code).toBe('CONFIG_INVALID');
    const message = (error as Error).message;
    expect(message).toMatch(
      /^unset\.json: field "gateway\.tokens\.ci\.token": environment variable "MCPTOOLS_UNSET_TOKEN" is not set/,
    );
    expect(message).toContain(
      '"gateway.auth.introspection.clientSecret": environment variable "MCPTOOLS_UNSET_SECRET"',
    );
    expect(message).toContain('"telemetry.endpoint": environment variable "MCPTOOLS_UNSET_OTLP"');
    expect((error as McpToolsError).data).toMatchObject({
      variables: ['MCPTOOLS_UNSET_TOKEN', 'MCPTOOLS_UNSET_SECRET', 'MCPTOOLS_UNSET_OTLP'],
    });
  });

  it('refuses a value still holding ${ after interpolation, and reads ${VAR:-default} and telemetry.endpoint', async () => {
    const editor = writeConfig('editor.json', {
      servers: {},
      gateway: { tokens: { ci: { token: '${input:ci-token}' } } },
    });
    await expect(loadConfig(editor, { env: {} })).rejects.toThrow(
      /field "gateway\.tokens\.ci\.token": holds a placeholder that is not an environment variable/,
    );
    const defaults = writeConfig('defaults.json', {
      servers: {},
      gateway: { tokens: { ci: { token: '${MCPTOOLS_UNSET_TOKEN:-a-default-token-0123456789}' } } },
      telemetry: { endpoint: 'http://${MCPTOOLS_OTLP_HOST}:4318' },
    });
    const config = await loadConfig(defaults, { env: { MCPTOOLS_OTLP_HOST: '127.0.0.1' } });
    expect(config.gateway?.tokens?.ci?.token).toBe('a-default-token-0123456789');
    expect(config.telemetry?.endpoint).toBe('http://127.0.0.1:4318');
  });

  it('refuses a configuration given to createGateway with a placeholder left in a credential', async () => {
    const registry = new ToolRegistry();
    expect(() =>
      createGateway({
        registry,
        provider,
        config: { servers: {}, gateway: { tokens: { ci: { token: '${MCPTOOLS_CI_TOKEN}' } } } },
      }),
    ).toThrow(/gateway\.tokens\.ci\.token: holds a \$\{…\} placeholder/);
  });
});
