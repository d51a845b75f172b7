import { readFile } from 'node:fs/promises';
import { configError } from './config-error.js';
import { MAX_CONFIG_DEPTH, parseJsonc } from './parse-jsonc.js';

/**
 * Reads and parses one configuration file: TOML for `.toml`, JSON with comments otherwise.
 * Errors name the file and, for syntax errors, the line and column, never the text.
 */
export async function readConfigFile(path: string, displayName = path): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'file not found'
        : code === 'EISDIR'
          ? 'is a directory'
          : `cannot be read (${code})`;
    throw configError({ file: displayName }, reason, { cause: error });
  }
  if (!path.endsWith('.toml')) return parseJsonc(text, displayName);
  // Only Codex configs are TOML: load the parser when one is read, not at import.
  const { parse: parseToml, TomlError } = await import('smol-toml');
  try {
    return parseToml(text, { maxDepth: MAX_CONFIG_DEPTH });
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // smol-toml appends a code block quoting the source; keep only its first line.
    const reason = (error.message.split('\n')[0] ?? 'syntax error').replace(/^Invalid TOML document: /, '');
    throw configError(
      { file: displayName },
      `invalid TOML at line ${error.line}, column ${error.column}: ${reason}`,
      {
        data: { line: error.line, column: error.column },
      },
    );
  }
}
