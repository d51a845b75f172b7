import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

const mode = lazySchema(() => z.enum(['enforce', 'warn', 'off']));

/** `pins` in `mcptools.json`: the mode, the pin file, trust on first use, and per-server settings. */
export const pinsSchema = lazySchema(() =>
  z.strictObject({
    mode: mode().optional(),
    file: z.string().min(1, 'must not be empty').optional(),
    trustOnFirstUse: z.boolean().optional(),
    scan: z.enum(['warn', 'quarantine', 'off']).optional(),
    servers: z
      .record(
        z.string().min(1, 'must not be empty'),
        z.strictObject({
          mode: mode().optional(),
          ignore: z
            .array(
              z.enum([
                'title',
                'description',
                'inputSchema',
                'outputSchema',
                'annotations',
                '_meta',
                'arguments',
              ]),
            )
            .optional(),
          trustOnFirstUse: z.boolean().optional(),
        }),
      )
      .optional(),
  }),
);
