// Writes dist/ as `tsc -p tsconfig.build.json` lays it out — one ES module (and its source map)
// per file of src/, and the JSON files src/ imports — without the declarations and without type
// checking: each file is transpiled on its own by esbuild, in about a second where tsc's program
// takes about 30 s of CPU. `npm test` builds with it (its type-check runs beside the tests, and the
// declarations are checked with the packed package by `npm run test:package`); `npm run build`,
// which the package is packed from, stays with tsc.
//   node scripts/transpile-dist.mjs      (then scripts/bundle-cli.mjs and scripts/bundle-library.mjs)
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = resolve(root, 'src');
const outdir = resolve(root, 'dist');

const files = readdirSync(src, { recursive: true, encoding: 'utf8' });
await build({
  entryPoints: files
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(src, file)),
  outdir,
  outbase: src,
  bundle: false,
  format: 'esm',
  platform: 'node',
  // tsconfig.json's target: class fields and the rest are emitted as tsc emits them.
  target: 'es2022',
  sourcemap: true,
  logLevel: 'error',
});
for (const file of files.filter((name) => name.endsWith('.json'))) {
  mkdirSync(dirname(join(outdir, file)), { recursive: true });
  copyFileSync(join(src, file), join(outdir, file));
}
