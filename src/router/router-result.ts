import type { ToolResult } from '../tool/tool.js';
import { type CompactState, formatCompact } from './compact-format.js';
import { type RouterError, routerErrorSummary } from './error-taxonomy.js';

/** How router tools render their results: JSON text (default) or the compact format's two lines. */
export type RouterFormat = 'json' | 'compact';

/** One router outcome before rendering. */
export interface RouterOutcome {
  state: CompactState;
  /** One-line summary for the compact format. */
  summary: string;
  /** The JSON result (also the result's `details`). */
  payload: Record<string, unknown>;
  /** The compact format's `data`; `payload` when absent. */
  compactData?: Record<string, unknown>;
}

/**
 * Renders an outcome as a tool result. JSON mode: the text is the payload's JSON. Compact
 * mode: the text is {@link formatCompact}'s two lines. `details` is the payload either way;
 * an `error` outcome is an `isError` result.
 */
export function renderRouterResult(
  outcome: RouterOutcome,
  format: RouterFormat,
  startedAt: number,
): ToolResult {
  const text =
    format === 'compact'
      ? formatCompact({
          state: outcome.state,
          summary: outcome.summary,
          data: outcome.compactData ?? outcome.payload,
          time: (performance.now() - startedAt) / 1000,
        })
      : JSON.stringify(outcome.payload);
  const result: ToolResult = { content: [{ type: 'text', text }], details: outcome.payload };
  if (outcome.state === 'error') result.isError = true;
  return result;
}

/**
 * The outcome of a failed router call: `{ ...context, error: { type, code, msg, recoverable,
 * ...extra } }` in JSON, `{type, msg, recoverable}` in compact form.
 */
export function errorOutcome(
  error: RouterError,
  context: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
  target?: string,
): RouterOutcome {
  return {
    state: 'error',
    summary: `${error.type}: ${routerErrorSummary(error, target)}`,
    payload: { ...context, error: { ...error, ...extra } },
    compactData: { type: error.type, msg: error.msg, recoverable: error.recoverable, ...extra },
  };
}
