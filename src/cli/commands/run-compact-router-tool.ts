import { McpToolsError } from '../../errors/mcp-tools-error.js';
import { createRouterTools } from '../../router/create-router-tools.js';
import { DEFAULT_ROUTER_TOOL_NAMES, type RouterToolNames } from '../../router/router-options.js';
import { ExitCode, exitCodeFor } from '../exit-codes.js';
import type { Session } from '../open-session.js';
import { printLine } from '../print.js';

/**
 * `--format compact`: runs one router tool (`list_mcp_resources`, `read_mcp_resource`) built
 * with the compact format, prints its two lines and returns the exit code its error
 * code maps to — the same text an agent sees.
 */
export async function runCompactRouterTool(
  session: Session,
  which: keyof RouterToolNames,
  args: Record<string, unknown>,
  signal: AbortSignal,
  readMaxBytes?: number,
): Promise<number> {
  const tools = createRouterTools(session.hub, session.registry, {
    config: session.config,
    format: 'compact',
    ...(readMaxBytes === undefined ? {} : { readMaxBytes }),
  });
  const name = DEFAULT_ROUTER_TOOL_NAMES[which];
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new McpToolsError('TOOL_NOT_FOUND', `router tool ${name} is not available`);
  const result = await tool.execute('cli-compact', args, signal);
  if (signal.aborted) throw signal.reason;
  for (const block of result.content) if (block.type === 'text') printLine(block.text);
  if (!result.isError) return ExitCode.success;
  const code = (result.details as { error?: { code?: string } } | undefined)?.error?.code;
  return code ? exitCodeFor(new McpToolsError(code as never, '')) : ExitCode.toolError;
}
