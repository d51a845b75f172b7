import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { BINARY_JSON_PROBE, binaryJsonMatches } from './binary-json.js';
import { quickJsInstance, retireQuickJsInstance } from './quickjs-module.js';
import { SANDBOX_PRELUDE, type ScriptToolName, toolsInstallArguments } from './sandbox-prelude.js';

/** The host's side of the prelude's three functions, bound to the one script a sandbox runs. */
export interface SandboxPort {
  /** `__mcptools_host(op, payload, id)`: a request, answered later through {@link WarmSandbox.answer}. */
  request(op: QuickJSHandle, payload: QuickJSHandle, id: QuickJSHandle): void;
  /** `__mcptools_print(text)`. */
  print(text: QuickJSHandle): void;
  /** `__mcptools_finish(1, json)` when the script returned, `(0, thrown)` when it threw. */
  finish(ok: QuickJSHandle, value: QuickJSHandle): void;
}

/**
 * A QuickJS runtime and context with the prelude evaluated, made before the script that takes
 * it is known and used by that one script only: its global object has never held another
 * script's values, and its runtime is freed with it.
 */
export interface WarmSandbox {
  readonly quickjs: QuickJSWASMModule;
  readonly runtime: QuickJSRuntime;
  readonly context: QuickJSContext;
  /** Set once by the script that takes the sandbox; the prelude's functions fail before. */
  port: SandboxPort | undefined;
  /** Whether answers may enter as QuickJS's binary object format (see {@link binaryJsonMatches}). */
  readonly binaryJson: boolean;
  /** The prelude's `answer(id, reply)`, which settles a request of the script. */
  readonly answer: QuickJSHandle;
  /** The prelude's `install(names, groups)`, which makes `tools` for the script to come. */
  readonly install: QuickJSHandle;
  /** The list `tools` was last installed from (its text: {@link toolsInstallArguments}). */
  installedFor: readonly ScriptToolName[] | undefined;
}

/**
 * Whether `sandbox` has `tools` installed for exactly `list` (the same served names, servers and
 * names there, in the same order): the same list, or an equal one of another router (a gateway
 * session's), so that the spare's tools serve every caller with the same view.
 */
export function toolsInstalledFor(sandbox: WarmSandbox, list: readonly ScriptToolName[]): boolean {
  const installed = sandbox.installedFor;
  if (installed === list) return true;
  if (installed === undefined || installed.length !== list.length) return false;
  return installed.every(
    (tool, index) =>
      tool.name === list[index]!.name &&
      tool.server === list[index]!.server &&
      tool.originalName === list[index]!.originalName,
  );
}

/**
 * Makes `tools` in `sandbox` from `list`, for the script to come; throws what the installer
 * threw (a sandbox whose script has started installs nothing).
 */
export function installTools(sandbox: WarmSandbox, list: readonly ScriptToolName[]): void {
  const { context } = sandbox;
  const [names, groups] = toolsInstallArguments(list).map((text) => context.newString(text)) as [
    QuickJSHandle,
    QuickJSHandle,
  ];
  const installed = context.callFunction(sandbox.install, context.undefined, names, groups);
  names.dispose();
  groups.dispose();
  if (installed.error) {
    const thrown = context.dump(installed.error);
    installed.error.dispose();
    throw Object.assign(new Error('the sandbox could not install the tools'), { thrown });
  }
  installed.value.dispose();
  sandbox.installedFor = list;
}

/** Whether this QuickJS build reads the host's binary JSON; checked once, on the first sandbox. */
let binaryJson: boolean | undefined;

/** Has `context` write the probe in its own binary format, and compares the host's with it. */
function probeBinaryJson(context: QuickJSContext): boolean {
  try {
    const parse = context.unwrapResult(context.evalCode('JSON.parse', 'probe.js'));
    const text = context.newString(BINARY_JSON_PROBE);
    const value = context.unwrapResult(context.callFunction(parse, context.undefined, text));
    parse.dispose();
    text.dispose();
    const encoded = context.encodeBinaryJSON(value);
    value.dispose();
    const bytes = context.getArrayBuffer(encoded);
    encoded.dispose();
    const matches = binaryJsonMatches(bytes.value);
    bytes.dispose();
    return matches;
  } catch {
    return false;
  }
}

/**
 * One sandbox made ahead, for the next script. Making one (a runtime, a context and the
 * prelude) is most of a short script's fixed cost; it is done while the host is idle — after
 * a script's answer has gone out — instead of on the way in. Only one is kept (its memory is
 * the prelude's, a few hundred KiB): a burst of concurrent scripts makes the others on the
 * spot.
 */
let ready: WarmSandbox | undefined;
let filling = false;
/**
 * The tools the last script saw: the spare has them installed ahead (most scripts come from
 * the same caller's unchanged view); a script whose caller sees others installs its own.
 */
let lastTools: readonly ScriptToolName[] | undefined;

/** A new runtime and context of `quickjs` with the prelude evaluated; throws what evaluation threw. */
function prepareSandbox(quickjs: QuickJSWASMModule): WarmSandbox {
  const runtime = quickjs.newRuntime();
  const context = runtime.newContext();
  // Probed in a context no script will use (the probe leaves nothing behind, but a script's
  // context holds only what the prelude made).
  if (binaryJson === undefined) {
    const probe = runtime.newContext();
    binaryJson = probeBinaryJson(probe);
    probe.dispose();
  }
  // The sandbox is made once the prelude has run; its functions find the script's port there.
  let sandbox: WarmSandbox | undefined;
  const unbound = () => {
    throw new Error('the sandbox has no script');
  };
  const request = context.newFunction('host', (op, payload, id) => {
    (sandbox?.port ?? unbound()).request(op, payload, id);
  });
  const print = context.newFunction('print', (text) => {
    (sandbox?.port ?? unbound()).print(text);
  });
  const finish = context.newFunction('finish', (ok, value) => {
    (sandbox?.port ?? unbound()).finish(ok, value);
  });
  context.setProp(context.global, '__mcptools_host', request);
  context.setProp(context.global, '__mcptools_print', print);
  context.setProp(context.global, '__mcptools_finish', finish);
  request.dispose();
  print.dispose();
  finish.dispose();
  const evaluated = context.evalCode(SANDBOX_PRELUDE, 'prelude.js');
  if (evaluated.error) {
    const thrown = context.dump(evaluated.error);
    evaluated.error.dispose();
    context.dispose();
    runtime.dispose();
    throw new Error(`the sandbox's prelude failed: ${JSON.stringify(thrown)}`);
  }
  const answer = context.getProp(evaluated.value, 0);
  const install = context.getProp(evaluated.value, 1);
  evaluated.value.dispose();
  sandbox = {
    quickjs,
    runtime,
    context,
    port: undefined,
    binaryJson,
    answer,
    install,
    installedFor: undefined,
  };
  return sandbox;
}

/** Frees a sandbox whose script ended cleanly (the prelude's two handles first). */
function freeSandbox(sandbox: WarmSandbox): void {
  sandbox.answer.dispose();
  sandbox.install.dispose();
  sandbox.context.dispose();
  sandbox.runtime.dispose();
}

/**
 * Runs `work` once the answer of the script that just ended has left: two `setImmediate` turns
 * later, so that a write queued for the next turn (a transport that corks its writes until
 * `setImmediate`) goes out first.
 */
function afterAnswer(work: () => void): void {
  setImmediate(() => setImmediate(work));
}

/** Makes the next sandbox once the current answer has left, unless one is ready or being made. */
export function prepareSandboxAhead(): void {
  if (filling) return;
  filling = true;
  afterAnswer(() => {
    quickJsInstance()
      .then((quickjs) => {
        if (ready?.quickjs === quickjs) return;
        const made = prepareSandbox(quickjs);
        try {
          if (lastTools !== undefined) installTools(made, lastTools);
        } catch {
          // The script that takes it installs its tools again and meets the error there.
        }
        ready = made;
      })
      // The script that takes it makes its own and meets the error there.
      .catch(() => undefined)
      .finally(() => {
        filling = false;
      });
  });
}

/** The served names the spare sandbox has `tools` installed for (`undefined` while there is no spare). */
export function spareToolNames(): readonly string[] | undefined {
  return ready === undefined ? undefined : (ready.installedFor ?? []).map((tool) => tool.name);
}

/**
 * A sandbox no script has used, for one script: the one made ahead when it belongs to the
 * live WebAssembly instance (one of a retired instance is dropped with it), else a new one
 * made now. The next is made after this script has ended (see {@link releaseSandbox}).
 */
export async function takeSandbox(tools: readonly ScriptToolName[]): Promise<WarmSandbox> {
  lastTools = tools;
  const quickjs = await quickJsInstance();
  const made = ready;
  ready = undefined;
  return made?.quickjs === quickjs ? made : prepareSandbox(quickjs);
}

/**
 * Ends a sandbox after its script, off the script's way out: one that ended cleanly is freed
 * once its answer has left; one stopped mid-flight may hold objects its runtime would refuse
 * to free, so its whole WebAssembly instance is retired instead (dropped once nothing runs in
 * it). Either way the next script's sandbox is made after that.
 */
export function releaseSandbox(sandbox: WarmSandbox, clean: boolean): void {
  if (!clean) retireQuickJsInstance(sandbox.quickjs);
  else
    afterAnswer(() => {
      try {
        freeSandbox(sandbox);
      } catch {
        retireQuickJsInstance(sandbox.quickjs);
      }
    });
  prepareSandboxAhead();
}
