import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as SdkAjv from '@modelcontextprotocol/client/validators/ajv';

// Every engine is the ajv the MCP SDK bundles (with its ajv-formats): every process that opens a
// client loads that copy already, and the `ajv` package beside it cost about 60 ms of CPU to load
// and its memory again. It loads on first use: importing mcptools loads no part of the SDK.

const require = createRequire(import.meta.url);
const SDK_AJV = '@modelcontextprotocol/client/validators/ajv';
let sdk: typeof SdkAjv | undefined;

/**
 * The SDK's `validators/ajv` entry, loaded synchronously (ajv compiles synchronously): its ES
 * module, the very module a client's import loads, where Node requires ES modules (20.19 and
 * later); before that, its CommonJS build, a second copy only when a client is open too.
 */
function sdkAjv(): typeof SdkAjv {
  sdk ??= (process.features as { require_module?: boolean }).require_module
    ? (require(fileURLToPath(import.meta.resolve(SDK_AJV))) as typeof SdkAjv)
    : (require(SDK_AJV) as typeof SdkAjv);
  return sdk;
}

/** An ajv engine (the SDK's copy) of either dialect. */
export type DraftAjv = InstanceType<typeof SdkAjv.Ajv>;
/** The options of an ajv engine. */
export type AjvOptions = NonNullable<ConstructorParameters<typeof SdkAjv.Ajv>[0]>;
/** One error ajv reports for data or a schema. */
export type AjvError = NonNullable<DraftAjv['errors']>[number];

type AjvClass = new (options: AjvOptions) => DraftAjv;

const DRAFT_2020_META = 'https://json-schema.org/draft/2020-12/schema';
let draft2020: AjvClass | undefined;

/**
 * The SDK's 2020-12 class, which its entry does not export: the class of the engine its validator
 * builds for a schema without `$schema` (the `ajv` getter, documented there as that engine). The
 * class is checked to know the 2020-12 meta-schema: an SDK that stops handing it out throws here,
 * never hands back a draft-07 engine in its place (the argument checks then treat such schemas as
 * they treat any dialect they cannot compile, and the 2020-12 unit test fails).
 */
function draft2020Class(): AjvClass {
  if (draft2020) return draft2020;
  const engine = Reflect.get(new (sdkAjv().AjvJsonSchemaValidator)(), 'ajv') as Partial<DraftAjv> | undefined;
  // `schemas` holds the meta-schemas the engine was built with (looked up without compiling them).
  if (engine?.schemas?.[DRAFT_2020_META] === undefined)
    throw new Error('the MCP SDK no longer exposes its draft 2020-12 ajv engine');
  draft2020 = engine.constructor as AjvClass;
  return draft2020;
}

/** A draft-07 ajv, with ajv-formats unless `formats` is false. */
export function createAjv(options: AjvOptions, formats = true): DraftAjv {
  const { Ajv, addFormats } = sdkAjv();
  const ajv = new Ajv(options);
  if (formats) addFormats(ajv);
  return ajv;
}

/** A draft 2020-12 ajv with ajv-formats. */
export function createAjv2020(options: AjvOptions): DraftAjv {
  const ajv = new (draft2020Class())(options);
  sdkAjv().addFormats(ajv);
  return ajv;
}
