import { z } from 'zod';
import { clampDurationMs } from './duration.js';
import { lazySchema } from './lazy-schema.js';

const count = lazySchema(() => z.number().int('must be a whole number').positive('must be at least 1'));
const duration = lazySchema(() =>
  z
    .number()
    .positive('must be a positive number of milliseconds')
    .transform((ms) => clampDurationMs(Math.ceil(ms))),
);

/** `gateway.limits`: the gateway's global caps and per-principal quotas (see `GatewayLimitsConfig`). */
export const gatewayLimitsSchema = lazySchema(() =>
  z.strictObject({
    sessions: count().optional(),
    sessionsPerPrincipal: count().optional(),
    sessionIdleMs: duration().optional(),
    listenStreams: count().optional(),
    listenStreamsPerPrincipal: count().optional(),
    eventBytes: count().optional(),
    eventBytesPerPrincipal: count().optional(),
    eventTtlMs: duration().optional(),
    unlinkedParkMs: duration().optional(),
    parkedCalls: count().optional(),
    parkedCallsPerPrincipal: count().optional(),
    parkedScriptBytes: count().optional(),
    parkedScriptBytesPerPrincipal: count().optional(),
    scriptTasks: count().optional(),
    scriptTasksPerPrincipal: count().optional(),
    scriptTaskTtlMs: duration().optional(),
  }),
);
