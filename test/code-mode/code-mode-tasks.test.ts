import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_MODE_TASKS } from '../../bench/code-mode/code-mode-tasks.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { createRouterTools } from '../../src/router/create-router-tools.js';
import type { Tool } from '../../src/tool/tool.js';
import { createBusinessServer } from '../fixtures/servers/business-server.js';

const registry = new ToolRegistry();
let hub: McpToolHub;
let runScript: Tool;

beforeAll(async () => {
  // The subject is code mode, not a transport: the three fixtures run in this process.
  hub = await loadMcpServers({ servers: {} }, registry, {
    inProcessServers: {
      issues: { server: () => createBusinessServer('issues') },
      crm: { server: () => createBusinessServer('crm') },
      billing: { server: () => createBusinessServer('billing') },
    },
  });
  runScript = createRouterTools(hub, registry).find((tool) => tool.name === 'run_script')!;
}, 120_000);

afterAll(async () => {
  await hub?.close();
});

describe('the code-mode task suite over the business fixtures', () => {
  it('has at least 20 tasks, each using tools the fixtures serve', () => {
    expect(CODE_MODE_TASKS.length).toBeGreaterThanOrEqual(20);
    const served = new Set(registry.list().map((entry) => entry.name));
    for (const task of CODE_MODE_TASKS) for (const tool of task.tools) expect(served).toContain(tool);
  });

  it.each(CODE_MODE_TASKS.map((task) => [task.id, task] as const))(
    'answers %s as expected',
    async (_id, task) => {
      const result = await runScript.execute(task.id, { script: task.script });
      expect(result.isError, JSON.stringify(result.content)).toBeUndefined();
      expect((result.details as { value: unknown }).value).toEqual(task.expected());
    },
  );
});
