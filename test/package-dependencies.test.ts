import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dependencies, manifest, packageOf, ROOT, specifiersOf } from './helpers/package-manifest.js';

/*
 * Dependencies chosen, not accumulated: what `src/` imports is exactly the package's
 * `dependencies` (what `npm pack` ships is checked by test/package/packed-imports.test.ts).
 */

function filesUnder(directory: string, suffix: RegExp): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && suffix.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Each package imported by `files`, with one file that imports it. */
function packagesImportedBy(files: string[]): Map<string, string> {
  const packages = new Map<string, string>();
  for (const file of files)
    for (const specifier of specifiersOf(file)) {
      const name = packageOf(specifier);
      if (name !== undefined && !packages.has(name)) packages.set(name, relative(ROOT, file));
    }
  return packages;
}

describe('the package dependencies', () => {
  const imported = packagesImportedBy(filesUnder(join(ROOT, 'src'), /\.ts$/));

  it('lists every package src/ imports (at run time or for its types) in dependencies', () => {
    expect(imported.has('@modelcontextprotocol/client')).toBe(true);
    const missing = [...imported].filter(([name]) => !dependencies.has(name) && name !== manifest.name);
    expect(missing.map(([name, by]) => `${name} (imported by ${by})`)).toEqual([]);
  });

  it('has no dependency that src/ does not import (test fixtures and benchmarks use devDependencies)', () => {
    expect([...dependencies].filter((name) => !imported.has(name))).toEqual([]);
    // The fixture servers' and the bench echo server's HTTP adapter, and nothing of src/.
    expect(manifest.devDependencies['@modelcontextprotocol/node']).toBeDefined();
  });
});
