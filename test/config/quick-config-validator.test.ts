// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is a placeholder under test, not a template.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serverEntryKeys, topLevelKeys } from '../../src/config/config-keys.js';
import { httpServerSchema, mcpToolsFileSchema, stdioServerSchema } from '../../src/config/config-schema.js';
import { loadConfig } from '../../src/config/load-config.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { FullValidationNeeded, quickConfigValidator } from '../../src/config/quick-config-validator.js';
import { zodConfigValidator } from '../../src/config/zod-config-validator.js';

const quick = quickConfigValidator();
const location = { file: 'mcptools.json', server: 'a', basePath: ['servers', 'a'] };

/** What the quick validator returns, or `undefined` when it hands the value to zod. */
function quickly<T>(run: () => T): T | undefined {
  try {
    return run();
  } catch (error) {
    if (error instanceof FullValidationNeeded) return undefined;
    throw error;
  }
}

/** The quick result must be exactly zod's: same values, same key order (what `config --json` prints). */
function expectSameAsZod(quickResult: unknown, zodResult: () => unknown): void {
  const expected = zodResult();
  expect(JSON.stringify(quickResult)).toBe(JSON.stringify(expected));
  expect(quickResult).toStrictEqual(expected);
}

const text = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('', ' x ', 'a\r\nb', 'a\0b', '__proto__', 'x'),
);
const wrong = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}));
const maybe = <T>(value: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: value }, wrong);
const texts = maybe(fc.array(maybe(text), { maxLength: 3 }));
const duration = maybe(
  fc.oneof(
    fc.double({ noNaN: false }),
    fc.integer({ min: -5, max: 5 }),
    fc.constantFrom(0, 1.5, 3e9, Number.POSITIVE_INFINITY, Number.NaN),
  ),
);
const headerName = fc.oneof(
  fc.constantFrom('Authorization', 'X-Key', 'bad name', 'é', '__proto__', ''),
  text,
);
const stringMap = (key: fc.Arbitrary<string>) =>
  maybe(fc.dictionary(key, maybe(text), { maxKeys: 3, noNullPrototype: false }));
const filter = maybe(
  fc.record({ allow: texts, deny: texts, other: fc.constant(1) }, { requiredKeys: [] as never[] }),
);
const url = maybe(
  fc.oneof(
    fc.webUrl(),
    fc.constantFrom(
      'http://127.0.0.1:9/mcp',
      'https://h.example/mcp?x=1',
      ' http://a/ ',
      'http:a',
      'HTTP://A/',
      'ftp://x/',
      'http://a b/',
      'https://a\n/x',
      'http://',
      'https://[::1]:8/mcp',
      'http://a/x ',
      'https://a/\tb',
    ),
  ),
);
const auth = maybe(
  fc.oneof(
    fc.record({ type: fc.constant('bearer'), token: maybe(text) }, { requiredKeys: ['type'] }),
    fc.record(
      { type: fc.constant('api-key'), key: maybe(text), header: maybe(text), extra: fc.constant(1) },
      { requiredKeys: ['type'] },
    ),
    fc.record({ type: fc.constant('oauth'), clientId: maybe(text) }, { requiredKeys: ['type'] }),
  ),
);
const nonEmpty = fc.string({ minLength: 1, maxLength: 6 });
const valid = {
  stdio: fc.record(
    {
      type: fc.constant('stdio'),
      command: nonEmpty,
      args: fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
      env: fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
      cwd: nonEmpty,
      enabled: fc.boolean(),
      connectTimeoutMs: fc.double({ min: 0.5, max: 1e10, noNaN: true }),
      prefix: nonEmpty,
    },
    { requiredKeys: ['type', 'command'] },
  ),
  http: fc.record(
    {
      type: fc.constantFrom('http', 'sse', 'streamable-http'),
      url: fc.webUrl(),
      headers: fc.dictionary(
        fc.constantFrom('Authorization', 'X-Key', 'accept'),
        fc.string({ maxLength: 4 }),
        {
          maxKeys: 2,
        },
      ),
      auth: fc.oneof(
        fc.record({ type: fc.constant('bearer'), token: nonEmpty }),
        fc.record(
          { type: fc.constant('api-key'), key: nonEmpty, header: nonEmpty },
          { requiredKeys: ['type', 'key'] },
        ),
      ),
      callTimeoutMs: fc.integer({ min: 1, max: 2 ** 32 }),
      tools: fc.record({ allow: fc.array(nonEmpty, { maxLength: 2 }) }),
      protocol: fc.constantFrom('initialize', 'auto', 'legacy', '2026-07-28'),
    },
    { requiredKeys: ['type', 'url'] },
  ),
};
// Any field, set to anything the pools above hold (valid or not), or a misspelt key.
const anyField = fc.oneof(
  fc.tuple(fc.constantFrom('command', 'cwd', 'prefix', 'comand'), maybe(text)),
  fc.tuple(fc.constant('args'), texts),
  fc.tuple(fc.constant('env'), stringMap(text)),
  fc.tuple(fc.constant('headers'), stringMap(headerName)),
  fc.tuple(fc.constant('url'), url),
  fc.tuple(fc.constant('auth'), auth),
  fc.tuple(fc.constant('enabled'), maybe(fc.boolean())),
  fc.tuple(fc.constantFrom('connectTimeoutMs', 'callTimeoutMs'), duration),
  fc.tuple(fc.constant('tools'), filter),
  fc.tuple(fc.constant('protocol'), maybe(fc.constantFrom('auto', 'new'))),
  fc.tuple(fc.constant('type'), fc.constantFrom('stdio', 'http', 'sse', 'bogus')),
  fc.tuple(fc.constant('url'), fc.constant(undefined)),
);
/** A valid entry, changed in zero to two fields. */
const serverEntry = fc
  .tuple(fc.oneof(valid.stdio, valid.http), fc.array(anyField, { maxLength: 2 }))
  .map(([base, changes]) => {
    const entry: Record<string, unknown> = { ...base };
    for (const [key, value] of changes) entry[key] = value;
    return entry;
  });
const fileField = fc.oneof(
  fc.tuple(fc.constantFrom('$schema', 'workspaceDir', 'servres'), maybe(text)),
  fc.tuple(fc.constant('servers'), maybe(fc.dictionary(text, fc.anything(), { maxKeys: 2 }))),
  fc.tuple(
    fc.constant('namespace'),
    maybe(
      fc.record(
        { separator: maybe(text), maxLength: maybe(fc.integer({ min: 0, max: 2000 })) },
        { requiredKeys: [] as never[] },
      ),
    ),
  ),
  fc.tuple(fc.constant('tools'), filter),
  fc.tuple(fc.constant('router'), fc.constant({ listMaxResources: 5 })),
  fc.tuple(fc.constant('maxResultChars'), maybe(fc.oneof(fc.integer({ min: -2, max: 10 }), fc.double()))),
  fc.tuple(fc.constant('maxResponseBytes'), maybe(fc.integer({ min: 0, max: 100 }))),
  fc.tuple(fc.constant('maxArgumentBytes'), maybe(fc.constantFrom(1, 2 ** 60, 1.5))),
  fc.tuple(fc.constant('protocol'), maybe(fc.constantFrom('auto', 'legacy', 'other'))),
);
/** `{ servers: {...} }` with zero to three top-level fields set to anything. */
const fileValue = fc
  .tuple(fc.dictionary(nonEmpty, fc.anything(), { maxKeys: 2 }), fc.array(fileField, { maxLength: 3 }))
  .map(([servers, changes]) => {
    const value: Record<string, unknown> = { servers };
    for (const [key, field] of changes) value[key] = field;
    return value;
  });

describe('quick configuration validator (no zod on the common path)', () => {
  it('knows the same keys, in the same order, as the zod schemas', () => {
    expect(topLevelKeys).toEqual(Object.keys(mcpToolsFileSchema().shape));
    expect(serverEntryKeys).toEqual([
      ...new Set([...Object.keys(stdioServerSchema().shape), ...Object.keys(httpServerSchema().shape)]),
    ]);
  });

  it('accepts a server entry only when zod does, and returns exactly what zod returns', () => {
    let accepted = 0;
    fc.assert(
      fc.property(serverEntry, (entry) => {
        const result = quickly(() => quick.server(entry, location));
        if (result === undefined) return;
        accepted++;
        expectSameAsZod(result, () => zodConfigValidator.server(entry, location));
      }),
      { numRuns: 3000 },
    );
    // The generator reaches the quick path often enough for the comparison to mean something.
    expect(accepted).toBeGreaterThan(30);
  });

  it('accepts the top level of mcptools.json only when zod does, with exactly zod’s output', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fileValue, (value) => {
        const result = quickly(() => quick.mcpToolsFile(value, 'mcptools.json'));
        if (result === undefined) return;
        accepted++;
        expectSameAsZod(result, () => zodConfigValidator.mcpToolsFile(value, 'mcptools.json'));
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(30);
  });

  it('takes the common shapes without zod: stdio, HTTP with headers, bearer and API-key auth, timeouts', () => {
    const entries = [
      { type: 'stdio', command: 'npx', args: ['-y', 'pkg', '.'], env: { TOKEN: 'x' }, cwd: '.' },
      { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
      { type: 'streamable-http', url: 'http://127.0.0.1:8808/mcp', auth: { type: 'bearer', token: 't' } },
      { type: 'sse', url: 'https://h.example/sse', auth: { type: 'api-key', key: 'k', header: 'X-Key' } },
      {
        type: 'stdio',
        command: 'node',
        enabled: false,
        connectTimeoutMs: 1500.2,
        callTimeoutMs: 3e9,
        tools: { allow: ['read_*'], deny: ['write'] },
        prefix: 'fs',
        protocol: '2026-07-28-first',
      },
    ];
    for (const entry of entries) {
      const result = quick.server(entry, location);
      expectSameAsZod(result, () => zodConfigValidator.server(entry, location));
    }
    const file = {
      $schema: './schema.json',
      servers: { a: {} },
      namespace: { separator: '.', maxLength: 64 },
      tools: { deny: ['x'] },
      maxResultChars: 1000,
      protocol: '2026-07-28-first',
      workspaceDir: '.',
    };
    expectSameAsZod(quick.mcpToolsFile(file, 'mcptools.json'), () =>
      zodConfigValidator.mcpToolsFile(file, 'mcptools.json'),
    );
  });

  it('hands OAuth, router, gateway and plugins, and every invalid value, to zod', () => {
    for (const entry of [
      { type: 'http', url: 'https://h.example/mcp', auth: { type: 'oauth' } },
      { type: 'stdio', command: '' },
      { type: 'stdio', command: 'x', args: [1] },
      { type: 'http', url: ' http://a/ ' },
      { type: 'stdio', command: 'x', comand: 'x' },
    ]) {
      expect(() => quick.server(entry, location)).toThrow(FullValidationNeeded);
    }
    for (const file of [
      { servers: {}, router: {} },
      { servers: {}, gateway: {} },
      { servers: {}, plugins: [] },
      {},
    ]) {
      expect(() => quick.mcpToolsFile(file, 'mcptools.json')).toThrow(FullValidationNeeded);
    }
    // With zod behind it, an invalid value still gets zod's exact error.
    expect(() =>
      quickConfigValidator(zodConfigValidator).server({ type: 'stdio', command: 'x', args: [1] }, location),
    ).toThrow('mcptools.json: server "a": field "args[0]": Invalid input: expected string, received number');
  });

  it('loadConfig gives each warning once, and the same result as parseConfig, when it falls back to zod', async () => {
    const value = {
      servers: {
        // A disabled server's missing variable is a warning, given before the next entry needs zod.
        off: { command: 'x', args: ['${MISSING_VAR_FOR_TEST}'], enabled: false },
        remote: { url: 'https://h.example/mcp', auth: { type: 'oauth', clientId: 'c' } },
      },
    };
    const warnings: string[] = [];
    const loaded = await loadConfig(value, { env: {}, onWarning: (message) => warnings.push(message) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('MISSING_VAR_FOR_TEST');
    expect(loaded).toStrictEqual(parseConfig(value, { env: {}, onWarning: () => {} }));
  });
});
