import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';

/** Distinct schemas compiled by one engine before a fresh engine takes over (memory bound). */
const MAX_SCHEMAS = 1000;

/**
 * The output-schema validator every SDK `Client` mcptools opens is given, one per process.
 * Left to itself each `Client` makes its own ajv engine (about 60 KiB, and one more per JSON
 * Schema dialect) the first time it checks a tool result against an `outputSchema`, and
 * compiles every schema again each time its tool list is fetched again. Here one engine
 * serves every client, and a schema is compiled once for all servers and refetches that list
 * it with the same text.
 *
 * A schema with an `$id` anywhere in it is compiled by an engine of its own: in a shared
 * engine, ajv would hand back the first schema registered under that id to any later one with
 * the same id, or refuse it (two servers, or two versions of one server's tool, may declare
 * the same `$id` with different content). Past {@link MAX_SCHEMAS} distinct schemas a fresh engine takes over, so a server
 * that changes its schemas on every list cannot grow it without bound; validators already
 * handed out keep working.
 */
export class SharedOutputValidator implements jsonSchemaValidator {
  #engine = new AjvJsonSchemaValidator();
  readonly #compiled = new Map<string, JsonSchemaValidator<unknown>>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const text = JSON.stringify(schema);
    let validator = this.#compiled.get(text);
    if (validator === undefined) {
      if (this.#compiled.size >= MAX_SCHEMAS) {
        this.#compiled.clear();
        this.#engine = new AjvJsonSchemaValidator();
      }
      const engine = text.includes('"$id":') ? new AjvJsonSchemaValidator() : this.#engine;
      // A schema ajv cannot compile throws here, as the SDK's own validator does: the client
      // reports it for that tool alone.
      validator = engine.getValidator<unknown>(schema);
      this.#compiled.set(text, validator);
    }
    return validator as JsonSchemaValidator<T>;
  }

  /** How many distinct schemas are compiled (for tests). */
  get size(): number {
    return this.#compiled.size;
  }
}

/** The one instance every client of this process shares. */
export const sharedOutputValidator = new SharedOutputValidator();
