// Collects tools/list from MCP server packages over stdio into toolcorpus/ beside this file.
// Usage: install the packages named in SERVERS into node_modules/ beside this file (with
// `npm install --no-save`), then `node toolcorpus-collect.mjs [name ...]` (writes
// toolcorpus/<name>.json and toolcorpus/_summary.json). Not part of the test suite.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import fs from 'node:fs';
import path from 'node:path';

const H = path.dirname(new URL(import.meta.url).pathname);
const OUT = path.join(H, 'toolcorpus');
const NM = path.join(H, 'node_modules');
const bin = (pkg, rel) => path.join(NM, pkg, rel);
const sandbox = path.join(OUT, 'fs-sandbox'); fs.mkdirSync(sandbox, { recursive: true });
const DUMMY = 'dummy-not-a-real-key';

// env: only what a server needs to start; "dummy" marks placeholder credentials
const SERVERS = [
  { name: 'server-filesystem', pkg: '@modelcontextprotocol/server-filesystem', args: [bin('@modelcontextprotocol/server-filesystem', 'dist/index.js'), sandbox] },
  { name: 'server-memory', pkg: '@modelcontextprotocol/server-memory', args: [bin('@modelcontextprotocol/server-memory', 'dist/index.js')], env: { MEMORY_FILE_PATH: path.join(sandbox, 'memory.jsonl') } },
  { name: 'server-everything', pkg: '@modelcontextprotocol/server-everything', args: [bin('@modelcontextprotocol/server-everything', 'dist/index.js')] },
  { name: 'server-sequential-thinking', pkg: '@modelcontextprotocol/server-sequential-thinking', args: [bin('@modelcontextprotocol/server-sequential-thinking', 'dist/index.js')] },
  { name: 'server-github', pkg: '@modelcontextprotocol/server-github', args: [bin('@modelcontextprotocol/server-github', 'dist/index.js')] },
  { name: 'server-postgres', pkg: '@modelcontextprotocol/server-postgres', args: [bin('@modelcontextprotocol/server-postgres', 'dist/index.js'), 'postgresql://127.0.0.1:1/none'] },
  { name: 'server-google-maps', pkg: '@modelcontextprotocol/server-google-maps', args: [bin('@modelcontextprotocol/server-google-maps', 'dist/index.js')], env: { GOOGLE_MAPS_API_KEY: DUMMY } },
  { name: 'server-slack', pkg: '@modelcontextprotocol/server-slack', args: [bin('@modelcontextprotocol/server-slack', 'dist/index.js')], env: { SLACK_BOT_TOKEN: DUMMY, SLACK_TEAM_ID: 'T000' } },
  { name: 'server-brave-search', pkg: '@modelcontextprotocol/server-brave-search', args: [bin('@modelcontextprotocol/server-brave-search', 'dist/index.js')], env: { BRAVE_API_KEY: DUMMY } },
  { name: 'server-gitlab', pkg: '@modelcontextprotocol/server-gitlab', args: [bin('@modelcontextprotocol/server-gitlab', 'dist/index.js')], env: { GITLAB_PERSONAL_ACCESS_TOKEN: DUMMY } },
  { name: 'playwright-mcp', pkg: '@playwright/mcp', args: [bin('@playwright/mcp', 'cli.js'), '--headless'] },
  { name: 'chrome-devtools-mcp', pkg: 'chrome-devtools-mcp', args: [bin('chrome-devtools-mcp', 'build/src/bin/chrome-devtools-mcp.js'), '--headless', '--no-usage-statistics'] },
  { name: 'context7-mcp', pkg: '@upstash/context7-mcp', args: [bin('@upstash/context7-mcp', 'dist/index.js')] },
  { name: 'notion-mcp-server', pkg: '@notionhq/notion-mcp-server', args: [bin('@notionhq/notion-mcp-server', 'bin/cli.mjs')] },
  { name: 'desktop-commander', pkg: '@wonderwhy-er/desktop-commander', args: [bin('@wonderwhy-er/desktop-commander', 'dist/index.js'), '--no-onboarding'], env: { HOME: path.join(sandbox, 'home') } },
  { name: 'antv-mcp-server-chart', pkg: '@antv/mcp-server-chart', args: [bin('@antv/mcp-server-chart', 'build/index.js')] },
  { name: 'mongodb-mcp-server', pkg: 'mongodb-mcp-server', args: [bin('mongodb-mcp-server', 'dist/esm/index.js'), '--telemetry', 'disabled'] },
  { name: 'zereight-mcp-gitlab', pkg: '@zereight/mcp-gitlab', args: [bin('@zereight/mcp-gitlab', 'build/index.js')], env: { GITLAB_PERSONAL_ACCESS_TOKEN: DUMMY } },
  { name: 'tavily-mcp', pkg: 'tavily-mcp', args: [bin('tavily-mcp', 'build/index.js')], env: { TAVILY_API_KEY: DUMMY } },
  { name: 'firecrawl-mcp', pkg: 'firecrawl-mcp', args: [bin('firecrawl-mcp', 'dist/index.js')], env: { FIRECRAWL_API_KEY: DUMMY } },
  { name: 'circleci-mcp', pkg: '@circleci/mcp-server-circleci', args: [bin('@circleci/mcp-server-circleci', 'dist/index.js')] },
  { name: 'code-runner-mcp', pkg: 'mcp-server-code-runner', args: [bin('mcp-server-code-runner', 'dist/cli.js')] },
  { name: 'exa-mcp-server', pkg: 'exa-mcp-server', args: [bin('exa-mcp-server', 'dist/stdio.cjs')] },
  { name: 'eslint-mcp', pkg: '@eslint/mcp', args: [bin('@eslint/mcp', 'src/mcp-cli.js')] },
  { name: 'executeautomation-playwright', pkg: '@executeautomation/playwright-mcp-server', args: [bin('@executeautomation/playwright-mcp-server', 'dist/index.js')] },
];

const only = process.argv.slice(2);
const summaryPath = path.join(OUT, '_summary.json');
const summary = fs.existsSync(summaryPath) ? JSON.parse(fs.readFileSync(summaryPath)) : {};
const withTimeout = (p, ms, what) => Promise.race([p, new Promise((_, rej) => setTimeout(() => rej(new Error(`timeout ${ms}ms: ${what}`)), ms))]);

for (const s of SERVERS) {
  if (only.length && !only.includes(s.name)) continue;
  const version = JSON.parse(fs.readFileSync(path.join(NM, s.pkg, 'package.json'))).version;
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...(s.env || {}) };
  const transport = new StdioClientTransport({ command: process.execPath, args: s.args, env, stderr: 'pipe', cwd: sandbox });
  let stderr = '';
  const client = new Client({ name: 'mcptools-research-collector', version: '0.0.1' });
  const t0 = Date.now();
  try {
    const startP = client.connect(transport);
    transport.stderr?.on('data', d => { stderr += d.toString(); });
    await withTimeout(startP, 30000, 'connect');
    const tools = []; let cursor;
    do { const r = await withTimeout(client.listTools(cursor ? { cursor } : {}), 30000, 'tools/list'); tools.push(...r.tools); cursor = r.nextCursor; } while (cursor);
    const info = client.getServerVersion();
    const rec = { package: s.pkg, version, serverInfo: info, collectedWith: `@modelcontextprotocol/sdk stdio, args=${JSON.stringify(s.args.slice(1).map(a => a.replace(OUT, '<out>')))}`, envKeys: Object.keys(s.env || {}), toolCount: tools.length, tools };
    fs.writeFileSync(path.join(OUT, `${s.name}.json`), JSON.stringify(rec, null, 1));
    summary[s.name] = { package: s.pkg, version, ok: true, tools: tools.length, ms: Date.now() - t0, envKeys: Object.keys(s.env || {}), chars: JSON.stringify(tools).length };
    console.log(`OK   ${s.name} ${version}: ${tools.length} tools (${Date.now() - t0} ms)`);
  } catch (e) {
    summary[s.name] = { package: s.pkg, version, ok: false, error: String(e.message).slice(0, 200), stderr: stderr.slice(-400), envKeys: Object.keys(s.env || {}) };
    console.log(`FAIL ${s.name} ${version}: ${String(e.message).slice(0, 120)} | ${stderr.slice(-200).replace(/\n/g, ' ')}`);
  } finally {
    try { await withTimeout(client.close(), 5000, 'close'); } catch { }
  }
}
fs.writeFileSync(summaryPath, JSON.stringify(summary, null, 1));
process.exit(0);
