/** A tool as a script sees it: its served name, and its server and name there when it has them. */
export interface ScriptToolName {
  name: string;
  server?: string;
  originalName?: string;
}

/** The file name the script's own code is evaluated under (errors are located by it). */
export const SCRIPT_FILE = 'script.js';

/** The global the wrapped script is handed to (defined by the prelude, nothing else of the host's). */
export const RUN_GLOBAL = '__mcptools_run';

/**
 * Where `tools.<server>.<tool>` is unambiguous: servers whose key is not a served name
 * themselves, and within a server, names no other of its tools shares.
 */
function groupsOf(tools: readonly ScriptToolName[]): Record<string, Record<string, string>> {
  const served = new Set(tools.map((tool) => tool.name));
  const byKey = new Map<string, ScriptToolName[]>();
  for (const tool of tools) {
    if (tool.server === undefined || tool.originalName === undefined || served.has(tool.server)) continue;
    const key = `${tool.server}\u0000${tool.originalName}`;
    byKey.set(key, [...(byKey.get(key) ?? []), tool]);
  }
  const groups: Record<string, Record<string, string>> = Object.create(null);
  for (const [key, sharing] of byKey) {
    if (sharing.length !== 1) continue;
    const [server, name] = key.split('\u0000') as [string, string];
    groups[server] ??= Object.create(null);
    groups[server]![name] = sharing[0]!.name;
  }
  return groups;
}

/**
 * What the prelude's installer is called with for `tools`: the served names, and the
 * `server.tool` groups where unambiguous, each as JSON text (nothing else crosses).
 */
export function toolsInstallArguments(tools: readonly ScriptToolName[]): readonly [string, string] {
  // The same list (a caller's unchanged view) gives the same text: made once, not per script.
  if (lastInstall?.tools !== tools)
    lastInstall = {
      tools,
      args: [JSON.stringify(tools.map((tool) => tool.name)), JSON.stringify(groupsOf(tools))],
    };
  return lastInstall.args;
}

/** The last list {@link toolsInstallArguments} was asked about, and its answer. */
let lastInstall: { tools: readonly ScriptToolName[]; args: readonly [string, string] } | undefined;

/**
 * The script's world, evaluated inside the sandbox before any script is known, so that it can
 * be made ahead of time: `tool_index`, `describe_tools`, `console`, `print`, and the function
 * that runs the one script. It talks to the host through three functions it takes off the
 * global object first (a request, a line printed, and how the script ended), passing JSON text
 * only: no host object ever enters the sandbox, so a script has nothing of the host's to climb
 * through. Its value is `[answer, install]`, which the host alone holds (they are on no global
 * object): `answer(id, reply)` settles the request `id` (the script's requests wait inside the
 * sandbox, as plain promises, so the host makes no promise per call), and `install(names,
 * groups)` makes `tools` (an async function per served name, and per `server.tool` where
 * unambiguous) for the script to come — ahead of it, for the view the last script had, and
 * again at its start when its caller sees other tools; the script gets the last one made.
 */
export const SANDBOX_PRELUDE = `(() => {
  'use strict';
  const host = globalThis.__mcptools_host;
  const write = globalThis.__mcptools_print;
  const finish = globalThis.__mcptools_finish;
  delete globalThis.__mcptools_host;
  delete globalThis.__mcptools_print;
  delete globalThis.__mcptools_finish;
  class ToolError extends Error {
    constructor(message, code, tool) {
      super(message);
      this.name = 'ToolError';
      if (code !== undefined) this.code = code;
      if (tool !== undefined) this.tool = tool;
    }
  }
  // The script's requests waiting for the host's answer, by id (no method a script could patch).
  const waiting = Object.create(null);
  const NativePromise = Promise;
  let lastId = 0;
  const request = (op, payload, tool) => {
    // Made here, in the caller's frame, so an uncaught failure points at the script's line.
    const site = new Error();
    let text;
    try {
      text = JSON.stringify(payload === undefined ? {} : payload);
    } catch (error) {
      return NativePromise.reject(new TypeError('arguments must be JSON: ' + error.message));
    }
    const id = ++lastId;
    let entry;
    const promise = new NativePromise((resolve, reject) => {
      entry = { resolve, reject, site, tool };
    });
    waiting[id] = entry;
    try {
      host(op, text, id);
    } catch (error) {
      delete waiting[id];
      throw error;
    }
    return promise;
  };
  // The host's answer to request id: the answer object itself, or its JSON text.
  const answer = (id, reply) => {
    const entry = waiting[id];
    if (entry === undefined) return;
    delete waiting[id];
    try {
      const parsed = typeof reply === 'string' ? JSON.parse(reply) : reply;
      if (parsed.error === undefined) {
        entry.resolve(parsed.value);
        return;
      }
      const failure = new ToolError(parsed.error.message, parsed.error.code, entry.tool);
      failure.stack = entry.site.stack;
      entry.reject(failure);
    } catch (error) {
      entry.reject(error);
    }
  };
  const show = (value) => {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return value.name + ': ' + value.message;
    try {
      const text = JSON.stringify(value);
      return text === undefined ? String(value) : text;
    } catch {
      return String(value);
    }
  };
  const print = (...values) => {
    write(values.map(show).join(' '));
  };
  const define = (name, value) =>
    Object.defineProperty(globalThis, name, { value, writable: false, enumerable: false, configurable: false });
  define('tool_index', (args) => request('index', args));
  define('describe_tools', (args) => request('describe', args));
  define('print', print);
  define('console', Object.freeze({ log: print, info: print, warn: print, error: print, debug: print }));
  define('ToolError', ToolError);
  let tools = Object.freeze(Object.create(null));
  let ran = false;
  const install = (namesJson, groupsJson) => {
    if (ran) throw new TypeError('the script is already running');
    const made = Object.create(null);
    for (const name of JSON.parse(namesJson)) {
      made[name] = (args) => request('call', { name, arguments: args === undefined ? {} : args }, name);
    }
    const groups = JSON.parse(groupsJson);
    for (const server of Object.keys(groups)) {
      const group = Object.create(null);
      for (const tool of Object.keys(groups[server])) group[tool] = made[groups[server][tool]];
      made[server] = Object.freeze(group);
    }
    tools = Object.freeze(made);
  };
  // Runs the one script, once (a script calling it again is refused), with the tools installed
  // last, and hands the host how it ended: 1 and the JSON of what it returned, or 0 and what it threw.
  define('${RUN_GLOBAL}', (body) => {
    if (ran) throw new TypeError('the script is already running');
    ran = true;
    define('tools', tools);
    body()
      .then((value) => (value === undefined ? undefined : JSON.stringify(value)))
      .then((json) => finish(1, json), (error) => finish(0, error));
  });
  return [answer, install];
})();`;

/**
 * The script wrapped as the body of an async function (so it may `await` and `return`): the
 * first line of the script is line 2 of the wrapper, which {@link scriptPosition} takes back.
 */
export function wrapScript(source: string): string {
  return `${RUN_GLOBAL}(async () => {\n${source}\n})`;
}
