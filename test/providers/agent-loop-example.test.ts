import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

describe('examples/agent-loop.ts', () => {
  it('runs without an API key: MCP echo and the plugin dice tool answer the scripted model', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/agent-loop.ts'], {
      cwd: root,
      timeout: 60_000,
    });
    expect(stdout).toMatch(/OpenAI: \d+ tools, non-strict fallbacks: none/);
    expect(stdout).toContain('2 steps');
    expect(stdout).toContain('everything__echo → Echo: hello');
    expect(stdout).toMatch(/dice_roll → \{\s+"sides": 20,\s+"roll": \d+/);
  });
});
