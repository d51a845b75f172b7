import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { QuickJSSyncVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';

const VARIANT = '@jitl/quickjs-wasmfile-release-sync';

let make: Promise<() => Promise<QuickJSWASMModule>> | undefined;
let current: Promise<QuickJSWASMModule> | undefined;

/** Compiles the WebAssembly code once; each instance made from it has a memory of its own. */
function instanceMaker(): Promise<() => Promise<QuickJSWASMModule>> {
  make ??= (async () => {
    const [core, variant] = await Promise.all([
      import('quickjs-emscripten-core'),
      import('@jitl/quickjs-wasmfile-release-sync'),
    ]);
    // The package path only: the same from wherever this module is built or bundled.
    const bytes = await readFile(createRequire(import.meta.url).resolve(`${VARIANT}/wasm`));
    const wasm = await WebAssembly.compile(bytes);
    const base = (variant as unknown as { default: QuickJSSyncVariant }).default;
    const custom = core.newVariant(base, { wasmModule: wasm });
    return () => core.newQuickJSWASMModuleFromVariant(custom);
  })().catch((error: unknown) => {
    make = undefined;
    throw error;
  });
  return make;
}

/**
 * The QuickJS WebAssembly instance scripts run in (each script in a runtime of its own).
 * Everything is loaded with `import()` on the first script, so nothing of it is read until
 * then; a failed load is tried again by the next script.
 */
export function quickJsInstance(): Promise<QuickJSWASMModule> {
  current ??= instanceMaker()
    .then((next) => next())
    .catch((error: unknown) => {
      current = undefined;
      throw error;
    });
  return current;
}

/**
 * Takes `instance` out of use: a script stopped mid-flight may leave objects its runtime would
 * refuse to free, so that runtime is never freed and its instance (its memory with it) is
 * dropped once the scripts still running in it end; the next script gets a fresh one.
 */
export function retireQuickJsInstance(instance: QuickJSWASMModule): void {
  void current?.then((live) => {
    if (live === instance) current = undefined;
  });
}
