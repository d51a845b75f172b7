import { metrics } from '@opentelemetry/api';
import { type DataPoint, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpToolsConfig } from '../../src/config/config-types.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';

/** A reader collected on demand (the SDK's own pull path, as the Prometheus exporter uses). */
class PullReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const reader = new PullReader();
const meterProvider = new MeterProvider({ readers: [reader] });

/** The `mcptools.policy.decisions` points, as `decision/reason/tool/server → count`. */
async function decisions(): Promise<Record<string, number>> {
  const { resourceMetrics } = await reader.collect();
  const points: Record<string, number> = {};
  for (const scope of resourceMetrics.scopeMetrics)
    for (const metric of scope.metrics) {
      if (metric.descriptor.name !== 'mcptools.policy.decisions') continue;
      for (const point of metric.dataPoints as DataPoint<number>[]) {
        const a = point.attributes;
        points[
          `${a['mcptools.outcome']}/${a['mcptools.reason']}/${a['gen_ai.tool.name']}/${a['mcptools.server']}`
        ] = point.value;
      }
    }
  return points;
}

describe('the tool pipeline counts its policy decisions (mcptools.policy.decisions)', () => {
  const registry = new ToolRegistry({
    onApproval: (request) => (request.principal === 'mallory' ? 'deny' : 'allow-once'),
  });
  const config: McpToolsConfig = {
    servers: { echo: stdioFixture('echo') },
    policies: {
      deny: [{ match: { tools: ['echo__fail'] } }],
      rateLimits: [{ match: { tools: ['echo__add'] }, per: 'tool', limit: 1, windowMs: 60_000 }],
      requireApproval: [{ match: { tools: ['echo__echo'] } }],
    },
  };
  let provider: McpToolHub;

  beforeAll(async () => {
    metrics.setGlobalMeterProvider(meterProvider);
    provider = await loadMcpServers(config, registry, { eraCache: false });
  }, 30_000);

  afterAll(async () => {
    await provider?.close();
    await meterProvider.shutdown();
    metrics.disable();
  });

  it('counts a denial, a rate-limit refusal and approvals given and refused, by tool and server', async () => {
    await registry.get('echo__fail')!.execute('d1', {});
    await registry.get('echo__add')!.execute('r1', { a: 1, b: 2 });
    const limited = await registry.get('echo__add')!.execute('r2', { a: 1, b: 2 });
    expect(limited.isError).toBe(true);
    await registry.get('echo__echo')!.execute('a1', { text: 'hi' });
    const refused = await registry.get('echo__echo')!.execute('a2', { text: 'hi' }, undefined, undefined, {
      toolCallId: 'a2',
      caller: { principal: 'mallory', owner: false },
    });
    expect(refused.isError).toBe(true);
    expect(await decisions()).toEqual({
      'denied/policy/echo__fail/echo': 1,
      'rate_limited/rate_limit/echo__add/echo': 1,
      'approved/approval/echo__echo/echo': 1,
      'denied/approval/echo__echo/echo': 1,
    });
  });
});
