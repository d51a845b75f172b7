import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, startHttpFixture } from '../fixtures/spawn-http.js';
import { binaryPath, hasBinary } from '../helpers/system-binaries.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { type RunningGateway, startGateway } from './gateway-test-helpers.js';

// The status page (`GET /`) in a real headless browser: Chromium from the distribution's
// packages, driven by playwright-core. `.ci/run` installs Chromium when it is missing, so in CI
// this always runs; on a machine without it the suite is skipped and the run's summary says so
// (or set CHROMIUM_PATH).
const CHROMIUM = binaryPath('chromium');

const HOSTILE_NAME = '<img src=x onerror="document.title=1">';
const HOSTILE_ERROR = '<script>document.title="pwned"</script> & </td></tr><tr><td>injected';

describe.skipIf(!hasBinary('chromium'))('the status page in headless Chromium', () => {
  let running: RunningGateway;
  let remote: HttpFixture;
  let browser: Browser;
  let text: string;
  let rows: string[][];

  beforeAll(async () => {
    remote = await startHttpFixture('echo');
    running = await startGateway({
      servers: {
        echo: { type: 'streamable-http', url: remote.url },
        legacy: stdioFixture('echo', ['--era', 'legacy']),
        [HOSTILE_NAME]: {
          type: 'stdio',
          command: process.execPath,
          args: ['-e', `process.stderr.write(${JSON.stringify(HOSTILE_ERROR)}); process.exit(3)`],
        },
      },
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const page = await browser.newPage();
    const response = await page.goto(new URL('/', running.url).href);
    expect(response?.status()).toBe(200);
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person reads
    text = await page.locator('body').innerText();
    rows = await page
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')),
      );
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await running?.close();
    await remote?.close();
  });

  it('shows the title, uptime and endpoints', () => {
    expect(text).toContain('mcptools gateway');
    expect(text).toMatch(/Uptime: \d+h \d+m \d+s/);
    expect(text).toContain('/mcp');
    expect(text).toContain('/healthz');
  });

  it('shows one row per server with its state, era, transport and tool count', () => {
    // The page shows what the hub reports (which era auto negotiation reached may vary).
    const byName = new Map(rows.map((row) => [row[0], row]));
    for (const name of ['echo', 'legacy']) {
      const status = running.hub.status(name);
      expect(status?.state).toBe('connected');
      expect(byName.get(name)?.slice(1, 5)).toEqual([
        'connected',
        status?.protocolEra,
        status?.transport,
        '7',
      ]);
    }
    expect(byName.get('echo')?.[3]).toBe('streamable-http');
    expect(byName.get('legacy')?.slice(2, 4)).toEqual(['2025', 'stdio']);
    expect(rows).toHaveLength(3);
  });

  it('shows a hostile server name and error text as text, never as markup', async () => {
    const hostile = rows.find((row) => row[0] === HOSTILE_NAME);
    expect(hostile).toBeDefined();
    expect(hostile?.[1]).not.toBe('connected');
    expect(hostile?.[4]).toBe('0');
    expect(hostile?.[7]).toContain(HOSTILE_ERROR);
    const page = browser.contexts()[0]?.pages()[0];
    expect(await page?.locator('img').count()).toBe(0);
    expect(await page?.locator('script').count()).toBe(0);
    expect(await page?.title()).toBe('mcptools gateway');
  });
});
