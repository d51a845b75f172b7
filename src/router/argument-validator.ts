import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false, coerceTypes: false });

// Compiled once per schema object: the registry hands out the same `parameters` object on every call.
const cache = new WeakMap<object, ValidateFunction | null>();

function compile(schema: object): ValidateFunction | null {
  if (cache.has(schema)) return cache.get(schema) ?? null;
  let validate: ValidateFunction | null;
  try {
    // `$schema` may name a draft this Ajv instance does not load; the keywords used by tool schemas are shared.
    const { $schema: _ignored, $id: _id, ...body } = schema as Record<string, unknown>;
    validate = ajv.compile(body);
  } catch {
    // A schema Ajv cannot compile is left to the tool itself to enforce.
    validate = null;
  }
  cache.set(schema, validate);
  return validate;
}

function fieldOf(error: ErrorObject): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') {
    path.push(error.params.missingProperty);
  }
  if (error.keyword === 'additionalProperties' && typeof error.params.additionalProperty === 'string') {
    path.push(error.params.additionalProperty);
  }
  return path.length > 0 ? path.join('.') : '(arguments)';
}

/** Why arguments were rejected: the field at fault and a sentence naming it. */
export interface ArgumentProblem {
  field: string;
  message: string;
}

/**
 * Validates `args` against a tool's JSON Schema with Ajv. Returns `undefined` when they
 * pass (or when the schema cannot be compiled, leaving enforcement to the tool), else the
 * first problem with the field named, e.g. `field "text": must be string`.
 */
export function validateArguments(schema: object, args: unknown): ArgumentProblem | undefined {
  const validate = compile(schema);
  if (!validate || validate(args)) return undefined;
  const error = validate.errors?.[0];
  if (!error) return { field: '(arguments)', message: 'arguments do not match the schema' };
  const field = fieldOf(error);
  const reason =
    error.keyword === 'required'
      ? 'is required'
      : error.keyword === 'additionalProperties'
        ? 'is not allowed'
        : (error.message ?? 'is invalid');
  return { field, message: `field "${field}" ${reason}` };
}
