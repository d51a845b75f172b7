import { durationMs } from '../config/duration.js';

/** How a lost or failed server is retried. */
export interface ReconnectOptions {
  /** Delay before the first retry. Default 500 ms. */
  initialDelayMs?: number;
  /** Cap of the doubling delay. Default 30 000 ms. */
  maxDelayMs?: number;
  /** Random spread, as a fraction of the delay (0.2 = ±20%). Default 0.2. */
  jitter?: number;
  /** `false` leaves a failed server failed. Default `true`. */
  enabled?: boolean;
}

/** {@link ReconnectOptions} with every default filled in. */
export type ReconnectPolicy = Required<ReconnectOptions>;

/** Fills in the defaults of {@link ReconnectOptions}; delays are checked and clamped ({@link durationMs}). */
export function reconnectPolicy(options: ReconnectOptions = {}): ReconnectPolicy {
  return {
    initialDelayMs: durationMs(options.initialDelayMs ?? 500, 'reconnect.initialDelayMs', {
      allowZero: true,
    }),
    maxDelayMs: durationMs(options.maxDelayMs ?? 30_000, 'reconnect.maxDelayMs', { allowZero: true }),
    jitter: Math.min(1, Math.max(0, options.jitter ?? 0.2)),
    enabled: options.enabled ?? true,
  };
}

/** The delay before retry number `attempt` (1-based): capped doubling with ± jitter. */
export function reconnectDelay(
  policy: ReconnectPolicy,
  attempt: number,
  random: () => number = Math.random,
): number {
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, attempt - 1));
  const spread = base * policy.jitter * (2 * random() - 1);
  return Math.max(0, Math.round(base + spread));
}
