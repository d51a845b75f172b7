import { McpToolsError } from '../../errors/mcp-tools-error.js';

/** Output formats of `call`, `read` and `resources`. */
export type OutputFormat = 'text' | 'compact';

/** Validates `--format`: `text` (default) or `compact`; anything else is a usage error. */
export function parseFormat(value: string | undefined): OutputFormat {
  if (value === undefined || value === 'text') return 'text';
  if (value === 'compact') return 'compact';
  throw new McpToolsError('INVALID_ARGUMENTS', `--format must be "text" or "compact", not "${value}"`);
}
