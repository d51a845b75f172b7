import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';

/** Distinct schemas compiled by one engine before a fresh engine takes over (memory bound). */
const MAX_SCHEMAS = 1000;

/**
 * The output-schema validator every SDK `Client` mcptools opens is given, one per process.
 * Left to itself each `Client` makes its own ajv engine (tens of KiB, and one more per JSON
 * Schema dialect) the first time it checks a tool result against an `outputSchema`, and
 * compiles every schema again each time its tool list is fetched again. Here one engine
 * serves every client, and a schema is compiled once for all servers and refetches that list
 * it with the same text.
 *
 * A schema whose `$id` the shared engine holds already (with other content: two servers, or
 * two versions of one server's tool, may declare the same `$id`) is compiled by an engine of
 * its own: the shared one would hand back the first schema under that id (nested ids stay
 * within the schema that declares them). Past {@link MAX_SCHEMAS} distinct schemas a
 * fresh engine takes over, so a server that changes its schemas on every list cannot grow it
 * without bound; validators already handed out keep working.
 */
export class SharedOutputValidator implements jsonSchemaValidator {
  #engine = new AjvJsonSchemaValidator();
  /** The top-level `$id`s the shared engine holds. */
  #ids = new Set<string>();
  readonly #compiled = new Map<string, JsonSchemaValidator<unknown>>();
  /**
   * The same by schema object: `callTool` asks on every call of a tool whose definition it is
   * handed (see mcp-tool-adapter.ts), and a listed schema is one object for its tool's life.
   */
  readonly #bySchema = new WeakMap<JsonSchemaType, JsonSchemaValidator<unknown>>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let validator = this.#bySchema.get(schema);
    if (validator === undefined) {
      const text = JSON.stringify(schema);
      validator = this.#compiled.get(text);
      if (validator === undefined) {
        if (this.#compiled.size >= MAX_SCHEMAS) {
          this.#compiled.clear();
          this.#engine = new AjvJsonSchemaValidator();
          this.#ids = new Set();
        }
        validator = this.#compile(schema);
        this.#compiled.set(text, validator);
      }
      this.#bySchema.set(schema, validator);
    }
    return validator as JsonSchemaValidator<T>;
  }

  /**
   * In the shared engine when its `$id` is free there, else in an engine of its own. A schema
   * ajv cannot compile throws, as with the SDK's own validator: the client reports it for that
   * tool alone.
   */
  #compile(schema: JsonSchemaType): JsonSchemaValidator<unknown> {
    const id = typeof schema.$id === 'string' ? schema.$id : undefined;
    if (id !== undefined && this.#ids.has(id))
      return new AjvJsonSchemaValidator().getValidator<unknown>(schema);
    const validator = this.#engine.getValidator<unknown>(schema);
    if (id !== undefined) this.#ids.add(id);
    return validator;
  }

  /** How many distinct schemas are compiled (for tests). */
  get size(): number {
    return this.#compiled.size;
  }
}

/** The one instance every client of this process shares. */
export const sharedOutputValidator = new SharedOutputValidator();
