import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliRun, cliBin } from './cli-process.js';

const probe = fileURLToPath(new URL('./fixtures/report-loads.cjs', import.meta.url));

/** Runs `node -r probe ENTRY args` and returns its output; stderr ends with `loaded: …`. */
function run(entry: string, args: string[], cwd: string): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', probe, entry, ...args],
      { cwd, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

function loaded(result: CliRun): string[] {
  const line = /loaded: (.*)\n$/.exec(result.stderr)?.[1];
  if (line === undefined) throw new Error(`no probe line in stderr: ${result.stderr}`);
  return line === '' ? [] : line.split(',');
}

// What the start-up budget rests on (`--help` and `config` ≤ 150 ms, bench/cli-start.mjs
// measures the time): the bundle loads neither zod for a valid file nor node:child_process.
describe('CLI start-up path (the bundled bin, dist/cli/main.cjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcptools-start-path-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--help and <command> --help load neither zod nor node:child_process, and match the unbundled entry', async () => {
    for (const args of [['--help'], ['config', '--help'], ['call', '--help']]) {
      const bundled = await run(cliBin, args, dir);
      expect(bundled.code, args.join(' ')).toBe(0);
      expect(loaded(bundled), args.join(' ')).toEqual([]);
      // dist/cli/main.js (tsc's ES module) stays a working entry with the same output.
      const unbundled = await run(join(cliBin, '..', 'main.js'), args, dir);
      expect(unbundled.stdout).toBe(bundled.stdout);
    }
  });

  it('config reads a valid file without zod, and loads zod for a section only zod checks', async () => {
    const valid = join(dir, 'valid.json');
    writeFileSync(
      valid,
      JSON.stringify({
        servers: {
          files: { command: 'npx', args: ['-y', 'pkg', '--token', 'secret-arg'], env: { KEY: 'secret-env' } },
          remote: { url: 'https://h.example/mcp', headers: { Authorization: 'Bearer secret-h' } },
        },
      }),
    );
    const quick = await run(cliBin, ['--json', 'config', '--config', valid], dir);
    expect(quick.code).toBe(0);
    expect(loaded(quick)).toEqual([]);
    const shown = JSON.parse(quick.stdout);
    expect(shown.servers.map((server: { name: string }) => server.name)).toEqual(['files', 'remote']);
    expect(quick.stdout).not.toMatch(/secret-/);

    const unusual = join(dir, 'router.json');
    writeFileSync(
      unusual,
      JSON.stringify({ servers: { a: { command: 'x' } }, router: { listMaxResources: 5 } }),
    );
    const full = await run(cliBin, ['--json', 'config', '--config', unusual], dir);
    expect(full.code).toBe(0);
    expect(loaded(full)).toEqual(['zod']);
    expect(JSON.parse(full.stdout).servers[0].config).toEqual({ type: 'stdio', command: 'x' });
  });

  it('an invalid file is still named with its server and field by zod (exit 2)', async () => {
    const invalid = join(dir, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ servers: { a: { command: 'x', args: [1] } } }));
    const result = await run(cliBin, ['config', '--config', invalid], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'invalid.json: server "a": field "args[0]": Invalid input: expected string, received number',
    );
    expect(loaded(result)).toEqual(['zod']);
  });
});
