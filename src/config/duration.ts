import { McpToolsError } from '../errors/mcp-tools-error.js';

/**
 * The longest delay a Node timer holds (2³¹−1 ms, about 24.8 days). Node fires a longer
 * `setTimeout` after 1 ms, so every duration is clamped to this before it reaches a timer.
 */
export const MAX_DURATION_MS = 2_147_483_647;

/** A duration clamped to {@link MAX_DURATION_MS}; `Infinity` means "as long as a timer can wait". */
export function clampDurationMs(ms: number): number {
  return Math.min(ms, MAX_DURATION_MS);
}

/** Options of {@link durationMs}. */
export interface DurationOptions {
  /** Accept 0 (say, "no delay"). Default `false`: a zero timeout would fail every call. */
  allowZero?: boolean;
}

/**
 * Checks one duration in milliseconds given by a user (an option, a flag's text such as `"1e3"`)
 * and clamps it to what a timer can hold. A negative, non-numeric or (unless allowed) zero value
 * throws `CONFIG_INVALID` naming `field`.
 *
 * @example
 * durationMs('1e3', '--timeout'); // 1000
 * durationMs(3e9, 'callTimeoutMs'); // 2147483647
 * durationMs(-1, '--timeout'); // throws CONFIG_INVALID: --timeout must be a positive number of milliseconds
 */
export function durationMs(value: unknown, field: string, options: DurationOptions = {}): number {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : Number.NaN;
  const lowest = options.allowZero ? 0 : Number.MIN_VALUE;
  if (Number.isNaN(number) || number < lowest) {
    const wanted = options.allowZero
      ? 'a number of milliseconds, 0 or more'
      : 'a positive number of milliseconds';
    throw new McpToolsError('CONFIG_INVALID', `${field} must be ${wanted} (got ${describe(value)})`, {
      data: { field },
    });
  }
  return clampDurationMs(Math.ceil(number));
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 20 ? `${value.slice(0, 20)}…` : value);
  return typeof value === 'number' ? String(value) : typeof value;
}
