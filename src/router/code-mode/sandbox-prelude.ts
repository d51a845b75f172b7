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

/** The global the prelude leaves for {@link toolsInstallArguments}'s one call (it deletes itself). */
export const INSTALL_GLOBAL = '__mcptools_install';

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
 * be made ahead of time: `tool_index`, `describe_tools`, `console`, `print` and an installer
 * that defines `tools` (an async function per served name, and per `server.tool` where
 * unambiguous) once, for the one script the sandbox will run, and then deletes itself. It talks
 * to the host through three functions it takes off the global object first (a request, a line
 * printed, and how the script ended), passing JSON text only: no host object ever enters the sandbox, so a script has nothing of the host's to climb
 * through.
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
  const request = (op, payload, tool) => {
    // Made here, in the caller's frame, so an uncaught failure points at the script's line.
    const site = new Error();
    let text;
    try {
      text = JSON.stringify(payload === undefined ? {} : payload);
    } catch (error) {
      return Promise.reject(new TypeError('arguments must be JSON: ' + error.message));
    }
    return host(op, text).then((answer) => {
      // The host's answer object itself, or its JSON text.
      const parsed = typeof answer === 'string' ? JSON.parse(answer) : answer;
      if (parsed.error === undefined) return parsed.value;
      const failure = new ToolError(parsed.error.message, parsed.error.code, tool);
      failure.stack = site.stack;
      throw failure;
    });
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
  // Runs the one script, once (a script calling it again is refused), and hands the host how it
  // ended: 1 and the JSON of what it returned, or 0 and what it threw.
  let ran = false;
  define('${RUN_GLOBAL}', (body) => {
    if (ran) throw new TypeError('the script is already running');
    ran = true;
    body()
      .then((value) => (value === undefined ? undefined : JSON.stringify(value)))
      .then((json) => finish(1, json), (error) => finish(0, error));
  });
  Object.defineProperty(globalThis, '${INSTALL_GLOBAL}', {
    configurable: true,
    value: (namesJson, groupsJson) => {
      delete globalThis.${INSTALL_GLOBAL};
      const tools = Object.create(null);
      for (const name of JSON.parse(namesJson)) {
        tools[name] = (args) => request('call', { name, arguments: args === undefined ? {} : args }, name);
      }
      const groups = JSON.parse(groupsJson);
      for (const server of Object.keys(groups)) {
        const group = Object.create(null);
        for (const tool of Object.keys(groups[server])) group[tool] = tools[groups[server][tool]];
        tools[server] = Object.freeze(group);
      }
      define('tools', Object.freeze(tools));
    },
  });
})();`;

/**
 * The script wrapped as the body of an async function (so it may `await` and `return`): the
 * first line of the script is line 2 of the wrapper, which {@link scriptPosition} takes back.
 */
export function wrapScript(source: string): string {
  return `${RUN_GLOBAL}(async () => {\n${source}\n})`;
}
