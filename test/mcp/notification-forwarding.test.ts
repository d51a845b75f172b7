import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub, UpstreamNotification } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { waitUntil } from '../helpers/wait-until.js';
import { eventually, stdioFixture } from './hub-test-helpers.js';

// Logs and resource updates are asked of a server's client only once someone listens for the
// hub's `notification` event: a listener that comes after the connect gets them, and so does
// the client a reconnect opens.
describe('the hub forwards server logs to a notification listener added after connect', () => {
  let registry: ToolRegistry;
  let provider: McpToolHub;
  const received: Array<{ server: string; notification: UpstreamNotification }> = [];

  beforeAll(async () => {
    registry = new ToolRegistry();
    provider = await loadMcpServers({ servers: { notify: stdioFixture('notify') } }, registry, {
      connectTimeoutMs: 30_000,
      reconnect: { initialDelayMs: 50, jitter: 0 },
      eraCache: false,
    });
  }, 60_000);

  afterAll(async () => {
    await provider?.close();
  });

  const log = async (text: string) => {
    const result = await registry.get('notify__log')!.execute('call', { level: 'info', text });
    expect(result.isError).toBeUndefined();
  };
  const logged = (text: string) =>
    received.some(
      ({ server, notification }) =>
        server === 'notify' &&
        notification.method === 'notifications/message' &&
        notification.params.data === text,
    );

  it('delivers a log sent after the listener subscribed', async () => {
    expect(provider.status('notify')?.state).toBe('connected');
    await log('before anyone listens');
    const unsubscribe = provider.on('notification', (server, notification) => {
      received.push({ server, notification });
    });
    await log('first');
    await waitUntil(() => logged('first'), "until logged('first')");
    expect(logged('before anyone listens')).toBe(false);
    unsubscribe();
    provider.on('notification', (server, notification) => {
      received.push({ server, notification });
    });
  });

  it('delivers logs from the client a reconnect opens', async () => {
    const pid = provider.status('notify')?.pid;
    expect(pid).toBeTypeOf('number');
    // `die` exits the server without answering; the call fails and the hub reconnects.
    await registry.get('notify__die')!.execute('die', {});
    expect(
      await eventually(() => {
        const status = provider.status('notify');
        return status?.state === 'connected' && status.pid !== pid;
      }, 30_000),
    ).toBe(true);
    await log('after the reconnect');
    await waitUntil(() => logged('after the reconnect'), "until logged('after the reconnect')");
  }, 60_000);
});
