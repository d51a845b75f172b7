// Run by run.mjs under Node 24. The same plugins' tool hooks under OpenClaw's own hook runner
// (createHookRunner from the installed package, before_tool_call failing closed as its
// global runner sets it) and under mcptools' pipeline (dist/), over native tools: the same
// decisions (block and reason, the params that run, the approval asked and by whom, a hook
// failing closed) and the same tool_result_persist output. The plugins: the tool-policy
// fixture written the way OpenClaw's docs show, and the real bundled onepassword plugin.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const openclawRoot = process.env.OPENCLAW_COMPAT_ROOT;
const mcptoolsDist = process.env.OPENCLAW_COMPAT_DIST;
const here = fileURLToPath(new URL('.', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'openclaw-hooks-compat-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** OpenClaw's `createHookRunner`: the chunk its global hook runner imports it from. */
async function openclawHookRunnerFactory() {
  const dist = join(openclawRoot, 'dist');
  for (const file of readdirSync(dist)) {
    if (!file.startsWith('hook-runner-global-') || !file.endsWith('.mjs')) continue;
    const text = readFileSync(join(dist, file), 'utf8');
    const imported = /import \{ (\w+) as createHookRunner \} from "\.\/([^"]+)"/.exec(text);
    if (imported) return (await import(pathToFileURL(join(dist, imported[2])).href))[imported[1]];
  }
  throw new Error(`createHookRunner not found in ${dist}`);
}

const createHookRunner = await openclawHookRunnerFactory();
const { ToolRegistry } = await import(`${mcptoolsDist}/index.js`);
const { loadOpenClawPlugins } = await import(`${mcptoolsDist}/plugins.js`);
const { loadOnePlugin } = await import(`${mcptoolsDist}/plugins/load-one-plugin.js`);

/** The plugin's `api.on` registrations (loaded by mcptools' loader) as OpenClaw's registry holds them. */
async function openclawRunnerFor(spec, config, hostConfig = {}) {
  const plugin = await loadOnePlugin(
    { spec, config },
    {
      cwd: here,
      config: hostConfig,
      stateRoot: mkdtempSync(join(scratch, 'state-')),
      fault: { id: spec, fail() {} },
    },
  );
  const registry = {
    plugins: [{ id: plugin.id, status: 'loaded' }],
    typedHooks: plugin.handle.hooks.map((hook) => ({
      pluginId: plugin.id,
      hookName: hook.hookName,
      handler: hook.handler,
      priority: hook.priority,
      ...(hook.matcher ? { matcher: hook.matcher } : {}),
      ...(hook.timeoutMs ? { timeoutMs: hook.timeoutMs } : {}),
    })),
  };
  return createHookRunner(registry, {
    failurePolicyByHook: { before_tool_call: 'fail-closed' },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
}

const failureOf = (text) => {
  const match = /handler from (\S+) failed: ([^)\n]*)/.exec(text);
  return match ? { failed: { by: match[1], why: match[2] } } : undefined;
};

/** OpenClaw's decision for one call: its runner's merged result, params merged as its caller does. */
async function openclawDecision(runner, toolName, params, context) {
  let result;
  try {
    result = await runner.runBeforeToolCall(
      { toolName, params, toolCallId: context.toolCallId },
      { toolName, ...context },
    );
  } catch (error) {
    return failureOf(error.message) ?? { failed: error.message };
  }
  if (result?.block) return { block: result.blockReason };
  const approval = result?.requireApproval;
  return {
    ...(approval
      ? {
          approval: {
            pluginId: approval.pluginId,
            title: approval.title,
            description: approval.description,
            allowedDecisions: approval.allowedDecisions ?? ['allow-once', 'allow-always', 'deny'],
          },
        }
      : {}),
    params: result?.params ? { ...params, ...result.params } : params,
  };
}

/** mcptools' decision for one call, observed: what the tool ran with, what was asked, what came back. */
async function mcptoolsDecision(registry, log, toolName, params, context, answer = 'allow-once') {
  log.calls.length = 0;
  log.requests.length = 0;
  log.answer = answer;
  const [tool] = (await registry.resolveAll(context)).filter((candidate) => candidate.name === toolName);
  const result = await tool.execute(context.toolCallId, params);
  const text = result.content.map((block) => block.text ?? '').join('');
  const request = log.requests[0];
  const approval = request
    ? {
        approval: {
          pluginId: request.pluginId,
          title: request.title,
          description: request.description,
          allowedDecisions: request.allowedDecisions,
        },
      }
    : {};
  if (log.calls.length > 0) return { ...approval, params: log.calls[0] };
  if (text.includes('before_tool_call hook failed')) return failureOf(text);
  if (request) return { ...approval, denied: text };
  return { block: text };
}

/** A native tool per name that records the params it runs with. */
function recordingTools(registry, names, log) {
  for (const name of names) {
    registry.register({
      name,
      description: name,
      parameters: { type: 'object' },
      execute: async (_id, params) => {
        log.calls.push(params);
        return { content: [{ type: 'text', text: 'ran' }] };
      },
    });
  }
}

function approvingRegistry(log) {
  return new ToolRegistry({
    onApproval: (request) => {
      log.requests.push(request);
      return log.answer;
    },
  });
}

describe('the tool-policy fixture plugin', async () => {
  const spec = join(here, '..', 'fixtures', 'plugins', 'tool-policy-plugin.mjs');
  const runner = await openclawRunnerFor(spec, {});
  const log = { calls: [], requests: [], answer: 'allow-once' };
  const registry = approvingRegistry(log);
  recordingTools(registry, ['echo__echo', 'echo__add', 'echo__fail', 'echo__slow', 'untouched'], log);
  await loadOpenClawPlugins([spec], registry);
  const cases = [
    ['blocks', 'echo__fail', { message: 'x' }],
    ['rewrites (the last by priority wins)', 'echo__echo', { text: 'hello' }],
    ['asks, freezing the params of the first approval', 'echo__add', { a: 1, b: 2 }],
    ['fails closed on a timeout', 'echo__slow', { ms: 1 }],
    ['leaves other tools alone', 'untouched', { any: true }],
  ];
  for (const [what, toolName, params] of cases) {
    it(`${what}: ${toolName} gets the same decision`, async () => {
      const context = { toolCallId: `call-${toolName}`, agentId: 'main', sessionKey: 'agent:main:compat' };
      const expected = await openclawDecision(runner, toolName, structuredClone(params), context);
      const actual = await mcptoolsDecision(registry, log, toolName, structuredClone(params), context);
      assert.deepEqual(actual, expected);
    });
  }
});

describe('the real onepassword plugin', async () => {
  const spec = join(openclawRoot, 'dist', 'extensions', 'onepassword');
  const config = { vault: 'Compat', items: { 'compat-key': { item: 'Compat Item' } } };
  // The host config names it too, as OpenClaw's own config would: it reads its live config there.
  const hostConfig = { plugins: { entries: { onepassword: { enabled: true, config } } } };
  const runner = await openclawRunnerFor(spec, config, hostConfig);
  const log = { calls: [], requests: [], answer: 'deny' };
  const registry = approvingRegistry(log);
  const {
    plugins: [loaded],
  } = await loadOpenClawPlugins([{ spec, config }], registry, {
    config: hostConfig,
    stateDir: mkdtempSync(join(scratch, 'op-')),
  });
  const context = {
    toolCallId: 'call-op',
    agentId: 'main',
    sessionKey: 'agent:main:compat',
    sessionId: 'compat',
  };
  const nonceless = (decision) => {
    if (decision.params)
      decision.params = { ...decision.params, authorizationNonce: typeof decision.params.authorizationNonce };
    return decision;
  };

  it('registers its before_tool_call and tool_result_persist hooks', () => {
    assert.equal(loaded.status, 'loaded');
    assert.deepEqual(loaded.hooks, ['before_tool_call', 'tool_result_persist']);
  });

  it('blocks an unknown slug with the same reason', async () => {
    const params = { action: 'get', slug: 'nope', reason: 'compat' };
    const expected = await openclawDecision(runner, 'onepassword', params, context);
    const actual = await mcptoolsDecision(registry, log, 'onepassword', params, context, 'deny');
    assert.deepEqual(expected, { block: 'Unknown 1Password slug: nope' });
    assert.deepEqual(actual, expected);
  });

  it('asks for approval for a known slug, the same request from the same plugin', async () => {
    const params = { action: 'get', slug: 'compat-key', reason: 'deploy' };
    const expected = nonceless(await openclawDecision(runner, 'onepassword', params, context));
    const actual = await mcptoolsDecision(registry, log, 'onepassword', params, context, 'deny');
    assert.equal(expected.approval.title, '1Password: compat-key');
    assert.deepEqual(actual.approval, expected.approval);
    assert.match(actual.denied, /Denied/);
  });

  it('runs its tool with its authorization nonce once approved (a host-owned param its closed schema lacks)', async () => {
    log.answer = 'allow-once';
    const [tool] = (await registry.resolveAll(context)).filter(
      (candidate) => candidate.name === 'onepassword',
    );
    const result = await tool.execute('call-op-2', { action: 'get', slug: 'compat-key', reason: 'deploy' });
    const text = result.content.map((block) => block.text ?? '').join('');
    // No `op` binary here: the tool got past the pipeline and its own nonce check, and failed on `op`.
    assert.match(text, /OP_NOT_FOUND/);
  });

  it('redacts a persisted secret the same way', () => {
    const message = {
      role: 'toolResult',
      toolCallId: 'call-op',
      toolName: 'onepassword',
      content: [{ type: 'text', text: '{"value":"compat-secret-canary"}' }],
      details: {
        value: 'compat-secret-canary',
        slug: 'compat-key',
        itemTitle: 'Compat Item',
        fieldLabel: 'password',
      },
    };
    const event = { toolName: 'onepassword', toolCallId: 'call-op', message };
    const expected = runner.runToolResultPersist(structuredClone(event), {
      toolName: 'onepassword',
    })?.message;
    const actual = registry.persistToolResult(structuredClone(event), { toolName: 'onepassword' });
    assert.ok(!JSON.stringify(expected).includes('compat-secret-canary'));
    assert.deepEqual(actual, expected);
  });
});
