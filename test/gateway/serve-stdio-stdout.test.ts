import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { cliBin } from '../cli/cli-process.js';

/*
 * `mcptools serve --stdio` speaks the protocol on stdout, so nothing else may reach it: a
 * plugin's console.log/info/debug (and the SDK's console.debug notes) go to stderr. A stray
 * line on stdout would be a parse error for the client.
 */
describe('mcptools serve --stdio (built binary) with a plugin that logs to the console', () => {
  it('writes only JSON-RPC messages to stdout and the console output to stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcptools-stdout-'));
    const config = join(dir, 'mcptools.json');
    const plugin = resolve('test/fixtures/plugins/chatty-plugin.mjs');
    writeFileSync(config, JSON.stringify({ servers: {}, plugins: [plugin] }));
    const child = spawn(process.execPath, [cliBin, 'serve', '--stdio', '--config', config], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const lines: string[] = [];
    const waiting = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      try {
        const message = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
        if (typeof message.id === 'number') waiting.get(message.id)?.(message);
      } catch {
        // Kept in `lines`: the assertion below names it.
      }
    });
    const request = (id: number, method: string, params: unknown) =>
      new Promise<{ result?: unknown; error?: unknown }>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`no answer to ${method}; stderr: ${stderr}`)), 60_000);
        waiting.set(id, (message) => {
          clearTimeout(timer);
          done(message);
        });
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    try {
      await request(1, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'stdout-check', version: '1' },
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      const listed = (await request(2, 'tools/list', {})).result as { tools: { name: string }[] };
      const say = listed.tools.find((tool) => tool.name.endsWith('chatty_say'));
      expect(say, JSON.stringify(listed.tools.map((tool) => tool.name))).toBeDefined();
      const called = await request(3, 'tools/call', { name: say!.name, arguments: { text: 'hello' } });
      expect(called.result).toMatchObject({ content: [{ type: 'text', text: 'said hello' }] });

      for (const line of lines) {
        expect(() => JSON.parse(line), `stdout line: ${line}`).not.toThrow();
        expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
      }
      expect(lines.join('\n')).not.toContain('chatty:');
      expect(stderr).toContain('chatty: log while registering');
      expect(stderr).toContain('chatty: info while registering');
      expect(stderr).toContain('chatty: log while saying hello');
      // console.debug notes are dropped unless `serve --verbose` (the log is for events).
      expect(stderr).not.toContain('chatty: debug while saying');
    } finally {
      child.kill('SIGTERM');
      await new Promise((done) => child.once('exit', done));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
