import { validateArguments } from '../tool/argument-validator.js';
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
  run(params: Record<string, unknown>, signal?: AbortSignal): Promise<RouterOutcome>;
}

/**
 * A read-only router tool: arguments validated against `parameters` first, the outcome
 * rendered as JSON or seed 002's compact form with the elapsed time, failures as results.
 */
export function defineRouterTool(definition: RouterToolDefinition, format: RouterFormat): Tool {
  const { run, server, ...shape } = definition;
  return {
    ...shape,
    source: 'router',
    category: 'router',
    readOnly: true,
    ...(server === undefined ? {} : { server }),
    async execute(_toolCallId, params, signal) {
      const startedAt = performance.now();
      const args = params ?? {};
      const invalid = validateArguments(shape.parameters, args);
      const outcome = invalid
        ? errorOutcome(routerError('INVALID_ARGUMENTS', invalid.message))
        : await run(args, signal);
      return renderRouterResult(outcome, format, startedAt);
    },
  };
}
