import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { McpToolsError } from '../../errors/mcp-tools-error.js';
import type { ServerState } from '../../mcp/hub-types.js';
import { suggestToolNames } from '../../registry/suggest-tool-names.js';
import { namespacePrefix } from '../../registry/tool-name.js';
import { formatCompact } from '../../router/compact-format.js';
import type { Tool, ToolResult } from '../../tool/tool.js';
import { checkCallArguments } from '../check-call-arguments.js';
import { exitCodeForResult } from '../exit-codes.js';
import type { Session } from '../open-session.js';
import { parseCallArguments } from '../parse-call-arguments.js';
import { formatResult, printJson, printLine } from '../print.js';
import { readableError } from '../readable-error.js';
import { runSessionCommand } from '../run-session-command.js';
import { saveBinaryContent } from '../save-binary-content.js';
import { serverOfToolName } from '../server-of-tool-name.js';
import { terminalApproval } from '../terminal-approval.js';
import { parseFormat } from './parse-format.js';

interface CallOptions {
  timeout?: number;
  save?: string;
  format?: string;
}

/**
 * The tool `name` designates: its exposed name, or `server.tool` as mcporter writes it. A name
 * of a server that is not connected is that server's failure (exit 3), not an unknown tool.
 */
function findTool(tools: Tool[], name: string, session: Session): Tool {
  const exact = tools.find((tool) => tool.name === name);
  if (exact) return exact;
  const dot = name.indexOf('.');
  if (dot > 0) {
    const server = name.slice(0, dot);
    const original = name.slice(dot + 1);
    const dotted = tools.find((tool) => tool.server === server && tool.originalName === original);
    if (dotted) return dotted;
  }
  const offline = notConnectedServerOf(name, session);
  if (offline) throw offline;
  const suggestions = suggestToolNames(
    name,
    tools.map((tool) => tool.name),
  );
  throw new McpToolsError(
    'TOOL_NOT_FOUND',
    `No tool named "${name}".${suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : ''} (mcptools tools lists them all)`,
  );
}

/** A server state that is not `connected`, as the end of "server X, which …". */
const stateWords: Record<ServerState, string> = {
  connected: 'is connected',
  connecting: 'is still connecting',
  disconnected: 'disconnected',
  error: 'failed to connect',
  disabled: 'is disabled in the configuration',
  skipped: 'was skipped',
  auth_required: 'needs an OAuth sign-in',
};

/** The error for `name` when it names a tool of a configured server that is not connected. */
function notConnectedServerOf(name: string, session: Session): McpToolsError | undefined {
  const naming = session.config.namespace ?? {};
  const status = session.hub
    .status()
    .find(
      (candidate) =>
        candidate.state !== 'connected' &&
        (name.startsWith(namespacePrefix(candidate.name, naming)) || name.startsWith(`${candidate.name}.`)),
    );
  if (!status) return undefined;
  const why = status.lastError ? ` (${readableError(status.lastError)})` : '';
  return new McpToolsError(
    'CONNECTION_FAILED',
    `"${name}" is a tool of server "${status.name}", which ${stateWords[status.state]}${why}. \`mcptools doctor ${status.name}\` suggests a fix.`,
    { data: { server: status.name, state: status.state } },
  );
}

function compactCall(name: string, result: ToolResult, seconds: number): string {
  const text = result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
  const code = (result.details as { code?: string } | undefined)?.code;
  return formatCompact({
    state: result.isError ? 'error' : 'success',
    summary: result.isError ? `tool failed: ${name}${code ? ` (${code})` : ''}` : `tool call: ${name}`,
    data: {
      tool: name,
      content: text,
      ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
      ...(result.content.length > 0 && result.content.some((block) => block.type !== 'text')
        ? { parts: result.content.map((block) => block.type) }
        : {}),
    },
    time: seconds,
  });
}

/** Runs `mcptools call`. */
export async function callAction(
  name: string,
  inputs: string[],
  commandOptions: CallOptions,
  command: Command,
): Promise<void> {
  const format = parseFormat(commandOptions.format);
  await runSessionCommand(
    command,
    async ({ session, options, signal }) => {
      // Hooks and policies that ask go to the person at the terminal; without one they are denied.
      session.registry.onApproval(terminalApproval());
      const tool = findTool(await session.tools(), name, session);
      const params = parseCallArguments(inputs, tool.parameters);
      checkCallArguments(name, tool, params, (line) => process.stderr.write(`mcptools: ${line}\n`));
      const timeoutMs = commandOptions.timeout;
      // MCP tools time out in the adapter (callTimeoutMs); this timer covers native and router tools too.
      const timer = new AbortController();
      const timeout =
        timeoutMs === undefined
          ? undefined
          : setTimeout(
              () =>
                timer.abort(
                  new McpToolsError('TIMEOUT', `${tool.name} timed out after ${timeoutMs} ms (--timeout)`),
                ),
              timeoutMs + 50,
            );
      const started = performance.now();
      let result: ToolResult;
      try {
        result = await tool.execute(
          randomUUID(),
          params,
          AbortSignal.any([signal, timer.signal]),
          (update) => {
            if (options.json || !update.progress) return;
            const { progress, total, message } = update.progress;
            process.stderr.write(
              `progress ${progress}${total ? `/${total}` : ''}${message ? ` ${message}` : ''}\n`,
            );
          },
        );
      } finally {
        clearTimeout(timeout);
      }
      if (signal.aborted) throw signal.reason;
      const saved = commandOptions.save
        ? saveBinaryContent(result.content, commandOptions.save, tool.name)
        : undefined;
      if (options.json) printJson(saved ? { ...result, saved: Object.fromEntries(saved) } : result);
      else if (format === 'compact')
        printLine(compactCall(tool.name, result, (performance.now() - started) / 1000));
      else printLine(formatResult(result, saved));
      return exitCodeForResult(result);
    },
    {
      ...(commandOptions.timeout === undefined ? {} : { callTimeoutMs: commandOptions.timeout }),
      // A name of one server's tool starts that server alone; any other name needs them all.
      only: (config) => {
        const server = serverOfToolName(config, name);
        return server === undefined ? undefined : [server];
      },
    },
  );
}
