import type { GuardsConfig } from '../config/guards-config.js';
import type { PoliciesConfig, ToolOverrideConfig } from '../config/policies-schema.js';
import type { SharedRateLimitStore } from '../pipeline/shared-rate-limits.js';
import type { ToolMiddleware } from '../pipeline/tool-call-hooks.js';

/**
 * The policies a hub is given when it is made (`ConfiguredPolicies` of `policies/` builds them
 * from the configuration's `policies` section): what the hub installs in its registry's
 * pipeline, applies when it registers a server's tools, and screens resource reads and prompt
 * gets with. The hub reads the fields at each use, so a {@link replace} applies from the next
 * call or registration on. The hub closes them when it closes.
 */
export interface HubPolicies {
  /** The middlewares the hub installs in its registry's pipeline (none for an empty section). */
  readonly middlewares: readonly ToolMiddleware[];
  /** `policies.overrides`, per server and original tool name, applied when a server's tools are registered. */
  readonly overrides: Readonly<Record<string, Readonly<Record<string, ToolOverrideConfig>>>>;
  /** `policies.guards`, read by the screen of resource reads and prompt gets. */
  readonly guards: GuardsConfig | undefined;
  /**
   * Builds the policies of `section` in place of the current ones and returns the ones it
   * retired: the hub installs the new middlewares, removes the old, then closes what this
   * returns (the old audit log is flushed). Shared rate limits and override problems stay.
   */
  replace(section: PoliciesConfig | undefined): { close(): Promise<void> };
  /**
   * Makes the rate limits cluster-wide through `store` (they survive a {@link replace});
   * returns the function that makes them local again.
   */
  shareRateLimits(store: SharedRateLimitStore): () => void;
  /** Records why the override of `server`/`tool` could not be applied (that tool is not served). */
  reportOverrideProblem(server: string, tool: string, message: string): void;
  /** Forgets the override problems of `server` (its tools are registered anew). */
  clearOverrideProblems(server: string): void;
  /** Why the `policies.overrides` entry of `server`/`tool` could not be applied, if it could not. */
  overrideProblem(server: string, tool: string): string | undefined;
  /**
   * Hands the policies' own warnings (a hook that failed, a shared store that did not answer,
   * an audit record not written) to `warn` until the returned function is called.
   */
  onWarning(warn: (message: string) => void): () => void;
  /** Flushes and closes the audit log of the current policies. */
  close(): Promise<void>;
}
