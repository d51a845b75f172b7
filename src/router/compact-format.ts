/** The three states of the router's result protocol. */
export type CompactState = 'success' | 'partial' | 'error';

/** What {@link formatCompact} renders: one router outcome. */
export interface CompactResult {
  state: CompactState;
  /** Short human summary, e.g. `resource read: file://readme.md (2.5KB)`. */
  summary: string;
  /** The `data` object of the second line. */
  data: Record<string, unknown>;
  /** Seconds the call took (`meta.time`). */
  time: number;
  /** When the call finished; defaults to now. */
  ts?: Date | string;
  /** `meta.agent`; `mcp` for the router. */
  agent?: string;
}

const statusIcon: Record<CompactState, string> = { success: '✅', partial: '⚠️', error: '❌' };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The compact form writes objects like JavaScript literals: bare keys, JSON strings, no spaces inside braces. */
function compactValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(compactValue).join(', ')}]`;
  if (typeof value === 'object') {
    const fields = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .map(([key, field]) => `${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${compactValue(field)}`);
    return `{${fields.join(', ')}}`;
  }
  return JSON.stringify(String(value));
}

/** The `meta.time` value: seconds with at most three decimals. */
function roundSeconds(seconds: number): number {
  return Math.round(Math.max(0, seconds) * 1000) / 1000;
}

/**
 * Renders a router outcome in the compact two-line protocol:
 * `<status> mcp <summary>` then `  state: <code> | data: {...} | meta: {agent, time, ts}`.
 *
 * @example
 * formatCompact({ state: 'success', summary: 'resource read: a://b (12 B)', data: { uri: 'a://b' }, time: 0.3 });
 * // ✅ mcp resource read: a://b (12 B)
 * //   state: success | data: {uri: "a://b"} | meta: {agent: mcp, time: 0.3, ts: "…"}
 */
export function formatCompact(result: CompactResult): string {
  const ts = result.ts === undefined ? new Date() : result.ts;
  const stamp = typeof ts === 'string' ? ts : ts.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const agent = result.agent ?? 'mcp';
  // `agent: mcp` is printed bare: an identifier, not a quoted string.
  const meta = `{agent: ${IDENTIFIER.test(agent) ? agent : JSON.stringify(agent)}, time: ${roundSeconds(result.time)}, ts: ${JSON.stringify(stamp)}}`;
  // Summaries are one line by contract; a newline inside one would break line-based parsers.
  const summary = result.summary.replace(/\s*\n\s*/g, ' ');
  return `${statusIcon[result.state]} ${agent} ${summary}\n  state: ${result.state} | data: ${compactValue(result.data)} | meta: ${meta}`;
}
