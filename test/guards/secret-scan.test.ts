import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { anchorsIn } from '../../src/guards/detector-anchors.js';
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
      const text = `token: ${secret} in some text`;
      const findings = await findSecrets(text, 'content[0].text', anchorsIn(text));
      expect(findings.map((finding) => finding.detector)).toContain('secret:GITHUB_TOKEN');
      // The control: ordinary text has none.
      const ordinary = 'an ordinary sentence with no secret in it at all';
      expect(await findSecrets(ordinary, 'x', anchorsIn(ordinary))).toEqual([]);
    }
    expect(marks().length).toBe(before);
    expect(before).toBe(0);
  });
});
