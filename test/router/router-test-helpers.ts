import { expect } from 'vitest';
import type { ServerConfig } from '../../src/config/config-types.js';
import type { McpToolHub, ServerStatus } from '../../src/mcp/hub-types.js';
import type { ToolResult } from '../../src/tool/tool.js';
import { publishedServers, stdioFixture, stdioPackage } from '../mcp/hub-test-helpers.js';

/** `@modelcontextprotocol/server-everything` over stdio, run with this Node (never npx). */
export function everythingServer(): ServerConfig {
  return stdioPackage(publishedServers.everything, ['stdio']);
}

/** A fixture of test/fixtures/servers over stdio. */
export const fixtureServer = stdioFixture;

/** The text of a result's first block. */
export function firstText(result: ToolResult): string {
  const block = result.content[0];
  if (block?.type !== 'text') throw new Error(`expected a text block, got ${block?.type}`);
  return block.text;
}

/** The JSON a router tool returned (json format), checked to equal its `details`. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON payloads field by field.
export function jsonOf<T = Record<string, any>>(result: ToolResult): T {
  const parsed = JSON.parse(firstText(result)) as T;
  expect(result.details).toEqual(parsed);
  return parsed;
}

/** Polls `predicate` every 20 ms until it holds or `timeoutMs` passes. */
export async function eventually(predicate: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (predicate()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return predicate();
}

/** A provider that knows server names and states and is never asked for data. */
export function namesOnlyProvider(states: Record<string, ServerStatus['state']>): McpToolHub {
  const status = (name: string): ServerStatus | undefined =>
    states[name] === undefined
      ? undefined
      : { name, state: states[name], toolCount: 0, resourceCount: 0, promptCount: 0, reconnectAttempts: 0 };
  const unused = () => {
    throw new Error('not used by this test');
  };
  return {
    servers: () => Object.keys(states),
    status: ((name?: string) =>
      name === undefined
        ? Object.keys(states).map((each) => status(each)!)
        : status(name)) as McpToolHub['status'],
    refresh: unused,
    close: async () => {},
    resources: {
      list: unused,
      listAll: unused,
      listTemplates: unused,
      listAllTemplates: unused,
      read: unused,
    },
    prompts: { list: unused, listAll: unused, get: unused },
    on: () => () => {},
    [Symbol.asyncDispose]: async () => {},
  };
}
