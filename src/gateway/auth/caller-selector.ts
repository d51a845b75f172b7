import type { CallerSelector } from '../../config/gateway-auth-types.js';
import type { Caller } from '../../tool/call-context.js';

/** Whether a claim's value is `expected`, or contains it (an array, or a space-separated string of scopes). */
function claimHolds(value: unknown, expected: string | number | boolean): boolean {
  if (Array.isArray(value)) return value.includes(expected);
  return value === expected;
}

/**
 * Whether `caller` is one `selector` names: every condition it lists holds (its principal is
 * listed, it has every scope, every claim equals or contains the value). An empty selector
 * matches every caller.
 */
export function matchesCaller(selector: CallerSelector, caller: Caller): boolean {
  if (selector.principals !== undefined && !selector.principals.includes(caller.principal)) return false;
  if (selector.scopes !== undefined) {
    const scopes = caller.scopes ?? [];
    if (!selector.scopes.every((scope) => scopes.includes(scope))) return false;
  }
  if (selector.claims !== undefined) {
    const claims = caller.claims ?? {};
    for (const [name, expected] of Object.entries(selector.claims))
      if (!claimHolds(claims[name], expected)) return false;
  }
  return true;
}
