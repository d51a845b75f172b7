/** What one script may use; each is reported by its name when the script reaches it. */
export interface ScriptLimits {
  /** Heap of the script's QuickJS runtime, in bytes. Default 32 MiB. */
  memoryBytes: number;
  /**
   * Stack of the script's QuickJS runtime, in bytes (deep recursion stops here). Default and
   * most 256 KiB: QuickJS's frames also take Node's own stack, which must not run out first.
   */
  stackBytes: number;
  /** Wall-clock budget of the whole script, inner calls included, in ms. Default 30 000. */
  timeoutMs: number;
  /** Inner tool calls one script may make. Default 1 000. */
  maxCalls: number;
  /** Inner calls in flight at once (a `Promise.all` over many items waits its turn). Default 8. */
  maxConcurrentCalls: number;
  /** What the script may print and return together, in bytes of UTF-8. Default 64 KiB. */
  maxOutputBytes: number;
}

/** The largest `stackBytes` (see {@link ScriptLimits.stackBytes}). */
export const MAX_STACK_BYTES = 256 * 1024;

/** The defaults of {@link ScriptLimits}. */
export const DEFAULT_SCRIPT_LIMITS: Readonly<ScriptLimits> = Object.freeze({
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: MAX_STACK_BYTES,
  timeoutMs: 30_000,
  maxCalls: 1_000,
  maxConcurrentCalls: 8,
  maxOutputBytes: 64 * 1024,
});

/** The name of one limit, as a script's failure reports it. */
export type ScriptLimitName = keyof ScriptLimits;

/** `limits` with every missing, non-finite or non-positive value taken from the defaults. */
export function resolveScriptLimits(limits: Partial<ScriptLimits> = {}): ScriptLimits {
  const resolved = { ...DEFAULT_SCRIPT_LIMITS };
  for (const key of Object.keys(DEFAULT_SCRIPT_LIMITS) as ScriptLimitName[]) {
    const value = limits[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 1) resolved[key] = Math.floor(value);
  }
  resolved.stackBytes = Math.min(resolved.stackBytes, MAX_STACK_BYTES);
  return resolved;
}

/** Why a script was stopped at a limit, in words a model can act on. */
export function limitMessage(name: ScriptLimitName, limits: ScriptLimits): string {
  const value = limits[name];
  switch (name) {
    case 'memoryBytes':
      return `limit memoryBytes (${value}) reached: the script used more memory than it may`;
    case 'stackBytes':
      return `limit stackBytes (${value}) reached: the script recursed too deeply`;
    case 'timeoutMs':
      return `limit timeoutMs (${value}) reached: the script ran longer than it may`;
    case 'maxCalls':
      return `limit maxCalls (${value}) reached: the script made more tool calls than it may`;
    case 'maxConcurrentCalls':
      return `limit maxConcurrentCalls (${value}) reached`;
    case 'maxOutputBytes':
      return `limit maxOutputBytes (${value}) reached: the script printed or returned more than it may`;
  }
}
