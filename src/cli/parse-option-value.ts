import { InvalidArgumentError } from 'commander';

/**
 * The longest timer Node honours (2^31 − 1 ms, about 24.8 days); longer ones fire at once.
 * The same limit as `config/duration.ts`, which is not imported here because it loads zod,
 * and these parsers run for every `--help` (start-up ≤ 150 ms).
 */
const MAX_DURATION_MS = 2_147_483_647;

/**
 * Commander parser for a duration in milliseconds: accepts any JS number notation that is
 * a whole number (`1000`, `1e3`), rejects negatives, zero, fractions and anything above
 * {@link MAX_DURATION_MS} with a usage error (exit 2).
 */
export function durationOption(value: string): number {
  const trimmed = value.trim();
  const ms = trimmed === '' ? Number.NaN : Number(trimmed);
  if (!Number.isFinite(ms))
    throw new InvalidArgumentError('expected a number of milliseconds, e.g. 5000 or 5e3.');
  if (!Number.isInteger(ms)) throw new InvalidArgumentError('expected a whole number of milliseconds.');
  if (ms <= 0) throw new InvalidArgumentError('must be a positive number of milliseconds.');
  if (ms > MAX_DURATION_MS)
    throw new InvalidArgumentError(`must be at most ${MAX_DURATION_MS} ms (about 24.8 days).`);
  return ms;
}

/** Commander parser for a count or size: a positive whole number (`1e6` accepted). */
export function positiveIntegerOption(value: string): number {
  const trimmed = value.trim();
  const number = trimmed === '' ? Number.NaN : Number(trimmed);
  if (!Number.isSafeInteger(number) || number <= 0)
    throw new InvalidArgumentError('expected a positive whole number.');
  return number;
}
