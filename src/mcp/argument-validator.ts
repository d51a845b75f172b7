import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** One reason the arguments were refused. */
export interface ArgumentIssue {
  /** JSON pointer into the arguments (`/items/0/id`), `` for the root. */
  path: string;
  message: string;
}

/** Checks one tool's arguments; `undefined` means they are valid. */
export type ArgumentCheck = (args: Record<string, unknown>) => ArgumentIssue[] | undefined;

const acceptAll: ArgumentCheck = () => undefined;

// ajv-formats is CommonJS with a default export; under NodeNext the plugin sits on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv | Ajv2020,
) => void;

function issuesOf(errors: ErrorObject[] | null | undefined): ArgumentIssue[] {
  return (errors ?? []).map((error) => ({
    path: error.instancePath,
    message: error.message ?? 'is invalid',
  }));
}

/** Human form of the issues: `/count must be number; must have required property 'x'`. */
export function formatArgumentIssues(issues: ArgumentIssue[]): string {
  return issues
    .map((issue) => (issue.path === '' ? issue.message : `${issue.path} ${issue.message}`))
    .join('; ');
}

/**
 * Compiles tool input schemas into argument checks with ajv, once per distinct schema: a
 * draft 2020-12 schema (by `$schema`) goes to `ajv/dist/2020`, everything else to draft-07.
 * A schema ajv cannot compile never blocks a call: its check accepts everything and
 * `onUncompilable` is told why.
 */
export class ArgumentValidator {
  #draft7: Ajv | undefined;
  #draft2020: Ajv2020 | undefined;
  readonly #cache = new Map<string, ArgumentCheck>();
  readonly #onUncompilable: ((reason: string) => void) | undefined;

  constructor(options: { onUncompilable?: (reason: string) => void } = {}) {
    this.#onUncompilable = options.onUncompilable;
  }

  /** The check for `schema`; compiled on first use and shared by every tool with the same schema. */
  checkFor(schema: Record<string, unknown>): ArgumentCheck {
    const key = JSON.stringify(schema);
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const check = this.#compile(schema);
    this.#cache.set(key, check);
    return check;
  }

  #compile(schema: Record<string, unknown>): ArgumentCheck {
    let validate: ValidateFunction;
    try {
      validate = this.#engineFor(schema).compile(schema);
    } catch (error) {
      // Unknown meta-schemas (draft-04 and older) are the usual cause: retry without `$schema`.
      try {
        const { $schema: _ignored, ...rest } = schema;
        validate = this.#draft7Engine().compile(rest);
      } catch {
        this.#onUncompilable?.(error instanceof Error ? error.message : String(error));
        return acceptAll;
      }
    }
    return (args) => (validate(args) ? undefined : issuesOf(validate.errors));
  }

  #engineFor(schema: Record<string, unknown>): Ajv | Ajv2020 {
    const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
    if (dialect.includes('2020-12')) {
      if (!this.#draft2020) {
        this.#draft2020 = new Ajv2020({ allErrors: true, strict: false, logger: false });
        addFormats(this.#draft2020);
      }
      return this.#draft2020;
    }
    return this.#draft7Engine();
  }

  #draft7Engine(): Ajv {
    if (!this.#draft7) {
      this.#draft7 = new Ajv({ allErrors: true, strict: false, logger: false });
      addFormats(this.#draft7);
    }
    return this.#draft7;
  }
}
