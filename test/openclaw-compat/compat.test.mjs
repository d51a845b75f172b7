// Run by run.mjs under Node 24 (OpenClaw 2026.9 needs it). Runs OpenClaw's resolver and
// mcptools' loader in two child processes, each with its own scratch HOME and workspace,
// then compares them plugin by plugin: tool names, schemas, and one harmless call each.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { bundledToolPlugins } from './compat-shared.mjs';

const openclawRoot = process.env.OPENCLAW_COMPAT_ROOT;
const mcptoolsDist = process.env.OPENCLAW_COMPAT_DIST;
const here = fileURLToPath(new URL('.', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'openclaw-compat-'));
const run = promisify(execFile);

/** Runs one side in a fresh HOME; returns its report and that HOME (to blank it out of texts). */
async function side(name, args) {
  const home = mkdtempSync(join(scratch, `${name}-home-`));
  const workspace = mkdtempSync(join(scratch, `${name}-workspace-`));
  const output = join(scratch, `${name}.json`);
  const env = { ...process.env, HOME: home, XDG_STATE_HOME: '', COMPAT_WORKSPACE: workspace };
  delete env.OPENCLAW_STATE_DIR;
  try {
    await run(process.execPath, [join(here, `${name}-side.mjs`), ...args, output], {
      env,
      timeout: 5 * 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    throw new Error(`${name} side failed: ${error.message}\n${`${error.stderr ?? ''}`.slice(-4000)}`);
  }
  return { report: JSON.parse(readFileSync(output, 'utf8')), home, workspace };
}

const needsGateway = (message) => /gateway/i.test(message);
const blank = (text, { home, workspace }) =>
  text.replaceAll(home, '<home>').replaceAll(workspace, '<workspace>');

let openclaw;
let mcptools;
const plugins = bundledToolPlugins(openclawRoot);
const figures = { plugins: {}, totals: {}, differences: [] };

before(async () => {
  // One after the other: the browser plugin's status call binds fixed loopback ports.
  openclaw = await side('openclaw', [openclawRoot]);
  mcptools = await side('mcptools', [openclawRoot, mcptoolsDist]);
});

after(() => {
  const rows = Object.values(figures.plugins);
  figures.totals = {
    plugins: rows.length,
    mcptoolsLoaded: rows.filter((row) => row.mcptoolsStatus === 'loaded').length,
    openclawTools: rows.reduce((sum, row) => sum + row.openclawTools, 0),
    mcptoolsTools: rows.reduce((sum, row) => sum + row.mcptoolsTools, 0),
    schemasEqual: rows.reduce((sum, row) => sum + row.schemasEqual, 0),
    callsCompared: rows.reduce((sum, row) => sum + row.callsCompared, 0),
    callsSame: rows.reduce((sum, row) => sum + row.callsSame, 0),
    callsSameKind: rows.reduce((sum, row) => sum + row.callsSameKind, 0),
  };
  if (process.env.OPENCLAW_COMPAT_RESULTS) {
    writeFileSync(process.env.OPENCLAW_COMPAT_RESULTS, `${JSON.stringify(figures, null, 2)}\n`);
  }
  console.log(
    `\nOpenClaw ${JSON.parse(readFileSync(join(openclawRoot, 'package.json'), 'utf8')).version} vs mcptools`,
  );
  console.table(figures.plugins);
  console.log(figures.totals);
  for (const difference of figures.differences) console.log('same kind, not the same words:', difference);
  rmSync(scratch, { recursive: true, force: true });
});

describe('bundled OpenClaw plugins that declare tools', () => {
  it('are the twelve the comparison is about', () => {
    assert.equal(plugins.length, 12, plugins.map((plugin) => plugin.id).join(', '));
  });

  for (const plugin of plugins) {
    it(`${plugin.id}: mcptools loads it and registers the same tools, schemas and call behaviour as OpenClaw`, () => {
      const theirs = openclaw.report[plugin.id];
      const ours = mcptools.report[plugin.id];
      const row = {
        mcptoolsStatus: ours.status,
        openclawTools: Object.keys(theirs.tools).length,
        mcptoolsTools: Object.keys(ours.tools).length,
        schemasEqual: 0,
        callsCompared: 0,
        callsSame: 0,
        callsSameKind: 0,
      };
      figures.plugins[plugin.id] = row;
      assert.equal(ours.status, 'loaded', ours.error);
      assert.deepEqual(Object.keys(ours.tools).sort(), Object.keys(theirs.tools).sort());
      for (const name of Object.keys(theirs.tools)) {
        assert.deepEqual(ours.tools[name], theirs.tools[name], `schema of ${name}`);
        row.schemasEqual++;
      }
      // The load result names every tool the plugin resolves (from contracts.tools for unnamed factories).
      for (const name of Object.keys(ours.tools)) assert.ok(ours.loadResultTools.includes(name), name);
      assert.deepEqual(Object.keys(ours.calls).sort(), Object.keys(theirs.calls).sort());
      for (const [name, expected] of Object.entries(theirs.calls)) {
        const actual = ours.calls[name];
        row.callsCompared++;
        assert.equal(
          actual.kind,
          expected.kind,
          `${name}: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`,
        );
        if (expected.kind === 'ok') {
          assert.equal(blank(actual.text, mcptools), blank(expected.text, openclaw), name);
          row.callsSame++;
          continue;
        }
        // mcptools returns OpenClaw's message inside `Tool <plugin>/<tool> failed: …`.
        if (actual.message.endsWith(expected.message)) {
          row.callsSame++;
          continue;
        }
        // The same kind of error: both refuse for want of the gateway (OpenClaw, run here, has none either).
        assert.ok(
          needsGateway(actual.message) && needsGateway(expected.message),
          `${name}: ${actual.message} vs ${expected.message}`,
        );
        row.callsSameKind++;
        figures.differences.push({
          plugin: plugin.id,
          tool: name,
          openclaw: expected.message,
          mcptools: actual.message,
        });
      }
    });
  }
});
