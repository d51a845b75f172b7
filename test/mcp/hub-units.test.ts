import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { SecretRedactor } from '../../src/config/secret-redactor.js';
import { serverSecrets } from '../../src/config/server-secrets.js';
import { classifyError } from '../../src/mcp/classify-error.js';
import { normalizeInputSchema } from '../../src/mcp/normalize-input-schema.js';
import { reconnectDelay, reconnectPolicy } from '../../src/mcp/reconnect-policy.js';
import { StderrTail } from '../../src/mcp/stderr-tail.js';
import { ArgumentValidator, formatArgumentIssues } from '../../src/tool/argument-validator.js';

describe('normalizeInputSchema', () => {
  it('keeps object roots (copied) and adds type to typeless ones', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, $defs: { x: {} } };
    const normalized = normalizeInputSchema(schema);
    expect(normalized).toEqual(schema);
    expect(normalized).not.toBe(schema);
    expect(normalizeInputSchema({ properties: { a: {} } })).toEqual({
      type: 'object',
      properties: { a: {} },
    });
    expect(normalizeInputSchema({ anyOf: [{ required: ['a'] }, { required: ['b'] }] }).type).toBe('object');
    expect(normalizeInputSchema({ type: ['object', 'null'] }).type).toBe('object');
  });

  it('replaces non-object roots but keeps $defs and the description', () => {
    expect(
      normalizeInputSchema({ type: 'string', description: 'd', $defs: { x: { type: 'number' } } }),
    ).toEqual({
      type: 'object',
      properties: {},
      description: 'd',
      $defs: { x: { type: 'number' } },
    });
    expect(normalizeInputSchema(undefined)).toEqual({ type: 'object', properties: {} });
    expect(normalizeInputSchema({ enum: [1, 2] })).toEqual({ type: 'object', properties: {} });
  });
});

describe('ArgumentValidator', () => {
  it('validates draft-07 and 2020-12 schemas and names the failing field', () => {
    const validator = new ArgumentValidator();
    const draft7 = validator.checkFor({
      type: 'object',
      properties: { n: { type: 'number' } },
      required: ['n'],
    });
    expect(draft7({ n: 1 })).toBeUndefined();
    expect(formatArgumentIssues(draft7({ n: 'x' }) ?? [])).toBe('/n must be number');
    const draft2020 = validator.checkFor({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        list: { type: 'array', prefixItems: [{ type: 'string' }], items: false },
        when: { type: 'string', format: 'date-time' },
      },
    });
    expect(draft2020({ list: ['a'], when: '2026-11-29T19:00:00Z' })).toBeUndefined();
    expect(draft2020({ list: ['a', 'b'] })).toBeDefined();
    expect(formatArgumentIssues(draft2020({ when: 'tomorrow' }) ?? [])).toBe(
      '/when must match format "date-time"',
    );
  });

  it('compiles each distinct schema once', () => {
    const validator = new ArgumentValidator();
    const schema = { type: 'object', properties: { a: { type: 'string', format: 'email' } } };
    expect(validator.checkFor(schema)).toBe(validator.checkFor({ ...schema }));
    expect(validator.checkFor(schema)({ a: 'not-an-email' })).toBeDefined();
  });

  it('two validators (one engine per process) each check by their own schema when two tools declare one $id', () => {
    const first = new ArgumentValidator();
    const second = new ArgumentValidator();
    const id = 'https://example.test/args.json';
    const numbers = first.checkFor({
      $id: id,
      type: 'object',
      properties: { n: { $ref: `${id}#/$defs/count` } },
      $defs: { count: { type: 'number' } },
    });
    const strings = second.checkFor({ $id: id, type: 'object', properties: { n: { type: 'string' } } });
    // Each schema keeps its own content (the second is not refused, nor taken for the first)...
    expect(formatArgumentIssues(numbers({ n: 'x' }) ?? [])).toBe('/n must be number');
    expect(formatArgumentIssues(strings({ n: 1 }) ?? [])).toBe('/n must be string');
    // ...and the control: each accepts what its own schema allows (a reference to its own $id resolves).
    expect(numbers({ n: 1 })).toBeUndefined();
    expect(strings({ n: 'x' })).toBeUndefined();
  });

  it('accepts everything for a schema it cannot compile, and says so', () => {
    const reasons: string[] = [];
    const validator = new ArgumentValidator({ onUncompilable: (reason) => reasons.push(reason) });
    const check = validator.checkFor({ type: 'object', properties: { a: { $ref: '#/nowhere' } } });
    expect(check({ a: 1 })).toBeUndefined();
    expect(reasons.length).toBe(1);
  });
});

describe('classifyError', () => {
  it('maps SDK, JSON-RPC, abort and network errors to McpToolsError codes', () => {
    expect(
      classifyError(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'), { timeoutMs: 5 }).code,
    ).toBe('TIMEOUT');
    expect(classifyError(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed')).code).toBe(
      'SERVER_DISCONNECTED',
    );
    expect(classifyError(new SdkError(SdkErrorCode.ClientHttpForbidden, 'denied')).code).toBe(
      'PERMISSION_DENIED',
    );
    const notFound = new ProtocolError(ProtocolErrorCode.ResourceNotFound, 'Resource not found');
    expect(classifyError(notFound, { operation: 'resource' }).code).toBe('RESOURCE_NOT_FOUND');
    const missing = new ProtocolError(ProtocolErrorCode.InvalidParams, 'Resource echo://x not found');
    expect(classifyError(missing, { operation: 'resource' }).code).toBe('RESOURCE_NOT_FOUND');
    expect(classifyError(new ProtocolError(ProtocolErrorCode.InternalError, 'oops')).code).toBe(
      'UPSTREAM_ERROR',
    );
    const network = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    expect(classifyError(network).code).toBe('CONNECTION_FAILED');
    const aborted = AbortSignal.abort();
    expect(
      classifyError(new SdkError(SdkErrorCode.RequestTimeout, 'AbortError'), { signal: aborted }).code,
    ).toBe('ABORTED');
  });
});

describe('reconnect policy', () => {
  it('doubles from the initial delay up to the cap, with bounded jitter', () => {
    const policy = reconnectPolicy({ initialDelayMs: 100, maxDelayMs: 1000, jitter: 0 });
    expect([1, 2, 3, 4, 5, 6].map((attempt) => reconnectDelay(policy, attempt))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    const jittered = reconnectPolicy({ initialDelayMs: 1000, jitter: 0.2 });
    expect(reconnectDelay(jittered, 1, () => 0)).toBe(800);
    expect(reconnectDelay(jittered, 1, () => 1)).toBe(1200);
    expect(reconnectPolicy()).toEqual({
      initialDelayMs: 500,
      maxDelayMs: 30_000,
      jitter: 0.2,
      enabled: true,
    });
  });
});

describe('StderrTail', () => {
  it('keeps the last lines and redacts secrets', () => {
    const tail = new StderrTail();
    for (let index = 0; index < 30; index++) tail.push(`line ${index}\n`);
    tail.push('auth with s3cr3t-token failed');
    const text = tail.text(new SecretRedactor(['s3cr3t-token']));
    expect(text).not.toContain('line 0\n');
    expect(text).toContain('line 29');
    expect(text).toContain('auth with *** failed');
    expect(tail.text()).toContain('auth with s3cr3t-token failed');
    expect(new SecretRedactor(['abc']).text('a abc b')).toBe('a abc b');
  });

  it('drops a line whose start it no longer holds, unless it is the only one', () => {
    const cut = new StderrTail();
    cut.push('x'.repeat(9000));
    cut.push('\nthe whole line\n');
    expect(cut.text()).toBe('the whole line');
    const single = new StderrTail();
    single.push('y'.repeat(9000));
    expect(single.text()).toBe(`…${'y'.repeat(4000)}`);
  });
});

describe('serverSecrets', () => {
  it('collects env values, headers, tokens and URL credentials', () => {
    expect(serverSecrets({ type: 'stdio', command: 'x', env: { TOKEN: 'env-secret' } })).toEqual([
      'env-secret',
    ]);
    const http = serverSecrets({
      type: 'http',
      url: 'https://user:pa55word@example.test/mcp?api_key=query-secret',
      headers: { 'X-Token': 'header-secret' },
      auth: { type: 'bearer', token: 'bearer-secret' },
    });
    for (const secret of ['header-secret', 'bearer-secret', 'pa55word', 'query-secret'])
      expect(http).toContain(secret);
  });
});
