// Bundles the CLI's start-up path into one CommonJS file, dist/cli/main.cjs (the package's `bin`),
// after `tsc` has built dist/ (the goal: `mcptools --help`, `<command> --help` and
// `mcptools config` in ≤ 150 ms). One file instead of ~50 ES modules saves their resolution and
// reads, and CommonJS skips Node 20's ES module loader; commander's CommonJS is inlined.
//
// In the bundle: src/cli/main.ts, the command table, commander, and — initialised only when they
// run — the `config` command with the configuration reader, and the failure report. Every other
// command's action stays a dynamic import of its own ES module bundle (dist/cli-*-action.js, made
// by scripts/bundle-library.mjs), loaded only when that command runs, so one command never pays
// for another's dependencies.
// zod and smol-toml stay external (the configuration reader loads zod only for an unusual or
// invalid file, see src/config/quick-config-validator.ts).
//   node scripts/bundle-cli.mjs      (run by `npm run build`; BUNDLE_SIZES=1 lists the largest inputs)
import { readFileSync } from 'node:fs';
import { basename, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const srcCli = resolve(root, 'src/cli');
const outfile = resolve(root, 'dist/cli/main.cjs');

// Actions that are bundled rather than left to their tsc-built module: `config` must start fast.
const bundledActions = new Set([resolve(srcCli, 'commands/config-action.ts')]);

// `import.meta.url` becomes the bundle's own URL: right only where the directory does not matter
// (resolving a package). A module that needs its own location must stay out of the bundle.
// package-version.ts reads ../../package.json: the bundle sits in dist/cli/ beside its tsc build.
const importMetaAllowed = new Set([
  resolve(root, 'src/boxes/undici-folder.ts'),
  resolve(root, 'src/cli/demo/resolve-package-bin.ts'),
  resolve(root, 'src/cli/package-version.ts'),
]);

/** The command actions (`commands/<name>-action.ts`) stay external: `import('./commands/x-action.js')`. */
const externalActions = {
  name: 'external-actions',
  setup(context) {
    context.onResolve({ filter: /-action\.js$/ }, (args) => {
      if (args.kind !== 'dynamic-import' || !args.path.startsWith('.')) return undefined;
      const source = resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');
      if (!source.startsWith(srcCli + sep) || bundledActions.has(source)) return undefined;
      // scripts/bundle-library.mjs bundles each action as dist/cli-<name>-action.js; the bundle
      // sits in dist/cli/.
      const path = `../cli-${basename(source).replace(/\.ts$/, '.js')}`;
      return { path, external: true };
    });
  },
};

/** A promise version of a callback function of node:fs (which the bundle loads anyway). */
const viaFsCallback = (name) =>
  `(...args) => new Promise((resolve, reject) => require('node:fs').${name}(...args, (error, value) => (error ? reject(error) : resolve(value))))`;

/**
 * Built-in modules the bundle does not load up front, with the only functions its modules import
 * from them (checked below). commander requires node:child_process for executable subcommands
 * (mcptools has none), which pulls in net, dgram and more; node:module serves only the built-in
 * default's package lookup; node:fs/promises loads about ten internal modules (readline, watchers)
 * where the configuration reader needs `stat` and `readFile`.
 */
const lazyBuiltins = {
  'node:child_process': { spawn: "(...args) => require('node:child_process').spawn(...args)" },
  'node:module': { createRequire: "(...args) => require('node:module').createRequire(...args)" },
  'node:fs/promises': { stat: viaFsCallback('stat'), readFile: viaFsCallback('readFile') },
};
const lazyBuiltinsPlugin = {
  name: 'lazy-builtins',
  setup(context) {
    const filter = new RegExp(`^(${Object.keys(lazyBuiltins).join('|')})$`);
    context.onResolve({ filter }, (args) =>
      args.namespace === 'lazy-builtin' ? undefined : { path: args.path, namespace: 'lazy-builtin' },
    );
    context.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: Object.entries(lazyBuiltins[args.path])
        .map(([name, implementation]) => `exports.${name} = ${implementation};`)
        .join('\n'),
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
  define: { 'import.meta': '__importMeta' },
  // The directive first: a banner before esbuild's own "use strict" would turn strict mode off.
  // The URL is computed only if a module asks for it.
  banner: {
    js: `"use strict";const __importMeta={get url(){return require('node:url').pathToFileURL(__filename).href}};`,
  },
  plugins: [externalActions, lazyBuiltinsPlugin],
  metafile: true,
  logLevel: 'error',
});

const problems = [...result.warnings.map((warning) => warning.text)];
for (const input of Object.keys(result.metafile.inputs)) {
  const path = resolve(root, input);
  if (!path.startsWith(resolve(root, 'src') + sep)) continue;
  const source = readFileSync(path, 'utf8');
  if (source.includes('import.meta') && !importMetaAllowed.has(path))
    problems.push(`${input} uses import.meta, which the bundle cannot keep: leave it out of the bundle`);
  for (const [builtin, functions] of Object.entries(lazyBuiltins)) {
    for (const [, clause] of source.matchAll(new RegExp(`import\\s+([^;]*?)\\s+from\\s+'${builtin}'`, 'g'))) {
      if (clause.startsWith('type ')) continue;
      // `{ a, b as c, type T }`: the values a and b must be among the functions the shim has.
      const names = /^\{([^}]*)\}$/
        .exec(clause)?.[1]
        ?.split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '' && !name.startsWith('type '))
        .map((name) => name.split(/\s+as\s+/)[0]);
      if (!names || names.some((name) => !Object.hasOwn(functions, name)))
        problems.push(
          `${input} imports ${clause} from ${builtin}: add it to lazyBuiltins in scripts/bundle-cli.mjs`,
        );
    }
  }
}
if (Object.keys(result.metafile.inputs).some((input) => input.includes('node_modules/zod/')))
  problems.push('zod was bundled: it must stay external');
if (process.env.BUNDLE_SIZES)
  for (const [input, { bytesInOutput }] of Object.entries(
    result.metafile.outputs[relative(root, outfile)].inputs,
  )
    .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
    .slice(0, 25))
    console.log(bytesInOutput, input);
if (problems.length > 0) {
  console.error(`bundle-cli: ${problems.join('\nbundle-cli: ')}`);
  process.exit(1);
}
