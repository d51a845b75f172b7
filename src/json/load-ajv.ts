import { createRequire } from 'node:module';
import { Ajv, addFormats } from '@modelcontextprotocol/client/validators/ajv';
import type { Options } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';

// The draft-07 engine is the ajv the MCP SDK bundles (with its ajv-formats): every process that
// opens a client loads that copy already, and loading the `ajv` package beside it cost about
// 60 ms of CPU and its memory. The SDK does not export its 2020-12 class, so that engine alone
// still comes from the `ajv` package, loaded synchronously (CommonJS) on its first use: a process
// that never meets a 2020-12 schema never loads it.
const require = createRequire(import.meta.url);

/** A draft-07 ajv engine (the SDK's copy). */
export type DraftAjv = InstanceType<typeof Ajv>;
/** The options of a draft-07 ajv engine. */
export type AjvOptions = NonNullable<ConstructorParameters<typeof Ajv>[0]>;
/** One error ajv reports for data or a schema. */
export type AjvError = NonNullable<DraftAjv['errors']>[number];

/** A draft-07 ajv, with ajv-formats unless `formats` is false. */
export function createAjv(options: AjvOptions, formats = true): DraftAjv {
  const ajv = new Ajv(options);
  if (formats) addFormats(ajv);
  return ajv;
}

/**
 * A draft 2020-12 ajv with ajv-formats, from the `ajv` package (loaded on the first call). Its
 * formats come from the `ajv-formats` package: the SDK's plugin generates code with the SDK's
 * copy of ajv, which another copy's engine cannot run.
 */
export function createAjv2020(options: Options): Ajv2020 {
  const { Ajv2020: Draft2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new Draft2020(options);
  const plugin = require('ajv-formats') as { default?: (ajv: Ajv2020) => void };
  ((plugin.default ?? plugin) as (ajv: Ajv2020) => void)(ajv);
  return ajv;
}
