import { otelApi } from '../../telemetry/otel-api.js';
import { failSpan, mcptoolsTracer, tracing } from '../../telemetry/tracer.js';
import type { ToolResult } from '../../tool/tool.js';

/**
 * Runs one script (`run`) under an INTERNAL span `run_script`, the parent of its inner calls'
 * spans (they start in its context), with the script's id and its number of inner calls; a
 * failed script's span says `script_error`, never the script's text or its output. With no
 * SDK registered it is `run()`.
 */
export async function observeScript(scriptId: string, run: () => Promise<ToolResult>): Promise<ToolResult> {
  const api = otelApi();
  if (api === undefined || !tracing(api)) return run();
  const parent = api.context.active();
  const span = mcptoolsTracer(api).startSpan(
    'run_script',
    { kind: api.SpanKind.INTERNAL, attributes: { 'mcptools.script.id': scriptId } },
    parent,
  );
  try {
    const result = await api.context.with(api.trace.setSpan(parent, span), run);
    const calls = (result.details as { calls?: unknown } | undefined)?.calls;
    if (typeof calls === 'number') span.setAttribute('mcptools.script.calls', calls);
    if (result.isError === true) failSpan(api, span, 'script_error');
    return result;
  } catch (error) {
    failSpan(api, span, 'internal_error');
    throw error;
  } finally {
    span.end();
  }
}
