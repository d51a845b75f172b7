import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { cliBin, runCli } from './cli-process.js';

/*
 * `mcptools call` asks a person on a real terminal: the built CLI runs inside a
 * pseudo-terminal made by util-linux `script` (no native module), the test reads the prompt
 * from the terminal and types the answer. Without a terminal the approval is denied.
 */

const SCRIPT = '/usr/bin/script';

/** `value` quoted for `sh -c`. */
const quoted = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;

/**
 * Runs the built CLI with `args` in a pseudo-terminal; when its output shows `prompt`,
 * types `answer` and Enter. Resolves with everything the terminal showed and the exit code.
 */
function runInTerminal(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  prompt: RegExp,
  answer: string,
): Promise<{ code: number | null; output: string; prompted: boolean }> {
  const command = [process.execPath, cliBin, ...args].map(quoted).join(' ');
  // -q: no banner; -e: the command's exit code; -c: the command; /dev/null: no typescript file.
  const child = spawn(SCRIPT, ['-qec', command, '/dev/null'], {
    cwd,
    env: { ...env, TERM: 'dumb' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let prompted = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no end within 90 s; the terminal showed:\n${output}`));
    }, 90_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (!prompted && prompt.test(output)) {
        prompted = true;
        child.stdin.write(`${answer}\r`);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code, output, prompted });
    });
  });
}

describe.skipIf(!existsSync(SCRIPT))(
  'mcptools call asks on a terminal (built binary, a real pty)',
  {
    timeout: 120_000,
  },
  () => {
    let dir: string;
    let config: string;
    let env: NodeJS.ProcessEnv;
    const prompt = /Allow echo__echo\? \[o=allow-once, a=allow-always, d=deny\] /;

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'mcptools-cli-tty-'));
      env = { ...process.env, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'home', '.config') };
      mkdirSync(join(dir, 'home'));
      config = join(dir, 'mcptools.json');
      writeFileSync(
        config,
        JSON.stringify({
          servers: { echo: { ...fixtureCommand('echo'), protocol: '2025' } },
          policies: {
            requireApproval: [{ match: { tools: ['echo__echo'] }, reason: 'Echoing needs a yes' }],
          },
        }),
      );
    });

    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('shows the request and runs the call once the person answers "o"', async () => {
      const run = await runInTerminal(
        ['call', 'echo__echo', 'text=approved-on-a-tty', '--config', config],
        dir,
        env,
        prompt,
        'o',
      );
      expect(run.prompted).toBe(true);
      expect(run.output).toContain('Call echo__echo (asked by policies)');
      expect(run.output).toContain('Echoing needs a yes');
      // The result comes after the answer.
      expect(run.output.slice(run.output.search(prompt))).toContain('approved-on-a-tty');
      expect(run.code).toBe(0);
    });

    it('does not run the call when the person answers "d"', async () => {
      const run = await runInTerminal(
        ['call', 'echo__echo', 'text=refused-on-a-tty', '--config', config],
        dir,
        env,
        prompt,
        'd',
      );
      expect(run.prompted).toBe(true);
      expect(run.output).toContain('Denied: Call echo__echo. The tool call did not run');
      // The typed-in text shows once (the command line is not echoed); the tool never echoed it back.
      expect(run.output.slice(run.output.search(prompt))).not.toContain('refused-on-a-tty');
      expect(run.code).not.toBe(0);
    });

    it('control: the same call without a terminal is denied without a prompt', async () => {
      const run = await runCli(['call', 'echo__echo', 'text=no-tty', '--config', config], dir, env);
      expect(run.stderr).not.toMatch(prompt);
      expect(run.stdout + run.stderr).toContain('Approval unavailable: nobody could be asked');
      expect(run.code).not.toBe(0);
    });
  },
);
