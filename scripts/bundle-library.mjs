// Bundles the library entries, dist/index.js and one dist/<name>.js per subpath of the package's
// `exports` (dist/gateway.js, dist/router.js, …), after `tsc` has built dist/
// (the goal: RSS after import + one connected server within 5 MiB of the SDK client's). Node 20
// keeps a record, the source text and a namespace per ES module: tsc's ~190 modules for an import
// and a stdio connect cost about 5 MiB more than the same code in a few files.
//
// Out: the entries and their chunks dist/index-<hash>.js (esbuild's code splitting: what the
// library loads with `import()` — the gateway, the HTTP transports, OAuth's redirect listener,
// the stdio transport — stays a separate file, loaded on first use as before). Packages stay
// external (node_modules, as before). tsc's .d.ts files and every other module of dist/ stay: the
// types, the CLI's command actions and `plugin-sdk/` are read from there.
//
// Modules that need their own location stay out of the bundle and are imported from their tsc
// build: `plugins/plugin-module-url.ts` (where `plugin-sdk/` is) and `router/search/thesaurus.ts`
// (reads the JSON beside it). They must import nothing of mcptools, or two copies of one module
// (and of its classes) would load. The chunks sit beside index.js, so one relative path to them
// holds from every chunk.
//   node scripts/bundle-library.mjs      (run by `npm run build`; BUNDLE_SIZES=1 lists the largest inputs)
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = resolve(root, 'src');
const outdir = resolve(root, 'dist');

/** Kept as imports of their tsc-built module: they locate files beside themselves. */
const externalModules = new Set([
  resolve(src, 'plugins/plugin-module-url.ts'),
  // Reads ../../package.json from dist/cli/, where the bundled binary sits too.
  resolve(src, 'cli/package-version.ts'),
  resolve(src, 'router/search/thesaurus.ts'),
]);
// `import.meta.url` becomes the chunk's URL: right only where the folder does not matter (code
// mode's QuickJS loader resolves its WebAssembly package from it, found the same from dist/ as
// from dist/router/code-mode/; so does a box's undici folder).
const importMetaAllowed = new Set([
  // Resolves the MCP SDK's `validators/ajv` ES module: found the same from dist/ as from dist/json/.
  resolve(src, 'json/load-ajv.ts'),
  resolve(src, 'boxes/undici-folder.ts'),
  resolve(src, 'router/code-mode/quickjs-module.ts'),
  // Resolves an installed package's binary: found the same from dist/ as from dist/cli/demo/.
  resolve(src, 'cli/demo/resolve-package-bin.ts'),
  // Resolves the OpenTelemetry API package: found the same from dist/ as from dist/telemetry/.
  resolve(src, 'telemetry/otel-api.ts'),
  ...externalModules,
]);

const externalOwnModules = {
  name: 'external-own-modules',
  setup(context) {
    context.onResolve({ filter: /^\./ }, (args) => {
      const source = resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');
      if (!externalModules.has(source)) return undefined;
      return {
        path: `./${relative(src, source).split(sep).join('/').replace(/\.ts$/, '.js')}`,
        external: true,
      };
    });
  },
};

// The chunks of an earlier build: their hashes change with the code, and the package ships dist/.
for (const file of readdirSync(outdir))
  if (/^index-[A-Z0-9]+\.js(?:\.map)?$/.test(file)) rmSync(resolve(outdir, file));

/** `index` for the root, else the subpath's name: `./gateway` → `gateway` (src/gateway.ts). */
const entryNames = Object.keys(JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')).exports)
  .filter((subpath) => subpath !== './package.json')
  .map((subpath) => (subpath === '.' ? 'index' : subpath.slice(2)));

/**
 * The CLI's command actions, which dist/cli/main.cjs imports when their command runs: entries
 * `dist/cli-<name>-action.js` beside the library's, so they share its chunks (one copy of each
 * module when a command loads both) and every relative path to a kept-out module holds. An
 * action as tsc's ~250 modules cost about a second of CPU per command on Node 20's ES module
 * loader, paid by every `call`, `serve` and `tools`.
 */
const actions = readdirSync(resolve(src, 'cli/commands')).filter((file) => file.endsWith('-action.ts'));

const result = await build({
  // The package root and its subpaths (package.json `exports`), and the CLI's command actions:
  // code they share goes to chunks.
  entryPoints: {
    ...Object.fromEntries(entryNames.map((name) => [name, resolve(src, `${name}.ts`)])),
    ...Object.fromEntries(
      actions.map((file) => [`cli-${file.replace(/\.ts$/, '')}`, resolve(src, 'cli/commands', file)]),
    ),
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'index-[hash]',
  sourcemap: true,
  legalComments: 'none',
  plugins: [externalOwnModules],
  metafile: true,
  logLevel: 'error',
});

const problems = [...result.warnings.map((warning) => warning.text)];
for (const input of Object.keys(result.metafile.inputs)) {
  const path = resolve(root, input);
  if (!path.startsWith(src + sep)) continue;
  if (readFileSync(path, 'utf8').includes('import.meta') && !importMetaAllowed.has(path))
    problems.push(`${input} uses import.meta, which the bundle cannot keep: add it to externalModules`);
}
for (const path of externalModules) {
  if (/^(?:import|export)\s[^;]*?from\s+'\./m.test(readFileSync(path, 'utf8')))
    problems.push(
      `${relative(root, path)} is kept out of the bundle, so it must not import modules of mcptools`,
    );
}
if (process.env.BUNDLE_SIZES)
  for (const [output, { bytes }] of Object.entries(result.metafile.outputs)) console.log(bytes, output);
if (problems.length > 0) {
  console.error(`bundle-library: ${problems.join('\nbundle-library: ')}`);
  process.exit(1);
}
