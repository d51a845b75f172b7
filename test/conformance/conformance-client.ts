// The client the official MCP conformance suite drives (client mode): one scenario per run,
// named by MCP_CONFORMANCE_SCENARIO, against the server URL given as the last argument. It is
// mcptools as a host uses it: loadMcpServers with a scripted browser for OAuth.

import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import type { OAuthConfig } from '../../src/config/config-types.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';

/** Where the suite's authorization servers may fetch this client's metadata document (SEP-991). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** Tools the scenarios' servers offer, with the arguments each expects. */
const scenarioTools: Record<string, Record<string, unknown>> = {
  add_numbers: { a: 5, b: 3 },
  'test-tool': {},
  test_reconnection: {},
  test_client_elicitation_defaults: {},
};

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string>;
const url = process.argv.at(-1) ?? '';

function authFor(name: string): OAuthConfig | undefined {
  if (name === 'auth/client-credentials-basic') {
    return {
      type: 'oauth',
      grant: 'client_credentials',
      clientId: context.client_id,
      clientSecret: context.client_secret,
    };
  }
  if (name === 'auth/pre-registration') {
    return { type: 'oauth', clientId: context.client_id, clientSecret: context.client_secret };
  }
  if (name.startsWith('auth/')) return { type: 'oauth', clientMetadataUrl: CLIENT_METADATA_URL };
  return undefined;
}

/** The scripted browser: the suite's authorization server approves at once and redirects. */
async function followAuthorizationUrl(authorizationUrl: URL): Promise<void> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (!location) throw new Error(`no redirect from the authorization endpoint (HTTP ${response.status})`);
  await (await fetch(location)).text();
}

const auth = authFor(scenario);
const registry = new ToolRegistry();
const provider = await loadMcpServers(
  { servers: { conformance: { type: 'streamable-http', url, ...(auth ? { auth } : {}) } } },
  registry,
  {
    tokenStore: new MemoryTokenStore(),
    onAuthorizationUrl: followAuthorizationUrl,
    onElicitation: async () => ({ action: 'accept', content: {} }),
    reconnect: { enabled: false },
    connectTimeoutMs: 20_000,
  },
);
let failed = false;
try {
  const status = provider.status('conformance');
  if (status?.state !== 'connected')
    throw new Error(`not connected: ${status?.state} ${status?.lastError?.message ?? ''}`);
  for (const tool of await registry.resolveAll()) {
    const args = tool.originalName === undefined ? undefined : scenarioTools[tool.originalName];
    if (args === undefined) continue;
    const result = await tool.execute(`conformance-${tool.name}`, args);
    if (result.isError) throw new Error(`${tool.originalName} failed: ${JSON.stringify(result.content)}`);
  }
} catch (error) {
  failed = true;
  process.stderr.write(`conformance client: ${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  await provider.close();
}
process.exit(failed ? 1 : 0);
