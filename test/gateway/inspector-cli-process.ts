import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
/** The MCP Inspector's CLI entry (built on SDK v1: a 2025-era client). */
export const inspector = join(
  require.resolve('@modelcontextprotocol/inspector-cli/package.json'),
  '..',
  'build',
  'index.js',
);

/** Runs the Inspector CLI against `target` with `args`; resolves with its JSON output. */
export function inspect(target: string[], args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [inspector, ...target, ...args],
      // Its package.json lookup is relative to the working directory (a bug of 1.0.3): run it from build/.
      { timeout: 90_000, maxBuffer: 16 * 1024 * 1024, cwd: dirname(inspector) },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout));
      },
    );
  });
}
