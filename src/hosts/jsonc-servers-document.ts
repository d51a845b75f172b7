import {
  applyEdits,
  type FormattingOptions,
  format,
  modify,
  type ParseError,
  parse,
  printParseErrorCode,
} from 'jsonc-parser';
import { configError } from '../config/config-error.js';
import { isPlainObject } from '../json/is-plain-object.js';
import type { ServersDocument } from './servers-document.js';

/**
 * A JSON (or JSON with comments) file whose server map sits at `serversPath`, edited through
 * `jsonc-parser`: each change is a text edit of that entry alone, formatted like the file's own
 * indentation, so comments and every other byte stay where they were.
 */
export function jsoncServersDocument(
  text: string | undefined,
  serversPath: readonly string[],
  file: string,
  hint = '',
): ServersDocument {
  let current = text === undefined || text.trim() === '' ? '' : text;
  const options = formattingOf(current);
  const read = (): Record<string, unknown> => {
    if (current === '') return {};
    const errors: ParseError[] = [];
    const value = parse(current, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length > 0) {
      const { offset, error } = errors[0]!;
      const before = current.slice(0, offset);
      const line = before.split('\n').length;
      const column = offset - before.lastIndexOf('\n');
      // The parser's code names the problem; the text itself is never quoted (it may hold a secret).
      throw configError(
        { file },
        `invalid JSON at line ${line}, column ${column}: ${printParseErrorCode(error)}${hint}`,
      );
    }
    if (!isPlainObject(value)) throw configError({ file }, 'must be a JSON object');
    let node: unknown = value;
    for (const [index, key] of serversPath.entries()) {
      node = (node as Record<string, unknown>)[key];
      if (node === undefined) return {};
      if (!isPlainObject(node))
        throw configError({ file, field: serversPath.slice(0, index + 1).join('.') }, 'must be an object');
    }
    return node as Record<string, unknown>;
  };
  read();
  const edit = (name: string, value: Record<string, unknown> | undefined) => {
    if (current === '') {
      if (value === undefined) return;
      const root: Record<string, unknown> = {};
      let node = root;
      for (const key of serversPath) node = node[key] = {} as Record<string, unknown>;
      node[name] = value;
      current = `${JSON.stringify(root, null, options.insertSpaces ? options.tabSize : '\t')}${options.eol}`;
      return;
    }
    // Unformatted edits, then only the inserted text formatted: siblings keep their own layout.
    const edits = modify(current, [...serversPath, name], value, {});
    current = applyEdits(current, edits);
    for (const { offset, content } of edits.slice().reverse())
      if (content.length > 0)
        current = applyEdits(current, format(current, { offset, length: content.length }, options));
  };
  return {
    servers: read,
    set: (name, entry) => edit(name, entry),
    remove: (name) => {
      if (Object.hasOwn(read(), name)) edit(name, undefined);
    },
    text: () => current,
  };
}

/** The file's own indentation and line ending (two spaces and `\n` for a new file). */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indented = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indented?.startsWith('\t')) return { tabSize: 1, insertSpaces: false, eol };
  return { tabSize: indented?.length ?? 2, insertSpaces: true, eol };
}
