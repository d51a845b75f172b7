import type { GuardsConfig } from '../config/guards-config.js';
import type { PoliciesConfig, ToolOverrideConfig } from '../config/policies-schema.js';
import type { SharedRateLimitStore } from '../pipeline/shared-rate-limits.js';
import type { ToolMiddleware } from '../pipeline/tool-call-hooks.js';
import { type ConfigPolicies, configPolicies } from './config-policies.js';
import { OverrideProblems } from './override-problems.js';

/** `policies.overrides`: per server, per original tool name. */
type Overrides = Readonly<Record<string, Readonly<Record<string, ToolOverrideConfig>>>>;

const NO_OVERRIDES: Overrides = Object.freeze({});

/**
 * The policies of a configuration's `policies` section as a hub receives them (what
 * `loadMcpServers` gives the hub it makes): the middlewares of {@link configPolicies}, the
 * overrides and the guards, replaced as a whole on a reload. What outlives a reload is kept
 * here: the cluster's rate-limit store and the overrides that could not be applied.
 */
export class ConfiguredPolicies {
  #section: PoliciesConfig | undefined;
  #current: ConfigPolicies;
  /** The cluster's token buckets, while a gateway in a cluster shares them. */
  #sharedRateLimits: SharedRateLimitStore | undefined;
  readonly #overrideProblems = new OverrideProblems();
  readonly #warnings = new Set<(message: string) => void>();
  readonly #now: (() => number) | undefined;

  constructor(section: PoliciesConfig | undefined, options: { now?: () => number } = {}) {
    this.#now = options.now;
    this.#section = section;
    this.#current = this.#build(section);
  }

  /** The middlewares to install in the registry's pipeline (none for an empty section). */
  get middlewares(): readonly ToolMiddleware[] {
    return this.#current.middlewares;
  }

  /** `policies.overrides`, per server and original tool name. */
  get overrides(): Overrides {
    return this.#section?.overrides ?? NO_OVERRIDES;
  }

  /** `policies.guards`, for what does not pass the tool pipeline (resource reads, prompt gets). */
  get guards(): GuardsConfig | undefined {
    return this.#section?.guards;
  }

  /**
   * Builds the policies of `section` in place of the current ones and returns the retired ones,
   * for the caller to close once their middlewares have left the pipeline (their audit log is
   * then flushed). The shared rate-limit store and the override problems stay.
   */
  replace(section: PoliciesConfig | undefined): { close(): Promise<void> } {
    const retired = this.#current;
    this.#current = this.#build(section);
    this.#section = section;
    return retired;
  }

  /**
   * Makes the rate limits cluster-wide through `store` (read at each call, so it survives a
   * {@link replace}); returns the function that makes them local again.
   */
  shareRateLimits(store: SharedRateLimitStore): () => void {
    this.#sharedRateLimits = store;
    return () => {
      if (this.#sharedRateLimits === store) this.#sharedRateLimits = undefined;
    };
  }

  /** Records why the override of `server`/`tool` could not be applied. */
  reportOverrideProblem(server: string, tool: string, message: string): void {
    this.#overrideProblems.report(server, tool, message);
  }

  /** Forgets the override problems of `server` (its tools are registered anew). */
  clearOverrideProblems(server: string): void {
    this.#overrideProblems.clear(server);
  }

  /** Why the `policies.overrides` entry of `server`/`tool` could not be applied, if it could not. */
  overrideProblem(server: string, tool: string): string | undefined {
    return this.#overrideProblems.of(server, tool);
  }

  /** Hands the policies' warnings to `warn` until the returned function is called. */
  onWarning(warn: (message: string) => void): () => void {
    this.#warnings.add(warn);
    return () => this.#warnings.delete(warn);
  }

  /** Flushes and closes the audit log of the current policies. */
  close(): Promise<void> {
    return this.#current.close();
  }

  #build(section: PoliciesConfig | undefined): ConfigPolicies {
    return configPolicies(section, {
      onError: (message) => {
        for (const warn of this.#warnings) warn(message);
      },
      sharedRateLimits: () => this.#sharedRateLimits,
      ...(this.#now ? { now: this.#now } : {}),
    });
  }
}
