import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { stdioFixture } from '../mcp/hub-test-helpers.js';
import { type RunningGateway, startGateway } from './gateway-test-helpers.js';

/*
 * The status page as a person sees it: loaded in a real headless Chromium (Debian's package,
 * driven by playwright-core), reading the rendered text. `.ci/run` installs the browser.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway({
    servers: {
      echo: stdioFixture('echo'),
      broken: stdioFixture('exit-at-start'),
    },
  });
});

afterAll(async () => {
  await running?.close();
});

it.runIf(existsSync(CHROMIUM))(
  'renders the status page in headless Chromium with every server, its state and counts',
  async () => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    try {
      const page = await browser.newPage();
      const scripts: string[] = [];
      page.on('console', (message) => scripts.push(message.text()));
      const response = await page.goto(running.url.replace(/\/mcp$/, '/'));
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe('mcptools gateway');
      const rows = await page.locator('tbody tr').allInnerTexts();
      const echo = rows.find((row) => row.startsWith('echo'));
      const broken = rows.find((row) => row.startsWith('broken'));
      expect(echo).toMatch(/connected/);
      expect(echo).toMatch(/\b7\b/);
      expect(broken).toMatch(/error|disconnected/);
      expect(broken).toMatch(/exit/i);
      expect(await page.locator('#uptime').textContent()).toMatch(/\d+h \d+m \d+s/);
      expect(await page.locator('script').count()).toBe(0);
      expect(scripts).toEqual([]);
    } finally {
      await browser.close();
    }
  },
);
