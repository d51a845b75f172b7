// Bundles the CLI's start-up path into one CommonJS file, dist/cli/main.cjs (the package's `bin`),
// after `tsc` has built dist/ (issue 11: `mcptools --help`, `<command> --help` and
// `mcptools config` in ≤ 150 ms). One file instead of ~50 ES modules saves their resolution and
// reads, and CommonJS skips Node 20's ES module loader; commander's CommonJS is inlined.
//
// In the bundle: src/cli/main.ts, the command table, commander, and — initialised only when they
// run — the `config` command with the configuration reader, and the failure report. Every other
// command's action stays a dynamic import of its tsc-built module (dist/cli/commands/*-action.js),
// loaded only when that command runs, so one command never pays for another's dependencies.
// zod and smol-toml stay external (the configuration reader loads zod only for an unusual or
// invalid file, see src/config/quick-config-validator.ts).
//   node scripts/bundle-cli.mjs      (run by `npm run build`)
import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const srcCli = resolve(root, 'src/cli');
const outfile = resolve(root, 'dist/cli/main.cjs');

// Actions that are bundled rather than left to their tsc-built module: `config` must start fast.
const bundledActions = new Set([resolve(srcCli, 'commands/config-action.ts')]);

// `import.meta.url` becomes the bundle's own URL: right only where the directory does not matter
// (resolving a package). A module that needs its own location must stay out of the bundle.
const importMetaAllowed = new Set([resolve(root, 'src/cli/demo/resolve-package-bin.ts')]);

/** The command actions (`commands/<name>-action.ts`) stay external: `import('./commands/x-action.js')`. */
const externalActions = {
  name: 'external-actions',
  setup(context) {
    context.onResolve({ filter: /-action\.js$/ }, (args) => {
      if (args.kind !== 'dynamic-import' || !args.path.startsWith('.')) return undefined;
      const source = resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');
      if (!source.startsWith(srcCli + sep) || bundledActions.has(source)) return undefined;
      // The bundle sits in dist/cli/, where src/cli/ is built: the same relative path from there.
      const path = `./${relative(srcCli, source).split(sep).join('/').replace(/\.ts$/, '.js')}`;
      return { path, external: true };
    });
  },
};

/**
 * commander requires node:child_process at load (for executable subcommands, which mcptools has
 * none of); loading it pulls in net, dgram and more. Here it is required on first use instead.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(context) {
    context.onResolve({ filter: /^node:child_process$/ }, (args) =>
      args.importer.includes(`${sep}node_modules${sep}commander${sep}`)
        ? { path: 'child_process', namespace: 'lazy-child-process' }
        : undefined,
    );
    context.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
      loader: 'js',
    }));
  },
};

const result = await build({
  entryPoints: [resolve(srcCli, 'main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Smaller to read and parse; names are kept for readable errors.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  legalComments: 'none',
  external: ['zod', 'smol-toml'],
  define: { 'import.meta.url': '__bundleUrl' },
  // The directive first: a banner before esbuild's own "use strict" would turn strict mode off.
  banner: { js: `"use strict";const __bundleUrl=require('node:url').pathToFileURL(__filename).href;` },
  plugins: [externalActions, lazyChildProcess],
  metafile: true,
  logLevel: 'error',
});

const problems = [...result.warnings.map((warning) => warning.text)];
for (const input of Object.keys(result.metafile.inputs)) {
  const path = resolve(root, input);
  if (!path.startsWith(resolve(root, 'src') + sep)) continue;
  if (readFileSync(path, 'utf8').includes('import.meta') && !importMetaAllowed.has(path))
    problems.push(`${input} uses import.meta, which the bundle cannot keep: leave it out of the bundle`);
}
if (Object.keys(result.metafile.inputs).some((input) => input.includes('node_modules/zod/')))
  problems.push('zod was bundled: it must stay external');
if (problems.length > 0) {
  console.error(`bundle-cli: ${problems.join('\nbundle-cli: ')}`);
  process.exit(1);
}
