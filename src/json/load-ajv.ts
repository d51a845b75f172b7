import { createRequire } from 'node:module';
import type { Ajv, Options } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';

// ajv and its formats cost 1–3 MiB at import and the draft 2020-12 engine 1.5 MiB more; a
// process that never validates needs none of them. They are CommonJS, so they load
// synchronously on first use.
const require = createRequire(import.meta.url);

/** ajv-formats' plugin (CommonJS with a default export, so it may sit on `.default`). */
function addFormats(ajv: Ajv | Ajv2020): void {
  const plugin = require('ajv-formats') as { default?: (ajv: Ajv | Ajv2020) => void };
  ((plugin.default ?? plugin) as (ajv: Ajv | Ajv2020) => void)(ajv);
}

/** A draft-07 ajv, with `ajv-formats` unless `formats` is false; ajv is loaded on the first call. */
export function createAjv(options: Options, formats = true): Ajv {
  const { Ajv: Draft7 } = require('ajv') as typeof import('ajv');
  const ajv = new Draft7(options);
  if (formats) addFormats(ajv);
  return ajv;
}

/** A draft 2020-12 ajv with `ajv-formats`; its engine is loaded on the first call. */
export function createAjv2020(options: Options): Ajv2020 {
  const { Ajv2020: Draft2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new Draft2020(options);
  addFormats(ajv);
  return ajv;
}
