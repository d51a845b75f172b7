import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dependencies, manifest, packageOf, ROOT, specifiersOf } from '../helpers/package-manifest.js';

/*
 * What `npm pack` ships imports nothing it does not ship or depend on. It runs `npm pack`, so it
 * belongs with the package tests (`npm run test:package`), not in `npm test`.
 */

describe('the packed files', () => {
  it('packs a dist/ whose modules import only packed files, dependencies and built-ins', () => {
    expect(existsSync(join(ROOT, 'dist/index.js')), 'run `npm run build` first').toBe(true);
    const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [pack] = JSON.parse(output) as [{ files: { path: string }[] }];
    const packed = new Set(pack.files.map((file) => file.path));
    for (const entry of [manifest.main, manifest.types, ...Object.values(manifest.bin)])
      expect(packed, entry).toContain(entry.replace(/^\.\//, ''));
    expect([...packed].filter((path) => path.startsWith('src/') || path.startsWith('test/'))).toEqual([]);
    const problems: string[] = [];
    for (const path of packed) {
      if (!/\.(c|m)?js$|\.d\.ts$/.test(path)) continue;
      for (const specifier of specifiersOf(join(ROOT, path))) {
        if (specifier.startsWith('.')) {
          const target = join(dirname(path), specifier);
          // A .d.ts names the module (`./x.js`) whose declarations sit beside it (`./x.d.ts`).
          const candidates = path.endsWith('.d.ts') ? [target, target.replace(/\.js$/, '.d.ts')] : [target];
          if (!candidates.some((candidate) => packed.has(candidate)))
            problems.push(`${path} imports ${specifier}, which is not packed`);
          continue;
        }
        const name = packageOf(specifier);
        if (name !== undefined && !dependencies.has(name))
          problems.push(`${path} imports ${specifier}, not a dependency`);
      }
    }
    expect(problems).toEqual([]);
  });
});
