import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand, killChild } from '../fixtures/spawn-http.js';
import { connectClient } from '../gateway/gateway-test-helpers.js';
import { type ServedHttp, startServeHttp } from '../gateway/start-serve-http.js';
import { freePort } from '../helpers/free-port.js';
import { hasBinary } from '../helpers/system-binaries.js';
import { until } from '../mcp/hub-test-helpers.js';

// The built CLI's `serve` with the OpenTelemetry SDK it sets up itself: traces over OTLP/HTTP to
// a receiver in this test, and GET /metrics scraped by a real Prometheus.

const PROMETHEUS = '/usr/bin/prometheus';
const TOKEN = 'owner-token-9c2f41d7';
/** A caller who is no owner: `/metrics` is not for it. */
const READER_TOKEN = 'reader-token-5e81a0c3';
/** The dedicated scrape token: it opens `/metrics` and nothing else. */
const SCRAPE_TOKEN = 'scrape-token-73d9b2e6';

let dir: string;
let configFile: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-telemetry-'));
  configFile = join(dir, 'mcptools.json');
  writeFileSync(
    configFile,
    JSON.stringify({ servers: { pipe: { type: 'stdio', ...fixtureCommand('trace-echo') } } }),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: Record<string, unknown> }[];
}

/** An OTLP/HTTP receiver (JSON bodies, as the SDK's HTTP exporter sends them) on 127.0.0.1. */
async function startReceiver() {
  const spans: OtlpSpan[] = [];
  const resources: unknown[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      if (request.url === '/v1/traces' && request.headers['content-type']?.includes('json')) {
        const message = JSON.parse(body) as {
          resourceSpans: { resource: unknown; scopeSpans: { spans: OtlpSpan[] }[] }[];
        };
        for (const resourceSpans of message.resourceSpans) {
          resources.push(resourceSpans.resource);
          for (const scope of resourceSpans.scopeSpans) spans.push(...scope.spans);
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    resources,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const attribute = (span: OtlpSpan, key: string) =>
  span.attributes?.find((each) => each.key === key)?.value.stringValue;

describe('serve exports traces over OTLP/HTTP', () => {
  it('one call through the CLI gateway is one trace: client → gateway → upstream', async () => {
    const receiver = await startReceiver();
    let served: ServedHttp | undefined;
    try {
      served = await startServeHttp(['--config', configFile, '--log-format', 'json'], {
        env: {
          ...process.env,
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_METRICS_EXPORTER: 'none',
          OTEL_SERVICE_NAME: 'mcptools-under-test',
          OTEL_BSP_SCHEDULE_DELAY: '50',
        },
      });
      const traceId = randomBytes(16).toString('hex');
      const clientSpanId = randomBytes(8).toString('hex');
      const client = await connectClient(served.url, 'modern');
      const result = await client.callTool({
        name: 'pipe__trace_context',
        arguments: {},
        _meta: { traceparent: `00-${traceId}-${clientSpanId}-01` },
      });
      await client.close();
      const received = JSON.parse((result.content as { text: string }[])[0]!.text) as { meta: string };
      const spans = await until(
        () => {
          const found = receiver.spans.filter((span) => span.traceId === traceId);
          return found.length >= 2 ? found : undefined;
        },
        15_000,
        'the exported spans',
      );
      const gateway = spans.find((span) => span.kind === 2);
      const tool = spans.find((span) => span.name === 'tools/call trace_context');
      expect(gateway?.parentSpanId).toBe(clientSpanId);
      expect(tool?.parentSpanId).toBe(gateway?.spanId);
      expect(attribute(tool!, 'gen_ai.operation.name')).toBe('execute_tool');
      expect(received.meta).toBe(`00-${traceId}-${tool!.spanId}-01`);
      expect(JSON.stringify(receiver.resources)).toContain('mcptools-under-test');
      // The JSON log line of that call carries its trace and span ids.
      const line = served
        .stderr()
        .split('\n')
        .filter((each) => each.startsWith('{'))
        .map((each) => JSON.parse(each) as Record<string, unknown>)
        .find((entry) => entry.message === 'tools/call pipe__trace_context: ok');
      expect(line).toMatchObject({
        level: 'info',
        server: 'pipe',
        tool: 'pipe__trace_context',
        trace_id: traceId,
        span_id: gateway!.spanId,
        principal: 'anonymous',
      });
    } finally {
      await served?.close();
      await receiver.close();
    }
  }, 90_000);
});

describe('serve --metrics', () => {
  let served: ServedHttp;
  const base = () => new URL('/', served.url).href;

  beforeAll(async () => {
    const tokensFile = join(dir, 'mcptools-tokens.json');
    writeFileSync(
      tokensFile,
      JSON.stringify({
        servers: { pipe: { type: 'stdio', ...fixtureCommand('trace-echo') } },
        gateway: {
          tokens: {
            ops: { token: TOKEN, principal: 'ops', owner: true },
            reader: { token: READER_TOKEN, principal: 'reader' },
          },
        },
      }),
    );
    served = await startServeHttp(['--config', tokensFile, '--metrics'], {
      env: { ...process.env, OTEL_SDK_DISABLED: undefined, MCPTOOLS_SCRAPE_TOKEN: SCRAPE_TOKEN },
    });
    const client = await connectClient(served.url, 'legacy', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    for (let index = 0; index < 3; index++)
      await client.callTool({ name: 'pipe__trace_context', arguments: {} });
    await client.callTool({ name: 'pipe__fail_traced', arguments: {} });
    await client.close();
  }, 90_000);

  afterAll(async () => {
    await served?.close();
  });

  const scrape = (token?: string) =>
    fetch(`${base()}metrics`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });

  it('refuses a scraper without a token', async () => {
    expect((await scrape()).status).toBe(401);
  });

  it('refuses a principal that is no owner (its series name what its view may hide); the owner is served', async () => {
    const refused = await scrape(READER_TOKEN);
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain('mcptools_');
    expect((await scrape(TOKEN)).status).toBe(200);
  });

  it('the scrape token opens /metrics and nothing else', async () => {
    const metrics = await scrape(SCRAPE_TOKEN);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('mcptools_tool_calls_total');
    const mcp = await fetch(served.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${SCRAPE_TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(401);
    // Origin is checked for the scraper as for /mcp (a page of another site).
    const rebound = await fetch(`${base()}metrics`, {
      headers: { authorization: `Bearer ${SCRAPE_TOKEN}`, origin: 'http://evil.example' },
    });
    expect(rebound.status).toBe(403);
  });

  it('serves the call counts in Prometheus text format', async () => {
    const response = await scrape(SCRAPE_TOKEN);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toMatch(
      /mcptools_tool_calls_total\{[^}]*gen_ai_tool_name="trace_context"[^}]*mcptools_outcome="ok"[^}]*\} 3/,
    );
    expect(text).toMatch(/mcptools_tool_calls_total\{[^}]*mcptools_outcome="tool_error"[^}]*\} 1/);
    expect(text).toMatch(/mcptools_tool_call_duration_bucket\{[^}]*le="\+Inf"\} 3/);
    expect(text).toMatch(/mcptools_servers\{mcptools_server_state="connected"\} 1/);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(SCRAPE_TOKEN);
  });

  it.skipIf(!hasBinary('prometheus'))(
    'a real Prometheus scrapes it and finds the calls made',
    async () => {
      const port = await freePort();
      const { port: gatewayPort } = new URL(served.url);
      const promDir = mkdtempSync(join(tmpdir(), 'mcptools-prometheus-'));
      writeFileSync(
        join(promDir, 'prometheus.yml'),
        [
          'global:',
          '  scrape_interval: 1s',
          'scrape_configs:',
          '  - job_name: mcptools',
          '    metrics_path: /metrics',
          '    authorization:',
          `      credentials: ${SCRAPE_TOKEN}`,
          '    static_configs:',
          `      - targets: ['127.0.0.1:${gatewayPort}']`,
          '',
        ].join('\n'),
      );
      const prometheus: ChildProcess = spawn(
        PROMETHEUS,
        [
          `--config.file=${join(promDir, 'prometheus.yml')}`,
          `--web.listen-address=127.0.0.1:${port}`,
          `--storage.tsdb.path=${join(promDir, 'data')}`,
        ],
        { stdio: 'ignore' },
      );
      try {
        const query = `http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(
          'sum by (mcptools_outcome) (mcptools_tool_calls_total{job="mcptools",gen_ai_tool_name=~"trace_context|fail_traced"})',
        )}`;
        const results = await until(
          async () => {
            const response = await fetch(query).catch(() => undefined);
            if (!response?.ok) return undefined;
            const body = (await response.json()) as {
              data: { result: { metric: Record<string, string>; value: [number, string] }[] };
            };
            return body.data.result.length >= 2 ? body.data.result : undefined;
          },
          30_000,
          'Prometheus to scrape /metrics',
        );
        const byOutcome = Object.fromEntries(
          results.map((each) => [each.metric.mcptools_outcome, each.value[1]]),
        );
        expect(byOutcome).toEqual({ ok: '3', tool_error: '1' });
      } finally {
        await killChild(prometheus);
        rmSync(promDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
