import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, eras, type RunningGateway, startGateway } from '../gateway/gateway-test-helpers.js';
import { stdioFixture } from '../mcp/hub-test-helpers.js';

/*
 * run_script through the gateway is a call of its own, besides its inner calls: the rate
 * limits count it once under its name, the guards screen what it returns (a secret the script
 * put together itself, which no inner result carried), and the audit log records it.
 */

/** A GitHub token of the real format, made up for this run (never a real one). */
const CANARY = `ghp_${randomBytes(27).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;
/** The script builds the canary from pieces, so neither its text nor an inner result holds it. */
const ASSEMBLES = `const parts = ${JSON.stringify([CANARY.slice(0, 2), CANARY.slice(2, 20), CANARY.slice(20)])};
const echoed = await tools.echo.echo({ text: "piece" });
return echoed + " " + parts.join("");`;

const textOf = (result: { content: unknown }) =>
  (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('');

let running: RunningGateway;
let scratch: string;
let auditFile: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'mcptools-script-policies-'));
  auditFile = join(scratch, 'audit.jsonl');
  running = await startGateway({
    servers: { echo: stdioFixture('echo') },
    policies: {
      rateLimits: [{ match: { tools: ['run_script'] }, per: 'tool', limit: 4, windowMs: 600_000 }],
      guards: { results: { secrets: 'redact' } },
      audit: { file: auditFile },
    },
    gateway: { mode: 'router' },
  });
}, 120_000);

afterAll(async () => {
  await running?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe.each(eras)('run_script as a call of its own, $label', ({ era }) => {
  it("redacts a secret in the script's output that no inner result carried, and the audit log never holds it", async () => {
    const client = await connectClient(running.url, era);
    try {
      const result = await client.callTool({ name: 'run_script', arguments: { script: ASSEMBLES } });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result)).not.toContain(CANARY);
      expect(textOf(result)).toBe('"piece [redacted: secret:GITHUB_TOKEN]"');
      // The control: an output without a secret comes back as the script returned it.
      const plain = await client.callTool({
        name: 'run_script',
        arguments: { script: 'return "just words"' },
      });
      expect(textOf(plain)).toBe('"just words"');
    } finally {
      await client.close();
    }
  });
});

describe('run_script in the rate limits', () => {
  it('counts each script once under its own name (its inner calls under theirs), and refuses past the limit', async () => {
    const client = await connectClient(running.url, 'modern');
    try {
      // The two eras' scripts above took 4 of the 4 tokens of run_script; inner calls took none of them.
      const refused = await client.callTool({
        name: 'run_script',
        arguments: { script: 'for (let i = 0; i < 5; i++) await tools.echo.echo({ text: "x" }); return 1' },
      });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/rate limit/i);
      // The control: a tool the limit does not name is still called, through call_tool.
      const direct = await client.callTool({
        name: 'call_tool',
        arguments: { name: 'echo__echo', arguments: { text: 'still here' } },
      });
      expect(textOf(direct)).toContain('still here');
    } finally {
      await client.close();
    }
    await expect
      .poll(() => readFileSync(auditFile, 'utf8').split('\n').filter(Boolean).length, {
        message: 'the audit log records the scripts and their inner calls',
      })
      .toBeGreaterThanOrEqual(8);
    const log = readFileSync(auditFile, 'utf8');
    expect(log).not.toContain(CANARY);
    const records = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { tool: string; toolCallId?: string; decisions: unknown[] });
    const scripts = records.filter((record) => record.tool === 'run_script');
    expect(scripts).toHaveLength(5);
    expect(scripts.flatMap((record) => record.decisions)).toContainEqual({
      by: 'guards',
      decision: 'redact',
      reason: 'secret:GITHUB_TOKEN at content[0].text',
    });
    // Inner calls carry their script's id; the refused script made none.
    const inner = records.filter(
      (record) => record.tool === 'echo__echo' && record.toolCallId?.startsWith('script-'),
    );
    expect(inner).toHaveLength(2);
  });
});
