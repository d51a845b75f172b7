import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

const detectors = [
  'secrets',
  'personalData',
  'injection',
  'hiddenCharacters',
  'terminalEscapes',
  'http',
] as const;

function perDetector<T extends z.ZodType>(action: T) {
  return z.strictObject(
    Object.fromEntries(detectors.map((name) => [name, action.optional()])) as Record<
      (typeof detectors)[number],
      z.ZodOptional<T>
    >,
  );
}

/** `policies.guards.http`: the detector asked over HTTP. */
const httpDetectorSchema = lazySchema(() =>
  z.strictObject({
    url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }),
    headers: z.record(z.string(), z.string()).optional(),
    timeoutMs: z.number().int().positive().max(600_000).optional(),
    maxBytes: z.number().int().positive().optional(),
    onFailure: z.enum(['closed', 'open']).optional(),
  }),
);

/** `policies.guards`: per detector, the action on tool results and on call arguments. */
export const guardsSchema = lazySchema(() =>
  z
    .strictObject({
      results: perDetector(z.enum(['annotate', 'redact', 'block', 'requireApproval'])).optional(),
      arguments: perDetector(z.enum(['redact', 'block', 'requireApproval'])).optional(),
      personalData: z
        .strictObject({
          // The phone parser (loaded with the first scan, not with the configuration) refuses a
          // code it has no numbering plan for.
          defaultRegion: z
            .string()
            .regex(/^[A-Z]{2}$/, {
              error: 'must be an ISO 3166-1 alpha-2 region code in upper case ("US", "GB")',
            })
            .optional(),
        })
        .optional(),
      http: httpDetectorSchema().optional(),
    })
    .superRefine((guards, context) => {
      for (const side of ['results', 'arguments'] as const)
        if (guards[side]?.http !== undefined && guards.http === undefined)
          context.addIssue({
            code: 'custom',
            path: [side, 'http'],
            message: 'names the http detector, but policies.guards.http (its url) is not configured',
          });
    }),
);
