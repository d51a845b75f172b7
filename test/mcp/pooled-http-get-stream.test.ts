import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { httpServer, textOf } from './hub-test-helpers.js';

// The conformance suite's elicitation scenario, in small: right after the client connects, a
// call whose server asks the client on the standalone GET stream. The server drops what it
// sends there while the stream is not open, so the stream must be open before the call reaches
// it, as it is over one `fetch`. Over the HTTP pool, with the GET left to a `fetch` of its own,
// the call overtook it (warm pooled connection vs. a new one) and hung.
describe('the standalone GET stream over the HTTP pool', () => {
  let fixture: HttpFixture;

  beforeAll(async () => {
    fixture = await startHttpFixture('get-stream');
  });

  afterAll(async () => {
    await fixture?.close();
  });

  it('reaches the server before the requests sent after it', async () => {
    for (let round = 1; round <= 3; round++) {
      const registry = new ToolRegistry();
      const provider = await loadMcpServers({ servers: { s: httpServer(fixture.url) } }, registry, {
        reconnect: { enabled: false },
      });
      try {
        const tool = (await registry.resolveAll()).find((each) => each.originalName === 'arrivals');
        const received = textOf(await tool!.execute(`arrivals-${round}`, {})).split('\n');
        // The transport opens the stream once `notifications/initialized` is accepted.
        expect({ round, first: received.slice(0, 3) }).toEqual({
          round,
          first: ['POST notifications/initialized', 'GET', received[2]],
        });
        expect(received[2]).toMatch(/^POST /);
      } finally {
        await provider.close();
      }
    }
  });

  it('is open before the first call reaches the server, connect after connect', async () => {
    for (let round = 1; round <= 5; round++) {
      const registry = new ToolRegistry();
      const provider = await loadMcpServers({ servers: { s: httpServer(fixture.url) } }, registry, {
        onElicitation: async () => ({ action: 'accept', content: { city: `Lisbon ${round}` } }),
        reconnect: { enabled: false },
      });
      try {
        expect(provider.status('s')?.state).toBe('connected');
        const tool = (await registry.resolveAll()).find((each) => each.originalName === 'ask_on_get_stream');
        const result = await tool!.execute(`round-${round}`, {});
        expect({ round, text: textOf(result), isError: result.isError ?? false }).toEqual({
          round,
          text: `city: Lisbon ${round}`,
          isError: false,
        });
      } finally {
        await provider.close();
      }
    }
  });
});
