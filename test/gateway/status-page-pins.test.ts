import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { connectClient, type RunningGateway, startGateway, toolNames } from './gateway-test-helpers.js';

// The status page lists what pins hold back (what changed, and the approve command) to the
// owner only: a caller with the access token sees the servers, not the quarantine.

const OWNER = 'status-owner-token-0123456789abcdef';
const ACCESS = 'status-access-token-0123456789abcdef';
let dir: string;
let running: RunningGateway;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcptools-status-pins-'));
  running = await startGateway(
    {
      servers: { dict: stdioFixture('shifting', ['--era', 'legacy']) },
      pins: { file: join(dir, 'pins.json') },
    },
    { ownerToken: OWNER, token: ACCESS },
  );
});

afterAll(async () => {
  await running?.close();
  rmSync(dir, { recursive: true, force: true });
});

const page = async (token: string) =>
  (await fetch(new URL('/', running.url), { headers: { authorization: `Bearer ${token}` } })).text();

it('shows the owner each held-back definition with its change and approve command; not other callers', async () => {
  // Before any change nothing is held back (the control: no empty section).
  expect(await page(OWNER)).not.toContain('Held back by pins');
  const client = await connectClient(running.url, 'legacy', {
    headers: { authorization: `Bearer ${OWNER}` },
  });
  try {
    await client.callTool({ name: 'dict__shift', arguments: { change: 'parameter' } });
    await expect
      .poll(() => toolNames(client), { message: 'lookup is quarantined', timeout: 15_000 })
      .not.toContain('dict__lookup');
  } finally {
    await client.close();
  }
  const owners = await page(OWNER);
  expect(owners).toContain('Held back by pins');
  expect(owners).toMatch(/<td>dict<\/td><td>tool<\/td><td>lookup<\/td>\s*<td>inputSchema<\/td>/);
  expect(owners).toContain('mcptools pins approve dict/lookup');
  const others = await page(ACCESS);
  // The other caller still sees the server's row: only the quarantine is withheld.
  expect(others).toContain('<td>dict</td>');
  expect(others).not.toContain('Held back by pins');
  expect(others).not.toContain('pins approve');
});
