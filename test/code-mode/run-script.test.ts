import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpToolsConfig } from '../../src/config/config-types.js';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import type { ApprovalRequest } from '../../src/pipeline/tool-call-hooks.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { spareToolNames } from '../../src/router/code-mode/warm-sandbox.js';
import { createRouterTools } from '../../src/router/create-router-tools.js';
import type { RouterToolsOptions } from '../../src/router/router-options.js';
import type { CallContext } from '../../src/tool/call-context.js';
import type { Tool, ToolResult } from '../../src/tool/tool.js';
import { stdioFixture, textOf } from '../mcp/hub-test-helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'mcptools-code-mode-'));
const auditFile = join(scratch, 'audit.jsonl');
const config: McpToolsConfig = {
  servers: { echo: stdioFixture('echo') },
  policies: {
    deny: [{ match: { tools: ['echo__boom'] }, reason: 'boom is off limits' }],
    requireApproval: [{ match: { tools: ['write_note'] }, reason: 'This writes a note' }],
    rateLimits: [{ match: { tools: ['echo__mixed'] }, per: 'tool', limit: 3, windowMs: 60_000 }],
    audit: { file: auditFile },
  },
};

/** In-process tools beside the fixture's: a write tool behind an approval, one that counts concurrency. */
const notes: string[] = [];
let inFlight = 0;
let mostInFlight = 0;
const nativeTools: Tool[] = [
  {
    name: 'write_note',
    description: 'Writes a note.',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    async execute(_id, params) {
      notes.push(String(params.text));
      return { content: [{ type: 'text', text: `noted ${notes.length}` }] };
    },
  },
  {
    name: 'read_gauge',
    description: 'Reads a gauge (counts how many reads run at once).',
    readOnly: true,
    parameters: { type: 'object', properties: { id: { type: 'number' } } },
    async execute(_id, params) {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return {
        content: [{ type: 'text', text: JSON.stringify({ id: params.id, level: Number(params.id) * 2 }) }],
      };
    },
  },
];

const requests: ApprovalRequest[] = [];
const registry = new ToolRegistry();
let provider: McpToolHub;

function runScript(options: RouterToolsOptions = {}): Tool {
  return createRouterTools(provider, registry, options).find((tool) => tool.name === 'run_script')!;
}

async function run(
  script: string,
  options: RouterToolsOptions = {},
  context?: Partial<CallContext>,
): Promise<ToolResult> {
  return runScript(options).execute('outer', { script }, undefined, undefined, {
    toolCallId: 'outer',
    ...context,
  });
}

/** The call context of a caller named `principal`, with its own approval handler when given. */
const as = (principal: string, onApproval?: CallContext['onApproval']): Partial<CallContext> => ({
  caller: { principal, owner: false },
  ...(onApproval === undefined ? {} : { onApproval }),
});

beforeAll(async () => {
  for (const tool of nativeTools) registry.register(tool);
  provider = await loadMcpServers(config, registry);
});

afterAll(async () => {
  await provider?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('run_script', () => {
  it('calls tools by served name and by server.tool, and returns only what it prints and returns', async () => {
    const result = await run(`
      const sum = await tools.echo.add({ a: 2, b: 3 });
      const text = await tools["echo__echo"]({ text: "hi" });
      print("echoed", text);
      return { sum: sum.sum, twice: sum.sum * 2 };
    `);
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe('echoed hi\n{"sum":5,"twice":10}');
    expect(result.details).toMatchObject({ calls: 2, value: { sum: 5, twice: 10 } });
  });

  it('accepts TypeScript, and reports an error at its line and column in the script as written', async () => {
    const typed = await run(`
      interface Sum { sum: number }
      const result: Sum = (await tools.echo.add({ a: 1, b: 1 })) as Sum;
      return result.sum satisfies number;
    `);
    expect(textOf(typed)).toBe('2');
    const failing = await run(`const a: number = 1;\nconst b = null as unknown as { x: number };\n  b.x;`);
    expect(failing.isError).toBe(true);
    expect(textOf(failing)).toBe(
      "Script failed at line 3, column 4: TypeError: cannot read property 'x' of null",
    );
    const javascript = await run(`print("before");\nundefinedFunction();`);
    expect(textOf(javascript)).toContain('line 2, column 1: ReferenceError');
    expect(textOf(javascript)).toContain('Output before it ended:\nbefore');
  });

  it('gives a script the tool failure as an error it can catch, and a denied tool as one too', async () => {
    const result = await run(`
      const seen = [];
      try { await tools.echo.fail({ message: "broken" }); } catch (error) { seen.push(error.name + ": " + error.message); }
      try { await tools.echo.boom({}); } catch (error) { seen.push(error.message); }
      try { await tools["no_such_tool"]({}); } catch (error) { seen.push(String(error)); }
      return seen;
    `);
    const seen = (result.details as { value: string[] }).value;
    expect(seen[0]).toBe('ToolError: broken');
    expect(seen[1]).toBe('boom is off limits');
    expect(seen[2]).toContain('not a function');
  });

  it('records each inner call in the audit log under the script id and the caller', async () => {
    const result = await run(
      `await tools.echo.echo({ text: "one" }); try { await tools.echo.boom({}) } catch {} return 1;`,
      {},
      as('alice'),
    );
    const scriptId = (result.details as { scriptId: string }).scriptId;
    expect(scriptId).toMatch(/^script-/);
    const recordsOf = () =>
      (existsSync(auditFile) ? readFileSync(auditFile, 'utf8') : '')
        .trim()
        .split('\n')
        .map(
          (line) =>
            JSON.parse(line) as { tool: string; toolCallId?: string; principal?: string; outcome: string },
        )
        .filter((record) => record.toolCallId?.startsWith(`${scriptId}/`))
        .map((record) => [record.tool, record.principal, record.outcome]);
    // Records reach the file within about 50 ms of the call.
    await expect.poll(recordsOf, { message: 'the inner calls in the audit log' }).toEqual([
      ['echo__echo', 'alice', 'ok'],
      ['echo__boom', 'alice', 'blocked'],
    ]);
  });

  it('counts each inner call against the rate limits', async () => {
    const result = await run(`
      const outcomes = [];
      for (let i = 0; i < 5; i++) {
        try { await tools.echo.mixed({}); outcomes.push("ok"); } catch (error) { outcomes.push("limited"); }
      }
      return outcomes;
    `);
    expect((result.details as { value: string[] }).value).toEqual(['ok', 'ok', 'ok', 'limited', 'limited']);
  });

  it('asks the caller once per tool for the whole script, naming the script and the first arguments', async () => {
    notes.length = 0;
    requests.length = 0;
    const onApproval = (request: ApprovalRequest) => {
      requests.push(request);
      return 'allow-once' as const;
    };
    const result = await run(
      `for (let i = 1; i <= 5; i++) await tools.write_note({ text: "note " + i }); return "done";`,
      {},
      as('bob', onApproval),
    );
    expect(textOf(result)).toBe('"done"');
    expect(notes).toEqual(['note 1', 'note 2', 'note 3', 'note 4', 'note 5']);
    expect(requests).toHaveLength(1);
    const scriptId = (result.details as { scriptId: string }).scriptId;
    expect(requests[0]!.description).toContain(`script ${scriptId}`);
    expect(requests[0]!.description).toContain('{"text":"note 1"}');
    expect(requests[0]!.description).toContain('the arguments of later calls are not shown');
    // Control: a second script asks again.
    await run(`await tools.write_note({ text: "again" })`, {}, as('bob', onApproval));
    expect(requests).toHaveLength(2);
    // A denial also holds for the rest of the script, and each call gets an error it can catch.
    const denied = await run(
      `let refused = 0; for (let i = 0; i < 3; i++) { try { await tools.write_note({ text: "x" }) } catch { refused++ } } return refused;`,
      {},
      as('bob', () => 'deny' as const),
    );
    expect(textOf(denied)).toBe('3');
    expect(notes).not.toContain('x');
  });

  it("shows a script only the tools of the caller's view: a hidden tool is not callable by any name", async () => {
    const options: RouterToolsOptions = { toolVisible: (tool) => tool.name !== 'echo__echo' };
    const result = await run(
      `return [typeof tools.echo__echo, typeof tools.echo.echo, typeof tools.echo.add, Object.keys(tools).includes("echo__echo")];`,
      options,
    );
    expect((result.details as { value: unknown[] }).value).toEqual([
      'undefined',
      'undefined',
      'function',
      false,
    ]);
    const described = await createRouterTools(provider, registry, options)
      .find((tool) => tool.name === 'describe_tools')!
      .execute('d', { names: ['echo__echo', 'echo__add'] });
    expect(textOf(described)).toContain('"echo__add"(args: {');
    expect(textOf(described)).toContain('// unknown tools: echo__echo');
    // Nor through call_tool, which a script cannot reach either.
    const viaRouter = await run(`return typeof tools.call_tool;`, options);
    expect(textOf(viaRouter)).toBe('"undefined"');
  });

  it('runs each script in a sandbox no other script used: nothing a script leaves is seen by the next', async () => {
    const polluting = await run(`
      globalThis.leaked = "secret";
      Object.prototype.polluted = 1;
      Array.prototype.push = () => 0;
      JSON.parse = () => "forged";
      return typeof leaked;
    `);
    expect(textOf(polluting)).toBe('"string"');
    // One after it, then several at once (some get a sandbox made on the spot).
    const probe = `return [typeof globalThis.leaked, typeof ({}).polluted, [1].push(2), JSON.parse("3"),
      typeof globalThis.__mcptools_install, (await tools.echo.add({ a: 1, b: 1 })).sum];`;
    const results = [await run(probe), ...(await Promise.all([run(probe), run(probe), run(probe)]))];
    for (const result of results)
      expect((result.details as { value: unknown }).value).toEqual([
        'undefined',
        'undefined',
        2,
        3,
        'undefined',
        2,
      ]);
  });

  // One router serving two callers, as the gateway's profiles do: the view depends on the caller.
  const echoForAliceOnly: RouterToolsOptions = {
    toolVisible: (tool, caller) => caller?.principal === 'alice' || tool.name !== 'echo__echo',
  };
  /** What `script` returns when `principal` runs it through `tool`. */
  const valueAs = async <T>(tool: Tool, principal: string, script: string): Promise<T> => {
    const result = await tool.execute('outer', { script }, undefined, undefined, {
      toolCallId: 'outer',
      ...as(principal),
    });
    return (result.details as { value: T }).value;
  };

  it("gives each caller's script that caller's tools only, whoever ran a script before", async () => {
    const tool = runScript(echoForAliceOnly);
    const keys = (principal: string) =>
      valueAs<string[]>(tool, principal, 'return Object.keys(tools).sort()');
    expect(await keys('alice')).toContain('echo__echo');
    expect(await keys('bob')).not.toContain('echo__echo');
    const [bob, alice] = await Promise.all([keys('bob'), keys('alice')]);
    expect(bob).not.toContain('echo__echo');
    expect(bob).toContain('echo__add');
    expect(alice).toContain('echo__echo');
  });

  it("gives a caller's script its own tools when the spare sandbox was made with another caller's", async () => {
    const tool = runScript(echoForAliceOnly);
    const keys = (principal: string) =>
      valueAs<[string[], string]>(
        tool,
        principal,
        'return [Object.keys(tools).sort(), typeof tools.echo.echo]',
      );
    const [aliceKeys] = await keys('alice');
    expect(aliceKeys).toContain('echo__echo');
    // The spare is made once alice's answer has left, with her tools installed ahead.
    await expect
      .poll(() => spareToolNames(), { message: "the spare sandbox holds alice's tools" })
      .toContain('echo__echo');
    const [bobKeys, bobEcho] = await keys('bob');
    expect(bobKeys).not.toContain('echo__echo');
    expect(bobEcho).toBe('undefined');
    expect(bobKeys).toContain('echo__add');
    // The control: the spare made after bob's script holds his tools, and alice's script still gets hers.
    await expect
      .poll(() => spareToolNames(), { message: "the spare sandbox holds bob's tools" })
      .toContain('echo__add');
    expect(spareToolNames()).not.toContain('echo__echo');
    expect((await keys('alice'))[0]).toContain('echo__echo');
  });

  it('gives a script the tools registered or removed since the previous script of the same run_script', async () => {
    const tool = runScript();
    const keys = async () => {
      const result = await tool.execute('outer', { script: 'return Object.keys(tools).sort()' });
      return (result.details as { value: string[] }).value;
    };
    const before = await keys();
    expect(before).toContain('echo__add');
    expect(before).not.toContain('read_dial');
    expect(await keys()).toEqual(before);
    const unregister = registry.register({
      name: 'read_dial',
      description: 'Reads a dial.',
      readOnly: true,
      parameters: { type: 'object', properties: {} },
      async execute() {
        return { content: [{ type: 'text', text: '{"dial":7}' }] };
      },
    });
    try {
      const added = await tool.execute('outer', { script: 'return (await tools.read_dial({})).dial' });
      expect(added.details).toMatchObject({ value: 7 });
    } finally {
      unregister();
    }
    expect(await keys()).toEqual(before);
  });

  it('describes tools as TypeScript declarations a script can be written against', async () => {
    const describe = createRouterTools(provider, registry).find((tool) => tool.name === 'describe_tools')!;
    const text = textOf(await describe.execute('d', { names: ['echo__add', 'write_note'] }));
    expect(text).toBe(
      [
        'declare const tools: {',
        '  /** Add two numbers */',
        '  "echo__add"(args: {',
        '    a: number;',
        '    b: number;',
        '  }): Promise<{',
        '    sum: number;',
        '  }>;',
        '  /** Writes a note. */',
        '  "write_note"(args: {',
        '    text: string;',
        '  }): Promise<unknown>;',
        '};',
      ].join('\n'),
    );
    const refused = await describe.execute('d', {});
    expect(refused.isError).toBe(true);
    // A server's tools, all of them.
    const server = textOf(await describe.execute('d', { server: 'echo' }));
    expect(server).toContain('"echo__echo"(args: {');
    expect(server).toContain('"echo__slow"(args: {');
  });

  it('keeps to read-only tools in plan mode', async () => {
    const result = await run(
      `const gauge = await tools.read_gauge({ id: 2 }); try { await tools["write_note"]({ text: "plan" }) } catch (e) { return [gauge.level, e.message] } return "wrote";`,
      { planMode: true },
    );
    expect((result.details as { value: unknown[] }).value).toEqual([4, 'not a function']);
  });

  it('runs at most maxConcurrentCalls inner calls at once', async () => {
    mostInFlight = 0;
    const result = await run(
      `const all = await Promise.all(Array.from({ length: 30 }, (_, i) => tools.read_gauge({ id: i }))); return all.reduce((sum, g) => sum + g.level, 0);`,
      { codeMode: { maxConcurrentCalls: 3 } },
    );
    expect(textOf(result)).toBe(String(2 * ((29 * 30) / 2)));
    expect(mostInFlight).toBe(3);
  });
});

describe('run_script escapes and exhaustion', () => {
  const limits = { timeoutMs: 2_000, memoryBytes: 16 * 1024 * 1024, maxCalls: 100, maxOutputBytes: 4096 };

  it('gives the script no process, require, import(), timers, or host through the Function constructor or values passed in', async () => {
    const result = await run(
      `
      const sum = await tools.echo.add({ a: 1, b: 2 });
      const viaFunction = Function("return this")();
      const viaValue = sum.constructor.constructor("return this")();
      let imported = "refused";
      try { await import("node:fs"); imported = "loaded"; } catch {}
      return [typeof process, typeof require, typeof setTimeout, typeof fetch, typeof viaFunction.process,
        typeof viaValue.process, viaValue === globalThis, imported, typeof globalThis.__mcptools_host];
    `,
      { codeMode: limits },
    );
    expect((result.details as { value: unknown[] }).value).toEqual([
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      true,
      'refused',
      'undefined',
    ]);
  });

  it("cannot report an ending of its own through the sandbox's runner or reach how it reports one", async () => {
    const result = await run(
      `
      let again;
      try { __mcptools_run(async () => "forged"); again = "ran"; } catch (error) { again = error.message; }
      print(typeof globalThis.__mcptools_finish);
      return { again, sum: (await tools.echo.add({ a: 2, b: 3 })).sum };
    `,
      { codeMode: limits },
    );
    expect(result.isError).toBeFalsy();
    expect((result.details as { output: string[] }).output).toEqual(['undefined']);
    // The script's own value, returned after an inner call: no forged ending came first.
    expect((result.details as { value: unknown }).value).toEqual({
      again: 'the script is already running',
      sum: 5,
    });
  });

  it.each([
    ['an endless loop', 'while (true) {}', 'timeoutMs'],
    ['an endless loop that catches', 'for (;;) { try { while (true) {} } catch {} }', 'timeoutMs'],
    ['a memory bomb', 'const keep = []; for (;;) keep.push(new Uint8Array(1024 * 1024));', 'memoryBytes'],
    ['a 100 MB string', 'return "x".repeat(100 * 1024 * 1024).length;', 'memoryBytes'],
    ['deep recursion', 'function down(n) { return down(n + 1) + 1 } return down(0);', 'stackBytes'],
    [
      '10,000 inner calls',
      'for (let i = 0; i < 10000; i++) await tools.echo.echo({ text: "x" });',
      'maxCalls',
      // 100 real calls may take longer than 2 s on a loaded machine: the time limit stays out of the way.
      { timeoutMs: 120_000 },
    ],
    ['endless printing', 'for (;;) print("spam spam spam spam")', 'maxOutputBytes'],
    ['a huge result', 'return "y".repeat(10000);', 'maxOutputBytes'],
  ] as [string, string, string, Partial<typeof limits>?][])(
    'stops %s with its limit named, and the next script runs',
    async (_label, script, limit, looser) => {
      const stopped = await run(script, { codeMode: { ...limits, ...looser } });
      expect(stopped.isError).toBe(true);
      expect(textOf(stopped)).toContain(`limit ${limit} (`);
      expect((stopped.details as { error: { limit: string } }).error.limit).toBe(limit);
      const next = await run('return (await tools.echo.add({ a: 20, b: 22 })).sum;', { codeMode: limits });
      expect(textOf(next)).toBe('42');
    },
  );

  it('is cancelled with its caller, inner calls included', async () => {
    const controller = new AbortController();
    const running = runScript().execute(
      'outer',
      { script: 'await tools.echo.slow({ ms: 30000 }); return "finished";' },
      controller.signal,
    );
    setTimeout(() => controller.abort(), 200);
    const result = await running;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Script cancelled: the script was cancelled');
  });
});

describe('run_script registered in the registry (as the CLI does)', () => {
  it('is screened by the guards as a call of its own: a secret the script put together is redacted, and its details dropped', async () => {
    const canary = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`;
    const guarded = new ToolRegistry();
    const none = await loadMcpServers(
      { servers: {}, policies: { guards: { results: { secrets: 'redact' } } } },
      guarded,
    );
    try {
      for (const tool of createRouterTools(none, guarded))
        guarded.register(tool, { source: 'router', category: 'router' });
      const pieces = JSON.stringify([canary.slice(0, 3), canary.slice(3)]);
      const result = await guarded.get('run_script')!.execute('s', { script: `return ${pieces}.join("")` });
      expect(JSON.stringify(result)).not.toContain(canary);
      expect(textOf(result)).toBe('"[redacted: secret:GITHUB_TOKEN]"');
      expect(result.details).toBeUndefined();
      // The control: a script without a secret keeps its output and details.
      const plain = await guarded.get('run_script')!.execute('s', { script: 'return "fine"' });
      expect(textOf(plain)).toBe('"fine"');
      expect(plain.details).toMatchObject({ value: 'fine' });
    } finally {
      await none.close();
    }
  });
});
