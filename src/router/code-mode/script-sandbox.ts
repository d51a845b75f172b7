import type { QuickJSHandle } from 'quickjs-emscripten-core';
import { encodeBinaryJson, NotJsonError } from './binary-json.js';
import { SCRIPT_FILE, type ScriptToolName, wrapScript } from './sandbox-prelude.js';
import { limitMessage, type ScriptLimitName, type ScriptLimits } from './script-limits.js';
import { installTools, releaseSandbox, takeSandbox, toolsInstalledFor } from './warm-sandbox.js';

/** What the host answers a script's request with: a JSON value, or an error the script may catch. */
export type HostAnswer = { value: unknown } | { error: { message: string; code?: string } };

/** The host side of a script: the tools it sees and what its requests do. */
export interface ScriptHost {
  tools: readonly ScriptToolName[];
  /** A request of the script: `call` (a tool), `index` (`tool_index`), `describe` (`describe_tools`). */
  request(op: 'call' | 'index' | 'describe', payload: unknown, signal: AbortSignal): Promise<HostAnswer>;
  /** Told when the script starts how to read the bytes its sandbox holds now. */
  started?(heldBytes: () => number): void;
}

/** The bytes a QuickJS runtime holds, from its own memory report (`limit` when it cannot be read). */
function runtimeBytes(report: string, limit: number): number {
  const used = /memory used\s+\d+\s+(\d+)/.exec(report);
  return used === null ? limit : Number(used[1]);
}

/** Where in the script an error was thrown (1-based, as the script was written). */
export interface ScriptPosition {
  line: number;
  column: number;
}

/** How a script ended. */
export interface ScriptOutcome {
  ok: boolean;
  /** What it printed, line by line. */
  output: string[];
  /** The JSON of what it returned (absent for `undefined`). */
  value?: string;
  /** Why it failed: its own error, or the limit it reached (`limit`), or cancellation. */
  error?: {
    message: string;
    position?: ScriptPosition;
    limit?: ScriptLimitName;
    cancelled?: true;
    /** The script did not compile: nothing of it ran. */
    syntax?: true;
  };
  /** Inner tool calls the script made. */
  calls: number;
}

const encoder = new TextEncoder();

/** The first position inside the script in a QuickJS stack (`(script.js:L:C)`), less the wrapper's line. */
function scriptPosition(stack: unknown): ScriptPosition | undefined {
  if (typeof stack !== 'string') return undefined;
  const match = new RegExp(`\\(${SCRIPT_FILE.replace('.', '\\.')}:(\\d+):(\\d+)\\)`).exec(stack);
  if (match === null) return undefined;
  const line = Number(match[1]) - 1;
  return line >= 1 ? { line, column: Number(match[2]) } : undefined;
}

/** A thrown value's text: `Name: message`, or the value itself. */
function describeThrown(value: unknown): { text: string; name?: string; message?: string; stack?: unknown } {
  if (value !== null && typeof value === 'object') {
    const { name, message, stack } = value as { name?: unknown; message?: unknown; stack?: unknown };
    if (typeof message === 'string') {
      const label = typeof name === 'string' && name !== '' ? name : 'Error';
      return { text: `${label}: ${message}`, name: label, message, stack };
    }
    try {
      return { text: JSON.stringify(value) };
    } catch {
      return { text: String(value) };
    }
  }
  return { text: String(value) };
}

/**
 * Runs `source` (JavaScript; the body of an async function) in a QuickJS runtime and context
 * of its own inside WebAssembly, which no other script has used (made ahead, see
 * {@link takeSandbox}): no filesystem, network, process, timers or module loader, and no
 * object of the host's — only `tools`, `tool_index`, `describe_tools`, `console` and `print`,
 * which reach `host` as JSON text. Memory, stack, time, inner calls and output are bounded by
 * `limits`; the first limit reached stops the script and is named in its outcome.
 */
export async function runSandboxedScript(
  source: string,
  host: ScriptHost,
  limits: ScriptLimits,
  signal?: AbortSignal,
): Promise<ScriptOutcome> {
  const sandbox = await takeSandbox(host.tools);
  const { runtime, context } = sandbox;
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  const output: string[] = [];
  let outputBytes = 0;
  let calls = 0;
  let inFlight = 0;
  const waiting: Array<() => void> = [];
  let limit: ScriptLimitName | undefined;
  let cancelled = false;
  let closed = false;
  const deadline = Date.now() + limits.timeoutMs;
  // Inner calls end when the script does, whatever ended it.
  const inner = new AbortController();
  // Requests the script made that the host has not answered yet.
  let open = 0;
  let wake: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const stop = (reason: ScriptLimitName | 'cancelled') => {
    if (reason === 'cancelled') cancelled = true;
    else limit ??= reason;
    inner.abort();
    wake?.();
  };
  runtime.setInterruptHandler(() => {
    if (limit !== undefined || cancelled) return true;
    if (Date.now() > deadline) {
      stop('timeoutMs');
      return true;
    }
    return false;
  });
  const timer = setTimeout(() => stop('timeoutMs'), limits.timeoutMs);
  const onAbort = () => stop('cancelled');
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });

  /**
   * Node's own stack ran out inside QuickJS (it throws a RangeError through the WebAssembly
   * frames): the instance's state is lost, the script stopped at its stack limit.
   */
  const brokeWith = (error: unknown) => {
    broken = true;
    stop(error instanceof RangeError ? 'stackBytes' : 'memoryBytes');
  };

  /** Runs the script's pending jobs (promise reactions) until none is left. */
  const drain = () => {
    if (closed || broken) return;
    try {
      const result = runtime.executePendingJobs();
      if (result.error) result.error.dispose();
    } catch (error) {
      brokeWith(error);
    }
  };

  /** Waits for a free slot among `maxConcurrentCalls`. */
  const slot = async () => {
    while (inFlight >= limits.maxConcurrentCalls) await new Promise<void>((resolve) => waiting.push(resolve));
    inFlight++;
  };
  const release = () => {
    inFlight--;
    waiting.shift()?.();
  };

  /**
   * The answer as the prelude reads it: the object itself, read from QuickJS's binary format
   * (several times cheaper than parsing its JSON text inside the sandbox), or its JSON text
   * when it is no plain JSON or this QuickJS reads another format. `undefined` when the
   * sandbox could not hold it.
   */
  const answerHandle = (answer: HostAnswer): QuickJSHandle | undefined => {
    let bytes: Uint8Array | undefined;
    if (sandbox.binaryJson)
      try {
        bytes = encodeBinaryJson(answer);
      } catch (error) {
        if (!(error instanceof NotJsonError)) throw error;
      }
    if (bytes === undefined) return context.newString(JSON.stringify(answer));
    const buffer = context.newArrayBuffer(bytes.buffer as ArrayBuffer);
    const value = context.decodeBinaryJSON(buffer);
    buffer.dispose();
    // A failed read (out of memory) leaves an exception, not an object.
    if (context.typeof(value) === 'object') return value;
    value.dispose();
    return undefined;
  };

  /**
   * Hands the script the answer to its request `id` through the prelude's `answer` (the
   * request's promise lives in the sandbox), then runs what that lets the script do.
   */
  const reply = (id: number, answer: HostAnswer) => {
    if (closed || broken) return;
    open--;
    const handle = answerHandle(answer);
    if (handle === undefined) {
      // The answer does not fit in the script's memory: the script stops at its limit.
      stop('memoryBytes');
      return;
    }
    const idHandle = context.newNumber(id);
    let answered: ReturnType<typeof context.callFunction>;
    try {
      answered = context.callFunction(sandbox.answer, context.undefined, idHandle, handle);
    } catch (error) {
      brokeWith(error);
      return;
    } finally {
      idHandle.dispose();
      handle.dispose();
    }
    if (answered.error) {
      // The prelude catches what reading the answer throws; what is left is a limit (out of
      // memory, or the interrupt of a script already stopped).
      const thrown = describeThrown(context.dump(answered.error));
      answered.error.dispose();
      stop(thrown.message === 'stack overflow' ? 'stackBytes' : 'memoryBytes');
      return;
    }
    answered.value.dispose();
    drain();
  };

  const request = (opHandle: QuickJSHandle, payloadHandle: QuickJSHandle, idHandle: QuickJSHandle) => {
    const op = context.getString(opHandle) as 'call' | 'index' | 'describe';
    const payloadText = context.getString(payloadHandle);
    const id = context.getNumber(idHandle);
    open++;
    const settle = (answer: HostAnswer) => reply(id, answer);
    if (op === 'call' && ++calls > limits.maxCalls) {
      stop('maxCalls');
      // Settled after the script's current step: never while QuickJS is inside this function.
      queueMicrotask(() => settle({ error: { message: limitMessage('maxCalls', limits), code: 'LIMIT' } }));
      return;
    }
    const payload = JSON.parse(payloadText) as unknown;
    void (async () => {
      if (op === 'call') await slot();
      try {
        if (inner.signal.aborted) throw new Error('the script has ended');
        return await host.request(op, payload, inner.signal);
      } finally {
        if (op === 'call') release();
      }
    })().then(settle, (error: unknown) =>
      settle({ error: { message: error instanceof Error ? error.message : String(error) } }),
    );
  };
  const print = (textHandle: QuickJSHandle) => {
    const text = context.getString(textHandle);
    outputBytes += encoder.encode(text).length + 1;
    if (outputBytes > limits.maxOutputBytes) {
      stop('maxOutputBytes');
      return;
    }
    output.push(text);
  };
  /** How the script ended, as the prelude reports it (see `finish` of {@link SandboxPort}). */
  type Ending = { ok: true; json: string | undefined } | { ok: false; thrown: unknown };
  let ended: ((ending: Ending) => void) | undefined;
  const ending = new Promise<Ending>((resolve) => {
    ended = resolve;
  });
  const finish = (okHandle: QuickJSHandle, valueHandle: QuickJSHandle) => {
    if (closed) return;
    // Read now: the handles live only for this call.
    if (context.getNumber(okHandle) === 1)
      ended?.({
        ok: true,
        json: context.typeof(valueHandle) === 'string' ? context.getString(valueHandle) : undefined,
      });
    else ended?.({ ok: false, thrown: context.dump(valueHandle) });
  };
  sandbox.port = { request, print, finish };
  host.started?.(() => (closed ? 0 : runtimeBytes(runtime.dumpMemoryUsage(), limits.memoryBytes)));

  let broken = false;
  const fail = (thrown: unknown): ScriptOutcome => {
    if (cancelled)
      return { ok: false, output, calls, error: { message: 'the script was cancelled', cancelled: true } };
    const described = describeThrown(thrown);
    let reached: ScriptLimitName | undefined = limit;
    if (reached === undefined && described.name === 'InternalError') {
      if (described.message === 'out of memory') reached = 'memoryBytes';
      else if (described.message === 'stack overflow') reached = 'stackBytes';
    }
    const position = scriptPosition(described.stack);
    limit = reached;
    if (reached !== undefined)
      return {
        ok: false,
        output,
        calls,
        error: { message: limitMessage(reached, limits), limit: reached, ...(position ? { position } : {}) },
      };
    return {
      ok: false,
      output,
      calls,
      error: { message: described.text, ...(position ? { position } : {}) },
    };
  };
  const evaluate = async (): Promise<ScriptOutcome> => {
    // The caller's tools, in this script's own context only: installed ahead when the last
    // script's caller saw the same ones, else now.
    if (!toolsInstalledFor(sandbox, host.tools))
      try {
        installTools(sandbox, host.tools);
      } catch (error) {
        return fail((error as { thrown?: unknown }).thrown);
      }
    const started = context.evalCode(wrapScript(source), SCRIPT_FILE);
    if (started.error) {
      const thrown = context.dump(started.error);
      started.error.dispose();
      const failed = fail(thrown);
      return failed.error === undefined ? failed : { ...failed, error: { ...failed.error, syntax: true } };
    }
    started.value.dispose();
    drain();
    const result = await Promise.race([ending, stopped.then(() => undefined)]);
    if (result === undefined || limit !== undefined || cancelled || broken) return fail(undefined);
    if (!result.ok) return fail(result.thrown);
    const value = result.json;
    if (value !== undefined) {
      outputBytes += encoder.encode(value).length;
      if (outputBytes > limits.maxOutputBytes) {
        limit = 'maxOutputBytes';
        return fail(undefined);
      }
    }
    return { ok: true, output, calls, ...(value === undefined ? {} : { value }) };
  };

  try {
    return await evaluate();
  } catch (error) {
    brokeWith(error);
    return fail(undefined);
  } finally {
    closed = true;
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    // Only while a request is open: aborting makes a `DOMException`, a measurable part of a short
    // script's cost, and a script whose requests have all been answered has nothing to end.
    if (open > 0 || inFlight > 0) inner.abort();
    // A script that ended normally is freed; one stopped mid-flight may hold objects QuickJS
    // would refuse to free, and its whole WebAssembly instance is dropped instead.
    releaseSandbox(sandbox, limit === undefined && !cancelled && !broken && open === 0);
  }
}
