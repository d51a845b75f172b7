/** The longest delay Node's timers take; a longer one is turned into 1 ms, with a warning. */
const TIMEOUT_MAX = 2 ** 31 - 1;

/**
 * Keeps Node's list of timers of `ms` milliseconds alive: one idle, unref'd interval of that
 * duration, to be cleared when the caller is done. Node keeps one list per duration and drops it
 * when its last timer is cleared, and the SDK arms and clears one timeout of the call timeout per
 * request, so a caller making one call at a time paid a new list (its priority-queue insert and
 * removal, about a tenth of the client's own CPU per stdio call) on every call. Undefined for a
 * duration Node's timers do not take.
 */
export function keepTimerList(ms: number): NodeJS.Timeout | undefined {
  if (!Number.isInteger(ms) || ms < 1 || ms > TIMEOUT_MAX) return undefined;
  const keeper = setInterval(() => {}, ms);
  keeper.unref();
  return keeper;
}
