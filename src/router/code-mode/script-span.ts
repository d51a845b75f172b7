import { context, SpanKind, trace } from '@opentelemetry/api';
import { failSpan, tracer, tracing } from '../../telemetry/tracer.js';
import type { ToolResult } from '../../tool/tool.js';

/**
 * Runs one script (`run`) under an INTERNAL span `run_script`, the parent of its inner calls'
 * spans (they start in its context), with the script's id and its number of inner calls; a
 * failed script's span says `script_error`, never the script's text or its output. With no
 * SDK registered it is `run()`.
 */
export async function observeScript(scriptId: string, run: () => Promise<ToolResult>): Promise<ToolResult> {
  if (!tracing()) return run();
  const parent = context.active();
  const span = tracer.startSpan(
    'run_script',
    { kind: SpanKind.INTERNAL, attributes: { 'mcptools.script.id': scriptId } },
    parent,
  );
  try {
    const result = await context.with(trace.setSpan(parent, span), run);
    const calls = (result.details as { calls?: unknown } | undefined)?.calls;
    if (typeof calls === 'number') span.setAttribute('mcptools.script.calls', calls);
    if (result.isError === true) failSpan(span, 'script_error');
    return result;
  } catch (error) {
    failSpan(span, 'internal_error');
    throw error;
  } finally {
    span.end();
  }
}
