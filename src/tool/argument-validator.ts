import { type AjvError, createAjv, createAjv2020, type DraftAjv } from '../json/load-ajv.js';

/** One reason the arguments were refused. */
export interface ArgumentIssue {
  /** JSON pointer into the arguments (`/items/0/id`), `` for the root. */
  path: string;
  message: string;
  /** The field at fault as a dotted path (`items.0.id`), a missing or extra property included. */
  field: string;
  /** The JSON Schema keyword that failed (`type`, `required`, …). */
  keyword: string;
}

/** Checks one tool's arguments; `undefined` means they are valid. */
export type ArgumentCheck = (args: Record<string, unknown>) => ArgumentIssue[] | undefined;

/** A schema as an engine compiled it. */
type CompiledSchema = ReturnType<DraftAjv['compile']>;

const acceptAll: ArgumentCheck = () => undefined;

function fieldOf(error: AjvError): string {
  const parts = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const { missingProperty, additionalProperty } = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof missingProperty === 'string') parts.push(missingProperty);
  if (error.keyword === 'additionalProperties' && typeof additionalProperty === 'string')
    parts.push(additionalProperty);
  return parts.length > 0 ? parts.join('.') : '(arguments)';
}

function issuesOf(errors: readonly AjvError[] | null | undefined): ArgumentIssue[] {
  return (errors ?? []).map((error) => ({
    path: error.instancePath,
    message: error.message ?? 'is invalid',
    field: fieldOf(error),
    keyword: error.keyword,
  }));
}

/** Human form of the issues: `/count must be number; must have required property 'x'`. */
export function formatArgumentIssues(issues: ArgumentIssue[]): string {
  return issues
    .map((issue) => (issue.path === '' ? issue.message : `${issue.path} ${issue.message}`))
    .join('; ');
}

/** Distinct schemas one shared engine compiles before a fresh engine takes over (memory bound). */
const MAX_SCHEMAS_PER_ENGINE = 1000;

/** One ajv engine shared by every validator of the process, replaced once it holds {@link MAX_SCHEMAS_PER_ENGINE} schemas. */
class SharedEngine {
  #ajv: DraftAjv | undefined;
  #compiled = 0;

  constructor(private readonly create: () => DraftAjv) {}

  /** The engine to compile one more schema with: a fresh one when there is none or it is full. */
  next(): DraftAjv {
    if (this.#ajv === undefined || this.#compiled >= MAX_SCHEMAS_PER_ENGINE) {
      this.#ajv = this.create();
      this.#compiled = 0;
    }
    this.#compiled++;
    return this.#ajv;
  }
}

const engineOptions = { allErrors: true, strict: false, logger: false, addUsedSchema: false } as const;

/**
 * The ajv engines every {@link ArgumentValidator} of the process compiles with, one per dialect:
 * each engine loads its meta-schema and compiles it to check a schema (tens of milliseconds), which
 * a `call` from the CLI paid twice (its own usage check and the hub's) when each validator made its
 * own. Schemas are compiled with `addUsedSchema: false`: a top-level `$id` is not registered in the
 * engine, so two tools (or servers) declaring one `$id` with different content never meet, and a
 * schema's references to its own `$id` still resolve inside it. The engine keeps every schema it
 * compiled, so past {@link MAX_SCHEMAS_PER_ENGINE} a fresh one takes over; checks already made
 * keep working.
 */
const sharedEngines = {
  draft7: new SharedEngine(() => createAjv(engineOptions)),
  draft2020: new SharedEngine(() => createAjv2020(engineOptions)),
};

/**
 * Compiles tool input schemas into argument checks with ajv, once per distinct schema: a
 * draft 2020-12 schema (by `$schema`) goes to the 2020-12 engine, everything else to draft-07
 * (the process's shared engines, see {@link sharedEngines}).
 * A schema ajv cannot compile never blocks a call: its check accepts everything and
 * `onUncompilable` is told why.
 */
export class ArgumentValidator {
  readonly #cache = new Map<string, ArgumentCheck>();
  // Tools hand out the same schema object on every call: skip the JSON key on the hot path.
  readonly #byObject = new WeakMap<object, ArgumentCheck>();
  readonly #onUncompilable: ((reason: string) => void) | undefined;

  constructor(options: { onUncompilable?: (reason: string) => void } = {}) {
    this.#onUncompilable = options.onUncompilable;
  }

  /** The check for `schema`; compiled on first use and shared by every tool with the same schema. */
  checkFor(schema: Record<string, unknown>): ArgumentCheck {
    const known = this.#byObject.get(schema);
    if (known) return known;
    const key = JSON.stringify(schema);
    const check = this.#cache.get(key) ?? this.#compile(schema);
    this.#cache.set(key, check);
    this.#byObject.set(schema, check);
    return check;
  }

  #compile(schema: Record<string, unknown>): ArgumentCheck {
    let validate: CompiledSchema;
    try {
      validate = compileFor(schema);
    } catch (error) {
      // Unknown meta-schemas (draft-04 and older) are the usual cause: retry without `$schema`.
      try {
        const { $schema: _ignored, ...rest } = schema;
        validate = sharedEngines.draft7.next().compile(rest);
      } catch {
        this.#onUncompilable?.(error instanceof Error ? error.message : String(error));
        return acceptAll;
      }
    }
    return (args) => (validate(args) ? undefined : issuesOf(validate.errors));
  }
}

/** The check ajv compiles for `schema`, by the engine of its dialect (`$schema`). */
function compileFor(schema: Record<string, unknown>): CompiledSchema {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  const engine = dialect.includes('2020-12') ? sharedEngines.draft2020 : sharedEngines.draft7;
  return engine.next().compile(schema);
}

/** Why arguments were rejected: the field at fault and a sentence naming it. */
export interface ArgumentProblem {
  field: string;
  message: string;
}

let sharedValidator: ArgumentValidator | undefined;

/** Every reason `args` fail a tool's JSON Schema, with the shared validator (`undefined`: they pass). */
export function argumentIssues(schema: object, args: unknown): ArgumentIssue[] | undefined {
  sharedValidator ??= new ArgumentValidator();
  return sharedValidator.checkFor(schema as Record<string, unknown>)(args as Record<string, unknown>);
}

/** One issue as the problem callers report: the field, and a sentence naming it. */
export function argumentProblemOf(issue: ArgumentIssue): ArgumentProblem {
  const reason =
    issue.keyword === 'required'
      ? 'is required'
      : issue.keyword === 'additionalProperties'
        ? 'is not allowed'
        : issue.message;
  return { field: issue.field, message: `field "${issue.field}" ${reason}` };
}

/**
 * Validates `args` against a tool's JSON Schema with the shared validator. Returns
 * `undefined` when they pass (or the schema cannot be compiled, leaving enforcement to the
 * tool), else the first problem with the field named, e.g. `field "text" is required`.
 */
export function validateArguments(schema: object, args: unknown): ArgumentProblem | undefined {
  const issue = argumentIssues(schema, args)?.[0];
  return issue === undefined ? undefined : argumentProblemOf(issue);
}
