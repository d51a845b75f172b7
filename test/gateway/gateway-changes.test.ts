import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tool } from '../../src/tool/tool.js';
import { waitUntil } from '../helpers/wait-until.js';
import { stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import {
  connectClient,
  eras,
  type RunningGateway,
  startGateway,
  watchGetStream,
  watchToolChanges,
} from './gateway-test-helpers.js';

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway({
    servers: { echo: stdioFixture('echo'), crash: stdioFixture('crash'), changing: stdioFixture('changing') },
  });
});

afterAll(async () => {
  await running?.close();
});

const native: Tool = {
  name: 'native_hello',
  description: 'A native tool registered at run time',
  parameters: { type: 'object', properties: {} },
  execute: async () => ({ content: [{ type: 'text', text: 'hello from native' }] }),
};

/** A client of `era` counting the tool list changes it hears, once it can hear them. */
async function connectWatching(era: 'modern' | 'legacy'): Promise<{ client: Client; changes: () => number }> {
  const stream = watchGetStream();
  const client = await connectClient(running.url, era, { fetch: stream.fetch });
  const changes = await watchToolChanges(client, era);
  // A 2025 client opens its GET stream (where unsolicited notifications go) after connecting.
  if (era === 'legacy') await waitUntil(stream.open, 'until the 2025 client opened its GET stream');
  return { client, changes };
}

describe.each(eras)('changes seen by a $label', ({ era }) => {
  it('hears list_changed when a native tool is registered and removed', async () => {
    const { client, changes } = await connectWatching(era);
    try {
      const unregister = running.registry.register(native);
      await waitUntil(() => changes() >= 1, 'until changes() >= 1');
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('native_hello');
      const before = changes();
      unregister();
      await waitUntil(() => changes() > before, 'until changes() > before');
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('native_hello');
    } finally {
      await client.close();
    }
  });

  it("hears list_changed when an upstream's tools change", async () => {
    const { client, changes } = await connectWatching(era);
    try {
      const name = `added_${era}`;
      await client.callTool({ name: 'changing__add_tool', arguments: { name } });
      await waitUntil(() => changes() >= 1, 'until changes() >= 1');
      await waitUntil(
        async () => (await client.listTools()).tools.some((tool) => tool.name === `changing__${name}`),
        `until tools/list holds changing__${name}`,
      );
    } finally {
      await client.close();
    }
  });

  it('keeps the other servers working when an upstream crashes, fails its calls fast, and announces its return', async () => {
    const { client, changes } = await connectWatching(era);
    try {
      const crashed = await client.callTool({ name: 'crash__crash_now', arguments: {} });
      expect(crashed.isError).toBe(true);
      const started = Date.now();
      const meanwhile = await client.callTool({ name: 'crash__ok', arguments: {} });
      // Either it failed fast while down, or the reconnect already brought it back.
      if (meanwhile.isError) expect(Date.now() - started).toBeLessThan(5000);
      const echo = await client.callTool({ name: 'echo__echo', arguments: { text: 'still here' } });
      expect(textOf(echo as never)).toBe('still here');
      await waitUntil(
        () => running.hub.status('crash')?.state === 'connected',
        "until running.hub.status('crash')?.state === 'connected'",
        20_000,
      );
      await waitUntil(() => changes() >= 1, 'until changes() >= 1');
      const back = await client.callTool({ name: 'crash__ok', arguments: {} });
      expect(textOf(back as never)).toBe('ok');
    } finally {
      await client.close();
    }
  });
});
