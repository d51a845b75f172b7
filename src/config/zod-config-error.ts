import type { z } from 'zod';
import type { McpToolsError } from '../errors/mcp-tools-error.js';
import { closestKey } from './closest-key.js';
import { type ConfigIssue, configError } from './config-error.js';
import { displayFieldName } from './display-field-name.js';

/** Options of {@link zodConfigError}. */
export interface ZodConfigErrorOptions {
  file: string;
  server?: string;
  /** Path of the validated value inside the file, prepended to every issue path. */
  basePath?: (string | number)[];
  /** Maps our field names to the ones the user wrote (`url` → `serverUrl` for Windsurf). */
  fieldNames?: Readonly<Record<string, string>>;
  /** Keys valid at the top of the validated object, for "did you mean" hints. */
  knownKeys?: readonly string[];
}

/**
 * Turns a zod validation failure into `CONFIG_INVALID`. The message names the first problem's
 * field (and how many more there are); zod messages carry no input values, and inputs are never
 * copied into `data.issues`, so secrets stay out.
 */
export function zodConfigError(error: z.ZodError, options: ZodConfigErrorOptions): McpToolsError {
  // Unknown keys first: a typo (`servres`) is usually why a required key looks missing.
  const problems = [
    ...error.issues.filter((issue) => issue.code === 'unrecognized_keys'),
    ...error.issues.filter((issue) => issue.code !== 'unrecognized_keys'),
  ].flatMap((issue) => describeIssue(issue, options));
  const first = problems[0] ?? { path: [], message: 'Invalid configuration' };
  const more =
    problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
  const issues: ConfigIssue[] = problems.map((problem) => ({
    path: [...(options.basePath ?? []), ...problem.path],
    message: problem.message,
  }));
  return configError(
    { file: options.file, server: options.server, field: displayFieldName(first.path, options.fieldNames) },
    `${first.message}${more}`,
    { issues },
  );
}

function describeIssue(issue: z.core.$ZodIssue, options: ZodConfigErrorOptions): ConfigIssue[] {
  const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => {
      const hint = path.length === 0 && options.knownKeys ? closestKey(key, options.knownKeys) : undefined;
      return { path: [...path, key], message: `unknown field${hint ? ` (did you mean "${hint}"?)` : ''}` };
    });
  }
  if (issue.code === 'invalid_key' && issue.issues[0] !== undefined) {
    return [{ path, message: issue.issues[0].message }];
  }
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) {
    const expected = issue.message.replace(/^Invalid input: /, '').replace(/, received undefined$/, '');
    return [{ path, message: `is required (${expected.replace(/expected record\b/, 'expected object')})` }];
  }
  return [{ path, message: issue.message.replace(/expected record\b/, 'expected object') }];
}
