import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { sourceFiles } from '../helpers/source-imports.js';

// The OpenTelemetry API is loaded only once someone registers with it: a process that imports
// the package (dist/index.js, as users do), connects a stdio server and calls a tool without
// telemetry never loads it; a host that registers its own SDK after importing mcptools gets the
// spans of the calls made from then on. Each side runs in a fresh Node process (the API's
// registry is process-wide). Needs `npm run build`.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = pathToFileURL(resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/index.js')).href;

/** Connects the echo fixture, calls `echo` twice (the host registers its SDK between the calls when `register`), and reports. */
const CHILD = `
import { createRequire } from 'node:module';
const [dist, command, args, register] = process.argv.slice(1);
const require = createRequire(dist);
const apiLoaded = () => Object.keys(require.cache).some((path) => path.includes('/@opentelemetry/api/'));
const { loadMcpServers, ToolRegistry } = await import(dist);
const registry = new ToolRegistry();
const provider = await loadMcpServers({ servers: { echo: { type: 'stdio', command, args: JSON.parse(args) } } }, registry);
const call = async () => {
  const tool = (await registry.resolveAll()).find((entry) => entry.name.endsWith('echo'));
  const result = await tool.execute('c1', { text: 'hi' });
  return JSON.stringify(result.content).includes('hi');
};
const report = { firstCall: await call(), loadedBeforeRegister: apiLoaded(), spans: [] };
if (register === 'register') {
  const { trace } = require('@opentelemetry/api');
  const { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } = require('@opentelemetry/sdk-trace');
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
  report.secondCall = await call();
  report.spans = exporter.getFinishedSpans().map((span) => span.name);
}
await provider.close();
console.log(JSON.stringify(report));
`;

async function runChild(register: boolean) {
  const echo = fixtureCommand('echo');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      CHILD,
      DIST,
      echo.command,
      JSON.stringify(echo.args),
      register ? 'register' : 'off',
    ],
    { timeout: 60_000 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
    firstCall: boolean;
    loadedBeforeRegister: boolean;
    secondCall?: boolean;
    spans: string[];
  };
}

describe('the OpenTelemetry API, loaded on demand', () => {
  it('is imported by value in one module only (src/telemetry/otel-api.ts); the others import its types', () => {
    const byValue = sourceFiles(ROOT, 'src').filter((file) => {
      const text = readFileSync(resolve(ROOT, file), 'utf8');
      // A static import of values, a dynamic `import(…)` or a `require(…)` (also `createRequire(…)(…)`).
      return (
        /^import\s+(?!type\s)[^;]*?from\s+'@opentelemetry\/api'/m.test(text) ||
        /(?:require|await import|\))\('@opentelemetry\/api'\)/.test(text)
      );
    });
    expect(byValue).toEqual(['src/telemetry/otel-api.ts']);
  });

  it('is not loaded by a process that imports mcptools, connects a server and calls a tool without telemetry', async () => {
    const report = await runChild(false);
    expect(report.firstCall, 'the call without telemetry works').toBe(true);
    expect(report.loadedBeforeRegister, '@opentelemetry/api must not be loaded').toBe(false);
  });

  it("records the calls made after a host registers its own SDK (the host's import loads it)", async () => {
    const report = await runChild(true);
    expect(report.firstCall).toBe(true);
    expect(report.loadedBeforeRegister).toBe(false);
    expect(report.secondCall).toBe(true);
    expect(report.spans).toContain('tools/call echo');
  });
});
