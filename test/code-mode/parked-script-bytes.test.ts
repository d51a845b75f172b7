import { describe, expect, it } from 'vitest';
import { ParkedScriptBytes } from '../../src/gateway/calls/parked-script-bytes.js';

describe('the bytes of parked scripts, per principal and in all', () => {
  it("counts a principal's parked scripts up to its quota, then refuses it alone", () => {
    const ledger = new ParkedScriptBytes({ total: 10_000, perPrincipal: 1_000 });
    const first = ledger.hold('mallory', 600);
    const second = ledger.hold('mallory', 600);
    expect(first).toBeTypeOf('function');
    // The script that reaches the quota is counted whole…
    expect(second).toBeTypeOf('function');
    expect(ledger.held('mallory')).toBe(1_200);
    // …and then the principal is at it: no new script, none parks.
    expect(ledger.refusal('mallory')?.kind).toBe('parked_script_bytes_per_principal');
    expect(ledger.hold('mallory', 1)).toBeUndefined();
    // Another principal is not touched.
    expect(ledger.refusal('bob')).toBeUndefined();
    expect(ledger.hold('bob', 900)).toBeTypeOf('function');
    // Control: a release frees the room (once, however often it is called).
    second!();
    second!();
    expect(ledger.held('mallory')).toBe(600);
    expect(ledger.held()).toBe(1_500);
    expect(ledger.refusal('mallory')).toBeUndefined();
    expect(ledger.hold('mallory', 100)).toBeTypeOf('function');
  });

  it('refuses everyone at the total', () => {
    const ledger = new ParkedScriptBytes({ total: 1_000, perPrincipal: 800 });
    const release = ledger.hold('mallory', 700)!;
    ledger.hold('bob', 400);
    expect(ledger.refusal('alice')?.kind).toBe('parked_script_bytes');
    expect(ledger.hold('alice', 1)).toBeUndefined();
    release();
    expect(ledger.hold('alice', 1)).toBeTypeOf('function');
  });
});
