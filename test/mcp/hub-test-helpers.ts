import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import type { HttpServerConfig, StdioServerConfig } from '../../src/config/config-types.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';

const require = createRequire(import.meta.url);

/** Entry files of the published servers, run with `process.execPath` (never npx). */
export const publishedServers = {
  everything: require.resolve('@modelcontextprotocol/server-everything/dist/index.js'),
  filesystem: require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'),
  memory: require.resolve('@modelcontextprotocol/server-memory/dist/index.js'),
};

/** A stdio server entry for a fixture in test/fixtures/servers. */
export function stdioFixture(
  name: string,
  args: string[] = [],
  extra: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  const command = fixtureCommand(name, args);
  return { type: 'stdio', command: command.command, args: command.args, ...extra };
}

/** A stdio server entry for a published package's JS entry. */
export function stdioPackage(
  entry: string,
  args: string[] = [],
  extra: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  return { type: 'stdio', command: process.execPath, args: [entry, ...args], ...extra };
}

/** An HTTP server entry. */
export function httpServer(url: string, extra: Partial<HttpServerConfig> = {}): HttpServerConfig {
  return { type: 'streamable-http', url, ...extra };
}

/** `true` while a process with `pid` exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Polls `predicate` every 20 ms until it holds or `timeoutMs` passes; returns whether it held.
 * To wait for a condition, use `waitUntil` (test/helpers/wait-until.ts), which fails with a message.
 */
export async function eventually(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await predicate()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return predicate();
}

/** Text of every text block of a result, joined with newlines. */
export function textOf(result: { content: { type: string; text?: string }[] }): string {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

/** PIDs of this process's live children whose command line contains `fragment` (Linux `ps`). */
export function childPidsMatching(fragment: string): number[] {
  const output = execFileSync('ps', ['-o', 'pid=,stat=,args=', '--ppid', String(process.pid)], {
    encoding: 'utf8',
  });
  return output
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(
      (parts) =>
        parts.length >= 3 && !parts[1]!.startsWith('Z') && parts.slice(2).join(' ').includes(fragment),
    )
    .map((parts) => Number(parts[0]));
}

/** The first value `probe` gives that is not `undefined` (polled every 100 ms); throws naming `what` after `timeoutMs`. */
export async function until<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
  what: string,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
