import { type QuotaKind, quotaRefusal } from './quota-refusal.js';

/**
 * Things held open at once (listen streams), at most `total` in all and `perPrincipal` for one
 * principal: one principal at its quota is refused and nobody else's is touched.
 */
export class PrincipalQuota {
  readonly #held = new Map<string, number>();
  #total = 0;
  readonly #limits: { total: number; perPrincipal: number };
  readonly #kind: { total: QuotaKind; perPrincipal: QuotaKind; what: string };

  constructor(
    limits: { total: number; perPrincipal: number },
    kind: { total: QuotaKind; perPrincipal: QuotaKind; what: string },
  ) {
    this.#limits = limits;
    this.#kind = kind;
  }

  /** Held now, in all or by `principal`. */
  held(principal?: string): number {
    return principal === undefined ? this.#total : (this.#held.get(principal) ?? 0);
  }

  /** Takes one for `principal`: its release (idempotent), or the refusal when a quota is full. */
  take(principal: string): (() => void) | Response {
    const mine = this.#held.get(principal) ?? 0;
    if (mine >= this.#limits.perPrincipal)
      return quotaRefusal(
        this.#kind.perPrincipal,
        `Too many ${this.#kind.what} open for this caller (at most ${this.#limits.perPrincipal}); close one or retry later`,
      );
    if (this.#total >= this.#limits.total)
      return quotaRefusal(this.#kind.total, `Too many ${this.#kind.what} open; retry later`);
    this.#held.set(principal, mine + 1);
    this.#total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total--;
      const left = (this.#held.get(principal) ?? 1) - 1;
      if (left <= 0) this.#held.delete(principal);
      else this.#held.set(principal, left);
    };
  }
}
