// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${K} is a placeholder under test, not a template.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { stringify as toToml } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';

// Every supported file, with a valid example of its shape to mutate.
const files: { path: string; valid: string }[] = [
  {
    path: 'mcptools.json',
    valid: '{ "servers": { "a": { "command": "x", "args": ["-y"], "env": { "K": "${K:-v}" } } } }',
  },
  {
    path: '.mcp.json',
    valid: '{ "mcpServers": { "a": { "type": "http", "url": "https://h.example/mcp" } } }',
  },
  { path: 'claude_desktop_config.json', valid: '{ "mcpServers": { "a": { "command": "x" } } }' },
  { path: '.cursor/mcp.json', valid: '{ "mcpServers": { "a": { "url": "https://h.example/sse" } } }' },
  {
    path: '.vscode/mcp.json',
    valid: '{ // c\n "servers": { "a": { "type": "stdio", "command": "x", }, }, }',
  },
  {
    path: '.codeium/windsurf/mcp_config.json',
    valid: '{ "mcpServers": { "a": { "serverUrl": "https://h.example/mcp" } } }',
  },
  {
    path: '.codex/config.toml',
    valid: '[mcp_servers.a]\ncommand = "x"\nargs = ["-y"]\ntool_timeout_sec = 30\n',
  },
];

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcptools-fuzz-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

let counter = 0;
/** Loads `text` as `path`: resolves, or rejects with CONFIG_INVALID naming the file; never anything else. */
async function check(path: string, text: string): Promise<void> {
  const dir = join(root, String(counter++));
  const file = join(dir, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
  const outcome = await Promise.race([
    loadConfig(file, { cwd: dir, env: { K: 'k' }, onWarning: () => {} }).then(
      () => 'ok' as const,
      (error: unknown) => error,
    ),
    new Promise((resolve) => setTimeout(() => resolve('hang'), 5000)),
  ]);
  if (outcome === 'ok') return;
  expect(outcome).not.toBe('hang');
  if (!McpToolsError.isInstance(outcome))
    throw new Error(`not an McpToolsError for ${JSON.stringify(text.slice(0, 200))}: ${String(outcome)}`);
  expect(outcome.code).toBe('CONFIG_INVALID');
  expect(outcome.message.startsWith(path)).toBe(true);
}

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), text: fc.string({ maxLength: 3 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.constantFrom(
      '{',
      '[',
      ']',
      '}',
      ',',
      '"',
      '\\',
      '/*',
      '//',
      '\n',
      '=',
      '[[',
      '\u0000',
      '\uFEFF',
      'null',
      '1e999',
    ),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), text: fc.constant('') }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat(), text: fc.constant('') }),
  fc.record({
    kind: fc.constant('nest' as const),
    at: fc.nat(),
    text: fc.constantFrom('[', '{"a":', '{ "x" = '),
  }),
);

function mutate(text: string, steps: { kind: string; at: number; text: string }[]): string {
  let result = text;
  for (const step of steps) {
    const at = result.length === 0 ? 0 : step.at % (result.length + 1);
    if (step.kind === 'replace')
      result = result.slice(0, at) + step.text + result.slice(at + step.text.length);
    else if (step.kind === 'insert') result = result.slice(0, at) + step.text + result.slice(at);
    else if (step.kind === 'delete') result = result.slice(0, at) + result.slice(at + 1);
    else if (step.kind === 'truncate') result = result.slice(0, at);
    else result = result.slice(0, at) + step.text.repeat(3000) + result.slice(at);
  }
  return result;
}

/** A value shaped like a config of any format, with random content where fields go. */
const shaped = fc
  .tuple(
    fc.constantFrom('servers', 'mcpServers', 'mcp_servers', 'other'),
    fc.dictionary(
      fc.string({ maxLength: 8 }),
      fc.oneof(
        fc.jsonValue({ maxDepth: 4 }),
        fc.record(
          {
            command: fc.oneof(fc.string(), fc.integer()),
            url: fc.oneof(fc.webUrl(), fc.string()),
            type: fc.constantFrom('stdio', 'http', 'sse', 'streamable-http', 'x'),
            args: fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }),
            env: fc.dictionary(
              fc.string({ maxLength: 5 }),
              fc.oneof(fc.string(), fc.boolean(), fc.constant(null)),
            ),
            callTimeoutMs: fc.oneof(fc.integer(), fc.double(), fc.constant(3e9)),
          },
          { requiredKeys: [] },
        ),
      ),
      { maxKeys: 3 },
    ),
  )
  .map(([key, servers]) => ({ [key]: servers }));

describe('fuzzing the config loader: always CONFIG_INVALID naming the file, never another exception or a hang', () => {
  it.each(files)('mutated $path', async ({ path, valid }) => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (steps) => {
        await check(path, mutate(valid, steps));
      }),
      { numRuns: 400 },
    );
  });

  it('random JSON and JSONC of every shape', async () => {
    await fc.assert(
      fc.asyncProperty(
        shaped,
        fc.constantFrom(...files.filter((file) => file.path.endsWith('.json'))),
        fc.boolean(),
        async (value, file, jsonc) => {
          let text = JSON.stringify(value, null, 1);
          if (jsonc) text = text.replace(/\n/g, ' // note\n').replace(/(["\d\]}])\n(\s*[}\]])/g, '$1,\n$2');
          await check(file.path, text);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('random TOML', async () => {
    await fc.assert(
      fc.asyncProperty(shaped, fc.string({ maxLength: 40 }), async (value, noise) => {
        let text: string;
        try {
          text = toToml(value);
        } catch {
          text = noise;
        }
        await check('.codex/config.toml', text);
      }),
      { numRuns: 600 },
    );
  });

  it('arbitrary bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.constantFrom(...files),
        async (text, file) => {
          await check(file.path, text);
        },
      ),
      { numRuns: 600 },
    );
  });
});
