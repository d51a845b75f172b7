import { z } from 'zod';

const detectors = ['secrets', 'personalData', 'injection', 'hiddenCharacters', 'terminalEscapes'] as const;

function perDetector<T extends z.ZodType>(action: T) {
  return z.strictObject(
    Object.fromEntries(detectors.map((name) => [name, action.optional()])) as Record<
      (typeof detectors)[number],
      z.ZodOptional<T>
    >,
  );
}

/** `policies.guards`: per detector, the action on tool results and on call arguments. */
export const guardsSchema = z.strictObject({
  results: perDetector(z.enum(['annotate', 'redact', 'block', 'requireApproval'])).optional(),
  arguments: perDetector(z.enum(['redact', 'block', 'requireApproval'])).optional(),
});
