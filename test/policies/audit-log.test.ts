import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AfterToolCallEvent } from '../../src/pipeline/tool-call-hooks.js';
import { AuditLog } from '../../src/policies/audit-log.js';

const scratch = mkdtempSync(join(tmpdir(), 'mcptools-audit-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function event(index: number): AfterToolCallEvent {
  return {
    toolName: 'files__write',
    params: { path: `/tmp/${index}`, secret: 'never-logged-value' },
    toolCallId: `call-${index}`,
    durationMs: 1.5,
    outcome: 'ok',
    decisions: [{ by: 'some-plugin', decision: 'block', reason: 'quotes never-logged-value' }],
    startedAt: Date.now(),
  };
}

describe('the audit log', () => {
  it('rotates by size, keeps the configured number of files, writes mode 0600 and no values', async () => {
    const file = join(scratch, 'calls.jsonl');
    const log = new AuditLog({ file, maxBytes: 2048, keep: 2 });
    for (let index = 0; index < 60; index++) log.write(event(index));
    await log.close();
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(existsSync(`${file}.2`)).toBe(true);
    expect(existsSync(`${file}.3`)).toBe(false);
    for (const path of [file, `${file}.1`, `${file}.2`]) {
      expect(statSync(path).size).toBeLessThanOrEqual(2048);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const text = readFileSync(path, 'utf8');
      expect(text).not.toContain('never-logged-value');
      for (const line of text.trim().split('\n')) {
        expect(JSON.parse(line)).toMatchObject({
          tool: 'files__write',
          decisions: [{ by: 'some-plugin', decision: 'block' }],
        });
      }
    }
    const last = readFileSync(file, 'utf8').trim().split('\n').at(-1)!;
    expect(JSON.parse(last).toolCallId).toBe('call-59');
  });

  it('reports a write it cannot make once, and never throws', async () => {
    const errors: string[] = [];
    // A folder that is a file: the log cannot be opened.
    const blocker = join(scratch, 'not-a-folder');
    writeFileSync(blocker, '');
    const log = new AuditLog(
      { file: join(blocker, 'calls.jsonl') },
      { onError: (message) => errors.push(message) },
    );
    log.write(event(1));
    log.write(event(2));
    await log.close();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('not-a-folder/calls.jsonl');
  });
});
