import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../src/guards/secret-scan.js';

// The secret detector screens every result a gateway serves: it must find the same secrets
// scan after scan, and leave nothing behind (the linter's profiler kept a mark of every rule
// of every scan, and scanned them all at the next one).
describe('the secret detector', () => {
  it('finds a secret in every scan and leaves no mark on the performance timeline', async () => {
    const secret = `ghp_${'A1b2C3d4E5'.repeat(3)}abcdef`;
    const marks = () => performance.getEntriesByType('mark').filter((mark) => mark.name.startsWith('@core>'));
    const before = marks().length;
    for (let round = 0; round < 5; round++) {
      const findings = await findSecrets(`token: ${secret} in some text`, 'content[0].text');
      expect(findings.map((finding) => finding.detector)).toContain('secret:GITHUB_TOKEN');
      // The control: ordinary text has none.
      expect(await findSecrets('an ordinary sentence with no secret in it at all', 'x')).toEqual([]);
    }
    expect(marks().length).toBe(before);
    expect(before).toBe(0);
  });
});
