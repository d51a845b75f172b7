/** Which quota of parked scripts refused a new one (a label of the quota refusals metric). */
export type ParkedScriptQuota = 'parked_script_bytes' | 'parked_script_bytes_per_principal';

/**
 * The memory of code-mode scripts parked waiting for their callers' answers (an approval asked
 * of the client, as an elicitation or an `input_required` round): each holds its QuickJS
 * runtime until the answer comes, so the bytes it holds are counted against `perPrincipal` for
 * its caller and `total` for all. A principal at its quota gets no new script (see
 * {@link refusal}) and none of its scripts parks beyond it, while every other principal's
 * scripts go on.
 */
export class ParkedScriptBytes {
  readonly #held = new Map<string, number>();
  #total = 0;
  readonly #limits: { total: number; perPrincipal: number };

  constructor(limits: { total: number; perPrincipal: number }) {
    this.#limits = limits;
  }

  /** Bytes held by parked scripts, in all or of `principal`. */
  held(principal?: string): number {
    return principal === undefined ? this.#total : (this.#held.get(principal) ?? 0);
  }

  /**
   * Counts `bytes` for one script of `principal` while it is parked: its release (idempotent),
   * or `undefined` when the principal is at its quota or everyone at the total already (the
   * script is then not parked: its question is not asked). The script that reaches a quota is
   * counted whole, so a quota is passed by one script's bytes at most.
   */
  hold(principal: string, bytes: number): (() => void) | undefined {
    if (this.refusal(principal) !== undefined) return undefined;
    const mine = this.#held.get(principal) ?? 0;
    this.#held.set(principal, mine + bytes);
    this.#total += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total -= bytes;
      const left = (this.#held.get(principal) ?? bytes) - bytes;
      if (left <= 0) this.#held.delete(principal);
      else this.#held.set(principal, left);
    };
  }

  /**
   * Why a new script of `principal` is refused, when its parked scripts already hold its
   * quota (or all of them the total): the quota's name and the message a 429 carries.
   */
  refusal(principal: string): { kind: ParkedScriptQuota; message: string } | undefined {
    if ((this.#held.get(principal) ?? 0) >= this.#limits.perPrincipal)
      return {
        kind: 'parked_script_bytes_per_principal',
        message: `Too much memory held by this caller's scripts waiting for answers (at most ${this.#limits.perPrincipal} bytes); answer or cancel one, or retry later`,
      };
    if (this.#total >= this.#limits.total)
      return {
        kind: 'parked_script_bytes',
        message: 'Too much memory held by scripts waiting for answers; retry later',
      };
    return undefined;
  }
}
