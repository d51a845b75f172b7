import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mib, rssBytes, rssPeakSampler } from '../../bench/lib/process-stats.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { connectClient, eras } from '../gateway/gateway-test-helpers.js';
import { type ServedHttp, startServeHttp } from '../gateway/start-serve-http.js';
import { textOf } from '../mcp/hub-test-helpers.js';
import { openLegacySession, type RawAnswer, type RawRequest, sendRaw } from './raw-http.js';

// Property-based fuzzing of `mcptools serve --http` (the built CLI, its own process) at `/mcp`,
// both protocol eras: malformed, oversized and edge-case JSON-RPC messages and headers. Every
// request must get an answer (no hang), never a 5xx; a 200 carries JSON-RPC responses, a 4xx
// with a JSON body a JSON-RPC error; the process survives, still serves real clients, and its
// RSS stays bounded.

const MODERN = '2026-07-28';
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const modernMeta = {
  [META_VERSION]: MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const ODD_VERSIONS = [
  MODERN,
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2099-01-01',
  '',
  ' 2026-07-28 ',
  'latest',
  '2026-07-28, 2025-11-25',
  'x'.repeat(3000),
];
const METHODS = [
  'initialize',
  'server/discover',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/subscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'subscriptions/listen',
  'sampling/createMessage',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
];
// Every echo tool but `slow` (which sleeps as long as it is asked to: a legitimate wait).
const TOOLS = [
  'echo__echo',
  'echo__add',
  'echo__fail',
  'echo__boom',
  'echo__mixed',
  'nope',
  'echo__slow_not',
];

/** Printable ASCII only: what an HTTP client can put in a header value. */
const headerText = (maxLength = 80) =>
  fc.string({ maxLength }).map((text) => text.replace(/[^\x20-\x7e]/g, '').trim());

/** A value to stand for a raw JSON number JSON.stringify cannot write; replaced after stringifying. */
const RAW_NUMBERS = ['1e999', '123456789012345678901234567890', '-0', '0.1e-400', '9007199254740993'];
const rawNumber = fc.constantFrom(...RAW_NUMBERS).map((text) => `RAW:${text}`);
const toText = (value: unknown) => JSON.stringify(value).replace(/"RAW:([^"]+)"/g, '$1');

const id = fc.oneof(
  { weight: 30, arbitrary: fc.integer() },
  { weight: 8, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 4, arbitrary: rawNumber },
  fc.constant(null),
  fc.double(),
  fc.boolean(),
  fc.jsonValue({ maxDepth: 2 }),
  fc.constant('i'.repeat(100_000)),
);

const meta = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 4, arbitrary: fc.constant(modernMeta) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(...ODD_VERSIONS)
      .map((version) => ({ ...modernMeta, [META_VERSION]: version })),
  },
  fc.constant({ [META_VERSION]: MODERN }),
  fc.jsonValue({ maxDepth: 2 }),
);

const params = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  {
    weight: 4,
    arbitrary: fc.record(
      {
        name: fc.oneof(fc.constantFrom(...TOOLS), fc.string({ maxLength: 30 })),
        arguments: fc.oneof(
          fc.record({ text: fc.oneof(fc.string(), fc.integer()), a: fc.integer(), b: fc.double() }),
          fc.jsonValue({ maxDepth: 3 }),
        ),
        uri: fc.oneof(fc.constant('mcptools://echo/echo://static/hello'), fc.string({ maxLength: 40 })),
        protocolVersion: fc.constantFrom(...ODD_VERSIONS),
        capabilities: fc.jsonValue({ maxDepth: 2 }),
        clientInfo: fc.oneof(fc.constant({ name: 'fuzz', version: '1' }), fc.jsonValue({ maxDepth: 2 })),
        level: fc.constantFrom('debug', 'error', 'nope'),
        requestId: id,
        progressToken: id,
      },
      { requiredKeys: [] },
    ),
  },
  fc.jsonValue({ maxDepth: 3 }),
);

/** One JSON-RPC message, mostly well-formed, with any part possibly wrong. */
const message = fc
  .record(
    {
      jsonrpc: fc.oneof({ weight: 8, arbitrary: fc.constant('2.0') }, fc.constantFrom('1.0', 2, null)),
      id,
      method: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...METHODS) }, fc.string({ maxLength: 30 })),
      params,
      meta,
      result: fc.jsonValue({ maxDepth: 2 }),
      error: fc.record({ code: fc.integer(), message: fc.string() }),
    },
    { requiredKeys: ['jsonrpc'] },
  )
  .map(({ meta: envelope, result, error, ...rest }) => {
    const out: Record<string, unknown> = { ...rest };
    if (envelope !== undefined) {
      const base =
        typeof out.params === 'object' && out.params !== null && !Array.isArray(out.params) ? out.params : {};
      out.params = { ...base, _meta: envelope };
    }
    // A posted response instead of a request, now and then.
    if (out.method === undefined && result !== undefined) out.result = result;
    if (out.method === undefined && result === undefined && error !== undefined) out.error = error;
    return out;
  });

const nested = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth);

/** A request body: a message, a batch, bad JSON, deep nesting, huge, oversized or empty. */
const body = fc.oneof(
  { weight: 60, arbitrary: message.map(toText) },
  { weight: 8, arbitrary: fc.array(message, { maxLength: 120 }).map(toText) },
  {
    weight: 8,
    arbitrary: message.map(toText).chain((text) => fc.nat(text.length).map((at) => text.slice(0, at))),
  },
  { weight: 8, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'null',
      '[]',
      '{}',
      '"x"',
      '1',
      '[null]',
      '[[]]',
      '{"jsonrpc":"2.0"}',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.integer({ min: 200, max: 100_000 }).chain((depth) =>
      fc.constantFrom(
        nested(depth, '[', ']'),
        nested(depth, '{"a":', '}'),
        toText({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'echo__echo', arguments: { text: 'RAW:DEEP' }, _meta: modernMeta },
        }).replace('"RAW:DEEP"', nested(depth, '[', ']')),
      ),
    ),
  },
  // Near the 4 MiB cap, and over it (the cap is checked by Content-Length and while streaming).
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 3 })
      .map((mb) => `{"jsonrpc":"2.0","id":"${'x'.repeat(mb * 1024 * 1024)}","method":"ping"}`),
  },
  {
    weight: 1,
    arbitrary: fc.constant(
      `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"p":"${'y'.repeat(4 * 1024 * 1024)}"}}`,
    ),
  },
);

const headerValue = (choices: string[]) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...choices) },
    { weight: 2, arbitrary: fc.constant(undefined) },
    headerText(),
  );

/** Headers of a request; `session` is an index into the live sessions, or a made-up id. */
const headers = fc.record(
  {
    'content-type': headerValue([
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      '',
    ]),
    accept: headerValue([
      'application/json, text/event-stream',
      'application/json',
      'text/event-stream',
      '*/*',
      'text/html',
      '',
    ]),
    session: fc.oneof(
      { weight: 4, arbitrary: fc.constant(undefined) },
      { weight: 4, arbitrary: fc.nat(9) },
      fc.uuid(),
      headerText(),
      fc.constant('s'.repeat(6000)),
    ),
    'mcp-protocol-version': fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      { weight: 3, arbitrary: fc.constantFrom(...ODD_VERSIONS.slice(0, 10)) },
      headerText(),
    ),
    'mcp-method': fc.oneof(fc.constantFrom(...METHODS), headerText(30)),
    'mcp-name': headerText(30),
    'last-event-id': headerText(30),
  },
  { requiredKeys: ['content-type', 'accept', 'session', 'mcp-protocol-version'] },
);

const httpMethod = fc.oneof(
  { weight: 12, arbitrary: fc.constant('POST') },
  { weight: 2, arbitrary: fc.constant('GET') },
  { weight: 2, arbitrary: fc.constant('DELETE') },
  fc.constantFrom('PUT', 'PATCH', 'OPTIONS', 'HEAD'),
);

const path = fc.oneof(
  { weight: 12, arbitrary: fc.constant('/mcp') },
  fc.constantFrom(
    '/mcp/',
    '/mcp/nope',
    '/mcp?x=1',
    '/MCP',
    '/mcp/../healthz',
    '/%00',
    `/mcp/${'p'.repeat(300)}`,
  ),
);

const fuzzRequest = fc.record({
  method: httpMethod,
  path,
  headers,
  body: fc.option(body, { nil: undefined, freq: 8 }),
  chunked: fc.boolean(),
});
type Fuzzed = typeof fuzzRequest extends fc.Arbitrary<infer T> ? T : never;

let dir: string;
let served: ServedHttp;
let origin: string;
let pid: number;
let sent = 0;
let resetOversized = 0;
const CAP = 4 * 1024 * 1024;
/** Live 2025 session ids the fuzzer may present (some get deleted by fuzzed DELETEs). */
let sessions: string[] = [];

function openSession(): Promise<string> {
  return openLegacySession(`${origin}/mcp`);
}

function toRaw(fuzzed: Fuzzed): RawRequest {
  const headersOut: Record<string, string> = {};
  for (const [name, value] of Object.entries(fuzzed.headers)) {
    if (value === undefined) continue;
    if (name === 'session') {
      headersOut['mcp-session-id'] =
        typeof value === 'number' ? (sessions[value % sessions.length] ?? '') : String(value);
    } else headersOut[name] = String(value);
  }
  return {
    method: fuzzed.method,
    path: fuzzed.path,
    headers: headersOut,
    ...(fuzzed.body !== undefined && fuzzed.method !== 'HEAD' ? { body: Buffer.from(fuzzed.body) } : {}),
    chunked: fuzzed.chunked,
  };
}

/** A short account of a request for a failure message (bodies may hold megabytes). */
function summary(raw: RawRequest): string {
  const body =
    raw.body === undefined
      ? 'no body'
      : `${raw.body.length} bytes${raw.chunked ? ' chunked' : ''}: ${raw.body.toString('utf8').slice(0, 300)}`;
  return `${raw.method} ${raw.path} ${JSON.stringify(raw.headers).slice(0, 400)} ${body}`;
}

/** The property: an answer came, it is not a 5xx, and what it says is JSON-RPC where it claims to be. */
function checkAnswer(raw: RawRequest, answer: RawAnswer): void {
  const what = summary(raw);
  if (answer.status >= 500 || answer.status < 200)
    throw new Error(`answered ${answer.status} (${answer.body.slice(0, 300)}) to ${what}`);
  // Only /mcp speaks JSON-RPC (a path like /mcp/../healthz reaches another page).
  if (answer.openStream || answer.body === '' || !new URL(raw.path, 'http://h').pathname.startsWith('/mcp'))
    return;
  const messages: unknown[] = [];
  if (answer.contentType.startsWith('application/json')) messages.push(JSON.parse(answer.body));
  else if (answer.contentType.startsWith('text/event-stream')) {
    // An empty `data:` is a priming event (an id to resume from, 2025-11-25), not a message.
    for (const line of answer.body.split('\n'))
      if (line.startsWith('data:') && line.slice(5).trim() !== '') messages.push(JSON.parse(line.slice(5)));
  } else return;
  for (const item of messages.flat()) {
    const entry = item as {
      jsonrpc?: unknown;
      result?: unknown;
      error?: { code?: unknown };
      method?: unknown;
    };
    if (entry.jsonrpc !== '2.0')
      throw new Error(`not JSON-RPC: ${JSON.stringify(item).slice(0, 300)} for ${what}`);
    if (answer.status >= 400 && typeof entry.error?.code !== 'number')
      throw new Error(
        `a ${answer.status} without a JSON-RPC error: ${answer.body.slice(0, 300)} for ${what}`,
      );
    if (entry.result === undefined && entry.error === undefined && entry.method === undefined)
      throw new Error(`neither result, error nor notification: ${answer.body.slice(0, 300)} for ${what}`);
  }
}

async function fuzz(arbitrary: fc.Arbitrary<Fuzzed>, numRuns: number): Promise<void> {
  const details = await fc.check(
    // Eight requests at a time, as concurrent clients would send them.
    fc.asyncProperty(fc.array(arbitrary, { minLength: 8, maxLength: 8 }), async (batch) => {
      await Promise.all(
        batch.map(async (fuzzed) => {
          const raw = toRaw(fuzzed);
          sent++;
          const answer = await sendRaw(origin, raw).catch((error: Error) => {
            // A body over the 4 MiB cap may be refused by closing the connection while it is
            // still being sent (the answer, written first, can then be lost in the reset).
            // So may a big body on a method that takes none (GET, DELETE, …), answered unread.
            const size = raw.body?.length ?? 0;
            const ignorable = size > CAP || (raw.method !== 'POST' && size > 65_536);
            if (ignorable && /EPIPE|ECONNRESET/.test(error.message)) {
              resetOversized++;
              return undefined;
            }
            throw new Error(`${error.message} to ${summary(raw)}`);
          });
          if (answer !== undefined) checkAnswer(raw, answer);
        }),
      );
    }),
    { numRuns, endOnFailure: true },
  );
  // The counterexample may hold megabytes: report its first lines only.
  if (details.failed)
    throw new Error(
      `after ${details.numRuns} runs (seed ${details.seed}): ${String(details.errorInstance).slice(0, 2000)}`,
    );
  // Fuzzed DELETEs end sessions: start the next batch with live ones.
  sessions = await Promise.all(Array.from({ length: 4 }, openSession));
}

let baseline = 0;
let sampler: { stop(): number };

describe('fuzzing mcptools serve --http at /mcp: always an answer, never a 5xx, never a crash', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcptools-http-fuzz-'));
    const config = join(dir, 'mcptools.json');
    writeFileSync(
      config,
      JSON.stringify({ servers: { echo: { ...fixtureCommand('echo'), protocol: '2025' } } }),
    );
    served = await startServeHttp(['--config', config]);
    origin = new URL(served.url).origin;
    pid = served.child.pid!;
    sessions = await Promise.all(Array.from({ length: 4 }, openSession));
    baseline = rssBytes(pid)!;
    sampler = rssPeakSampler(pid);
  });

  afterAll(async () => {
    sampler?.stop();
    await served?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('JSON-RPC messages and batches of both eras, with the headers a client sends', {
    timeout: 240_000,
  }, async () => {
    const wellAddressed = fuzzRequest.map((fuzzed) => ({
      ...fuzzed,
      method: 'POST',
      path: '/mcp',
      chunked: false,
      headers: {
        ...fuzzed.headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
    }));
    await fuzz(wellAddressed as fc.Arbitrary<Fuzzed>, 650);
  });

  it('any method, path, headers and bytes', { timeout: 240_000 }, async () => {
    await fuzz(fuzzRequest, 650);
  });

  it('survives: still serves both eras, memory bounded', async () => {
    expect(sent).toBeGreaterThanOrEqual(10_000);
    expect(served.child.exitCode).toBeNull();
    const health = await fetch(`${origin}/healthz`);
    expect(health.status).toBe(200);
    for (const { era } of eras) {
      const client = await connectClient(served.url, era);
      const result = await client.callTool({
        name: 'echo__echo',
        arguments: { text: `after fuzzing (${era})` },
      });
      expect(textOf(result as never)).toBe(`after fuzzing (${era})`);
      await client.close();
    }
    const peak = sampler.stop();
    const end = rssBytes(pid)!;
    console.log(
      `gateway fuzz: ${sent} requests (${resetOversized} big bodies refused by closing the connection); gateway RSS ${mib(baseline)} MiB at start, peak ${mib(peak)} MiB, ${mib(end)} MiB at the end`,
    );
    expect(peak - baseline).toBeLessThan(256 * 1024 * 1024);
  });
});
