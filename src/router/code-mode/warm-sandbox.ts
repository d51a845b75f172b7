import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { BINARY_JSON_PROBE, binaryJsonMatches } from './binary-json.js';
import { quickJsInstance, retireQuickJsInstance } from './quickjs-module.js';
import { SANDBOX_PRELUDE } from './sandbox-prelude.js';

/** The host's side of the prelude's two functions, bound to the one script a sandbox runs. */
export interface SandboxPort {
  /** `__mcptools_host(op, payload)`: returns the handle of the promise the script awaits. */
  request(op: QuickJSHandle, payload: QuickJSHandle): QuickJSHandle;
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
  const sandbox: WarmSandbox = { quickjs, runtime, context, port: undefined, binaryJson };
  const unbound = () => {
    throw new Error('the sandbox has no script');
  };
  const request = context.newFunction('host', (op, payload) =>
    (sandbox.port ?? unbound()).request(op, payload),
  );
  const print = context.newFunction('print', (text) => {
    (sandbox.port ?? unbound()).print(text);
  });
  const finish = context.newFunction('finish', (ok, value) => {
    (sandbox.port ?? unbound()).finish(ok, value);
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
  evaluated.value.dispose();
  return sandbox;
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
        if (ready?.quickjs !== quickjs) ready = prepareSandbox(quickjs);
      })
      // The script that takes it makes its own and meets the error there.
      .catch(() => undefined)
      .finally(() => {
        filling = false;
      });
  });
}

/**
 * A sandbox no script has used, for one script: the one made ahead when it belongs to the
 * live WebAssembly instance (one of a retired instance is dropped with it), else a new one
 * made now. The next is made after this script has ended (see {@link releaseSandbox}).
 */
export async function takeSandbox(): Promise<WarmSandbox> {
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
        sandbox.context.dispose();
        sandbox.runtime.dispose();
      } catch {
        retireQuickJsInstance(sandbox.quickjs);
      }
    });
  prepareSandboxAhead();
}
