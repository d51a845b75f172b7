import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../src/gateway.js';
import { loadMcpServers, ToolRegistry, textResult } from '../src/index.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Every package a module reaches through imports that stay after compilation (types are erased). */
function runtimePackages(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const js = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    // Static imports and re-exports only: `import(…)` inside a function loads on first use.
    for (const match of js.matchAll(
      /^(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|^import\s+['"]([^'"]+)['"]/gm,
    )) {
      const specifier = (match[1] ?? match[2]) as string;
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else if (!packages.has(specifier)) packages.set(specifier, file.slice(SRC.length + 1));
    }
  }
  return packages;
}

describe('the package root', () => {
  it('loads neither the MCP SDK, nor proper-lockfile, nor undici when imported', () => {
    const packages = runtimePackages(resolve(SRC, 'index.ts'));
    // The walk itself works: config parsing (zod) is loaded eagerly.
    expect(packages.has('zod')).toBe(true);
    const heavy = [...packages].filter(([name]) =>
      /^@modelcontextprotocol\/|^proper-lockfile$|^undici$/.test(name),
    );
    expect(heavy.map(([name, by]) => `${name} (imported by ${by})`)).toEqual([]);
  });

  it('leaves the gateway to mcptools/gateway, whose createGateway serves tools and closes', async () => {
    const registry = new ToolRegistry();
    registry.register({
      name: 'greet',
      description: 'says hello',
      parameters: { type: 'object', properties: { who: { type: 'string' } } },
      execute: async (_id, args) => textResult(`hello ${(args as { who: string }).who}`),
    });
    const provider = await loadMcpServers({ servers: {} }, registry);
    const gateway = createGateway({ registry, provider });
    const { url } = await gateway.listen({ host: '127.0.0.1', port: 0 });
    const client = new Client({ name: 'root-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['greet']);
      const result = await client.callTool({ name: 'greet', arguments: { who: 'root' } });
      expect(result.content).toEqual([{ type: 'text', text: 'hello root' }]);
    } finally {
      await client.close();
      await gateway.close();
      await provider.close();
    }
  });
});
