import { z } from 'zod';
import { httpServerSchema, mcpToolsFileSchema, stdioServerSchema } from './config-schema.js';

/**
 * A JSON Schema (draft 2020-12) of `mcptools.json`, generated from the same zod schema that
 * validates it, for editors (`"$schema"`) and `mcptools config schema`. The `type` of an entry
 * is optional, as in the file: `command` means stdio, `url` means HTTP.
 */
export function mcpToolsConfigJsonSchema(): Record<string, unknown> {
  const stdio = stdioServerSchema();
  const http = httpServerSchema();
  const entry = z.union([
    stdio.extend({ type: stdio.shape.type.optional() }),
    http.extend({ type: http.shape.type.optional() }),
  ]);
  const file = mcpToolsFileSchema().extend({ servers: z.record(z.string(), entry) });
  return { title: 'mcptools.json', ...z.toJSONSchema(file, { io: 'input', unrepresentable: 'any' }) };
}
