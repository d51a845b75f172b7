import { it } from 'vitest';
import { loadMCPServers } from '../../src/mcp/load-mcp-servers.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { createRouterTools } from '../../src/router/create-router-tools.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';

it('probe', async () => {
  const registry = new ToolRegistry();
  const warnings: string[] = [];
  const provider = await loadMCPServers(
    {
      servers: {
        deep: stdioFixture('hostile', ['--deep-schema', '3000']),
        huge: stdioFixture('hostile', ['--huge-schema', '4.8']),
      },
    },
    registry,
    { connectTimeoutMs: 60_000 },
  );
  provider.on('warning', (m) => warnings.push(m));
  console.log(JSON.stringify(provider.status()).slice(0, 1500));
  console.log(registry.names());
  let t0 = Date.now();
  const call = await registry.get('huge__huge_schema')?.execute('1', {});
  console.log('huge call', Date.now() - t0, JSON.stringify(call).slice(0, 300));
  t0 = Date.now();
  console.log(
    'deep call',
    JSON.stringify(await registry.get('deep__deep_schema')?.execute('1', { a: {} })).slice(0, 300),
    JSON.stringify(await registry.get('deep__ok')?.execute('1', {})),
    Date.now() - t0,
  );
  const router = createRouterTools(provider, registry);
  const index = router.find((t) => t.name === 'tool_index')!;
  t0 = Date.now();
  const r = await index.execute('1', { search: 'schema', include_schema: true });
  console.log('index', Date.now() - t0, JSON.stringify(r).length, JSON.stringify(r).slice(0, 600));
  await provider.close();
}, 120_000);
