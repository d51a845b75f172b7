import { randomUUID } from 'node:crypto';
import type { ApprovalHandler } from '../../pipeline/tool-call-hooks.js';
import type { ToolRegistry } from '../../pipeline/tool-registry.js';
import { validateArguments } from '../../tool/argument-validator.js';
import { type CallContext, contextOf } from '../../tool/call-context.js';
import { executeWith } from '../../tool/execute-with.js';
import type { JsonSchemaObject, Tool, ToolResult } from '../../tool/tool.js';
import type { RouteToolCall } from '../call-tool-tool.js';
import { routerError } from '../error-taxonomy.js';
import type { ResolvedRouterOptions } from '../router-options.js';
import { errorOutcome, renderRouterResult } from '../router-result.js';
import type { ScriptToolName } from './sandbox-prelude.js';
import { scriptApprovals } from './script-approvals.js';
import type { ScriptLimits } from './script-limits.js';
import {
  type HostAnswer,
  runSandboxedScript,
  type ScriptHost,
  type ScriptOutcome,
} from './script-sandbox.js';
import { observeScript } from './script-span.js';
import { scriptToolView } from './script-tool-view.js';
import { stripTypes } from './strip-types.js';
import { toolAnswer } from './tool-answer.js';

const parameters: JsonSchemaObject = {
  type: 'object',
  properties: {
    script: { type: 'string', description: 'JavaScript or TypeScript: the body of an async function.' },
  },
  required: ['script'],
};

/** The tool's description: it is all a model is told about code mode, so it says everything needed. */
function descriptionOf(settings: ResolvedRouterOptions, limits: ScriptLimits): string {
  const { toolIndex, describeTools } = settings.names;
  return [
    'Run a script that calls tools and returns only what matters (loops, joins, filters, sums happen in the script, not in your context).',
    'The script is the body of an async JavaScript function (TypeScript types allowed).',
    `Call a tool with \`await tools["<name>"]({ ...args })\` (names from ${toolIndex}; also \`tools.<server>.<tool>(args)\`); it returns the structured result, or the text (parsed if JSON), and throws a ToolError (message, code) on failure.`,
    `\`await ${toolIndex}({ search })\` finds tools; ${describeTools} gives their TypeScript declarations.`,
    '`print(...)` or `console.log(...)` writes output; `return` a JSON value. The output and the returned value are the result.',
    `No files, network, timers or imports. Limits: ${limits.maxCalls} calls (${limits.maxConcurrentCalls} at once), ${Math.round(limits.timeoutMs / 1000)} s, ${Math.round(limits.memoryBytes / 1048576)} MiB, ${Math.round(limits.maxOutputBytes / 1024)} KiB of output.`,
  ].join(' ');
}

/**
 * The tools a script sees, named as it calls them; the previous script's list when its view
 * named the same tools the same way (the registry may hand out new wrappers of the same tools),
 * so that what is made of the list once per configuration (the text the sandbox's `tools` is
 * installed from) is not made again per script.
 */
function scriptNamesCache(): (tools: readonly Tool[]) => readonly ScriptToolName[] {
  let last: readonly ScriptToolName[] = [];
  return (tools) => {
    const names = scriptNames(tools);
    const same =
      names.length === last.length &&
      names.every(
        (name, index) =>
          name.name === last[index]!.name &&
          name.server === last[index]!.server &&
          name.originalName === last[index]!.originalName,
      );
    if (!same) last = names;
    return last;
  };
}

/** The tools a script sees, named as it calls them. */
function scriptNames(tools: readonly Tool[]): ScriptToolName[] {
  return tools.map((tool) => ({
    name: tool.name,
    ...(tool.source === 'mcp' && tool.server !== undefined ? { server: tool.server } : {}),
    ...(tool.source === 'mcp' && tool.originalName !== undefined ? { originalName: tool.originalName } : {}),
  }));
}

/** The result of a script: its output, then its returned value; a failure names its line and column or its limit. */
function renderOutcome(outcome: ScriptOutcome, scriptId: string): ToolResult {
  const lines = [...outcome.output];
  if (outcome.value !== undefined) lines.push(outcome.value);
  const details = {
    scriptId,
    calls: outcome.calls,
    output: outcome.output,
    ...(outcome.value === undefined ? {} : { value: JSON.parse(outcome.value) as unknown }),
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
  };
  if (outcome.ok) return { content: [{ type: 'text', text: lines.join('\n') }], details };
  const error = outcome.error!;
  const where =
    error.position === undefined ? '' : ` at line ${error.position.line}, column ${error.position.column}`;
  const failure = `Script ${error.cancelled ? 'cancelled' : 'failed'}${where}: ${error.message}`;
  const shown = lines.length > 0 ? `${failure}\nOutput before it ended:\n${lines.join('\n')}` : failure;
  return { content: [{ type: 'text', text: shown }], details, isError: true };
}

/**
 * `ask` (the caller's approval handler), with the script counted as parked while each question
 * is open (`park`, a gateway's quota of parked scripts, by the bytes its sandbox holds): a
 * question the quota has no room for is not asked, and the approval fails as unavailable.
 */
function parkedWhileAsking(
  ask: ApprovalHandler,
  park: CallContext['parkScript'],
  heldBytes: () => number,
): ApprovalHandler {
  if (park === undefined) return ask;
  return async (request, options) => {
    const release = park(heldBytes());
    if (release === undefined)
      throw new Error("this caller's scripts waiting for answers hold all the memory they may");
    try {
      return await ask(request, options);
    } finally {
      release();
    }
  };
}

/** What `run_script` needs besides the registry: the one call path and `tool_index`. */
export interface RunScriptParts {
  registry: ToolRegistry;
  settings: ResolvedRouterOptions;
  routerNames: ReadonlySet<string>;
  route: RouteToolCall;
  toolIndex: Tool;
  describeTools: Tool;
  limits: ScriptLimits;
}

/**
 * `run_script { script }` (code mode): runs model-written JavaScript (TypeScript types are
 * stripped) in a WebAssembly QuickJS sandbox where every tool the caller sees is an async
 * function. Each inner call goes through the same path as `call_tool` (the caller's view,
 * plan mode, policies, hooks, approvals, audit with the script's id as its call id, telemetry);
 * the caller's approvals are asked once per tool per script. Only what the script prints and
 * returns comes back.
 */
export function createRunScriptTool(parts: RunScriptParts): Tool {
  const { registry, settings, routerNames, route, toolIndex, describeTools, limits } = parts;
  const namesOf = scriptNamesCache();
  return {
    name: settings.names.runScript,
    label: 'Run script',
    description: descriptionOf(settings, limits),
    parameters,
    source: 'router',
    category: 'router',
    readOnly: false,
    async execute(toolCallId, params, signal, onUpdate, callContext): Promise<ToolResult> {
      const caller = contextOf(toolCallId, signal, onUpdate, callContext);
      const startedAt = performance.now();
      const invalid = validateArguments(parameters, params ?? {});
      if (invalid)
        return renderRouterResult(
          errorOutcome(routerError('INVALID_ARGUMENTS', invalid.message)),
          settings.format,
          startedAt,
        );
      const source = String(params.script);
      const scriptId = `script-${randomUUID()}`;
      const view = await scriptToolView(registry, settings, routerNames, caller.caller);
      const argumentsByCall = new Map<string, Record<string, unknown>>();
      // The caller's approvals, asked once per tool for the whole script; without a caller's
      // own handler the host's is asked as for any call. Inner calls are many: none of them
      // relays an upstream's input_required to the caller as the script's own answer.
      let heldBytes = () => limits.memoryBytes;
      const innerContext: CallContext = {
        ...caller,
        ...(caller.onApproval === undefined
          ? {}
          : {
              onApproval: scriptApprovals(
                scriptId,
                parkedWhileAsking(caller.onApproval, caller.parkScript, () => heldBytes()),
                (id) => (id === undefined ? undefined : argumentsByCall.get(id)),
              ),
            }),
      };
      let sequence = 0;
      const call = async (payload: { name?: unknown; arguments?: unknown }, innerSignal: AbortSignal) => {
        const args = payload.arguments;
        if (args === null || typeof args !== 'object' || Array.isArray(args))
          return { error: { message: 'arguments must be an object', code: 'INVALID_ARGUMENTS' } };
        // The audit log's call id of an inner call names its script.
        const id = `${scriptId}/${++sequence}`;
        argumentsByCall.set(id, args as Record<string, unknown>);
        try {
          return toolAnswer(
            await route({
              toolCallId: id,
              name: String(payload.name),
              arguments: args as Record<string, unknown>,
              context: { ...innerContext, toolCallId: id, signal: innerSignal },
              only: false,
            }),
          );
        } finally {
          argumentsByCall.delete(id);
        }
      };
      const host: ScriptHost = {
        tools: namesOf(view),
        started(read) {
          heldBytes = read;
        },
        async request(
          op: 'call' | 'index' | 'describe',
          payload: unknown,
          inner: AbortSignal,
        ): Promise<HostAnswer> {
          if (op === 'call') return call(payload as { name?: unknown; arguments?: unknown }, inner);
          const tool = op === 'index' ? toolIndex : describeTools;
          // The caller's own view: the index and the descriptions list only what it may call.
          const result = await executeWith(tool, (payload ?? {}) as Record<string, unknown>, {
            ...innerContext,
            toolCallId: `${scriptId}/${op}`,
            signal: inner,
          });
          if (result.isError === true) return toolAnswer(result);
          return { value: op === 'index' ? result.details : (result.content[0] as { text: string }).text };
        },
      };
      return observeScript(scriptId, async () => {
        let outcome = await runSandboxedScript(source, host, limits, signal);
        // TypeScript is tried only when the script does not compile as JavaScript (nothing ran).
        if (outcome.error?.syntax === true) {
          let stripped: string | undefined;
          try {
            stripped = await stripTypes(source);
          } catch (error) {
            outcome = { ...outcome, error: { message: (error as Error).message, syntax: true } };
          }
          if (stripped !== undefined && stripped !== source)
            outcome = await runSandboxedScript(stripped, host, limits, signal);
        }
        return renderOutcome(outcome, scriptId);
      });
    },
  };
}
