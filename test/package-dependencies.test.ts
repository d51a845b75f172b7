import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * Dependencies chosen, not accumulated: what `src/` imports is exactly the package's
 * `dependencies`, and what `npm pack` ships imports nothing it does not ship or depend on.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  main: string;
  types: string;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const dependencies = new Set(Object.keys(manifest.dependencies));
const builtins = new Set(builtinModules);

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or `undefined` for a path or a built-in. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:'))
    return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
  return builtins.has(name) ? undefined : name;
}

/** Every module specifier of a file: static and type imports, re-exports, `import()` and `require()` (comments skipped). */
function specifiersOf(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map((entry) => entry.fileName);
}

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
