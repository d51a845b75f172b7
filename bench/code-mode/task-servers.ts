import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { stdioFixture } from '../../test/mcp/hub-test-helpers.js';

/** The three business fixture servers the code-mode tasks run over (issues, crm, billing), over stdio. */
export async function loadTaskServers() {
  const registry = new ToolRegistry();
  const hub = await loadMcpServers(
    {
      servers: {
        issues: stdioFixture('business', ['--dataset', 'issues']),
        crm: stdioFixture('business', ['--dataset', 'crm']),
        billing: stdioFixture('business', ['--dataset', 'billing']),
      },
    },
    registry,
  );
  return { registry, hub };
}
