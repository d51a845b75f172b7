import { validateArguments } from '../tool/argument-validator.js';
import { type CallContext, contextOf } from '../tool/call-context.js';
import type { JsonSchemaObject, Tool } from '../tool/tool.js';
import { routerError } from './error-taxonomy.js';
import { errorOutcome, type RouterFormat, type RouterOutcome, renderRouterResult } from './router-result.js';

/** What sets one router tool apart: its definition and what it does with valid arguments. */
export interface RouterToolDefinition {
  name: string;
  label: string;
  description: string;
  parameters: JsonSchemaObject;
  /** The server a per-server tool is bound to. */
  server?: string;
  /** Runs the tool for the call `call` (its caller, signal and what its upstream requests need). */
  run(params: Record<string, unknown>, call: CallContext): Promise<RouterOutcome>;
}

/**
 * A read-only router tool: arguments validated against `parameters` first, the outcome
 * rendered as JSON or the compact form with the elapsed time, failures as results.
 */
export function defineRouterTool(definition: RouterToolDefinition, format: RouterFormat): Tool {
  const { run, server, ...shape } = definition;
  return {
    ...shape,
    source: 'router',
    category: 'router',
    readOnly: true,
    ...(server === undefined ? {} : { server }),
    async execute(toolCallId, params, signal, onUpdate, context) {
      const startedAt = performance.now();
      const args = params ?? {};
      const invalid = validateArguments(shape.parameters, args);
      const outcome = invalid
        ? errorOutcome(routerError('INVALID_ARGUMENTS', invalid.message))
        : await run(args, contextOf(toolCallId, signal, onUpdate, context));
      return renderRouterResult(outcome, format, startedAt);
    },
  };
}
