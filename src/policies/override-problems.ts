/**
 * Why `policies.overrides` could not be applied to some tools, by server and tool: a field of
 * the policies a hub is given (`ConfiguredPolicies`), reported by the hub that applies them and
 * read by `policyWarnings` through the hub. Such a tool is not served.
 */
export class OverrideProblems {
  readonly #byTool = new Map<string, string>();

  /** Records why the override of `server`/`tool` could not be applied. */
  report(server: string, tool: string, message: string): void {
    this.#byTool.set(`${server}/${tool}`, message);
  }

  /** Forgets the problems of `server` (its tools are registered anew). */
  clear(server: string): void {
    for (const key of this.#byTool.keys()) if (key.startsWith(`${server}/`)) this.#byTool.delete(key);
  }

  /** The problem recorded for `server`/`tool`, if any. */
  of(server: string, tool: string): string | undefined {
    return this.#byTool.get(`${server}/${tool}`);
  }
}
