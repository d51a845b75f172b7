import { configError } from './config-error.js';

/**
 * Parses JSON with comments and trailing commas (the JSONC that VS Code and Cursor write).
 * Syntax errors throw `CONFIG_INVALID` naming the file, line and column but never quoting the
 * text: unlike `JSON.parse` messages, which echo a snippet of the input that may hold a secret.
 */
export function parseJsonc(text: string, file: string): unknown {
  const parser = new JsoncParser(text, file);
  return parser.parseDocument();
}

/**
 * Deepest nesting of objects and arrays accepted. Real configurations stay under ten levels;
 * the bound keeps a hostile file from exhausting the stack here or in every later walk.
 */
export const MAX_CONFIG_DEPTH = 256;

const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const literals = { true: true, false: false, null: null } as const;

class JsoncParser {
  private offset = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {
    if (text.charCodeAt(0) === 0xfeff) this.offset = 1;
  }

  parseDocument(): unknown {
    this.skipTrivia();
    if (this.offset >= this.text.length) this.fail('the file is empty');
    const value = this.parseValue();
    this.skipTrivia();
    if (this.offset < this.text.length) this.fail('unexpected content after the end of the document');
    return value;
  }

  private parseValue(): unknown {
    const char = this.text[this.offset];
    if (char === '{' || char === '[') {
      if (++this.depth > MAX_CONFIG_DEPTH) this.fail(`nested deeper than ${MAX_CONFIG_DEPTH} levels`);
      const value = char === '{' ? this.parseObject() : this.parseArray();
      this.depth--;
      return value;
    }
    if (char === '"') return this.parseString();
    numberPattern.lastIndex = this.offset;
    const number = numberPattern.exec(this.text);
    if (number) {
      this.offset += number[0].length;
      return Number(number[0]);
    }
    for (const [word, value] of Object.entries(literals)) {
      if (this.text.startsWith(word, this.offset)) {
        this.offset += word.length;
        return value;
      }
    }
    return this.fail(char === undefined ? 'unexpected end of file' : 'expected a value');
  }

  private parseObject(): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.offset++;
    for (;;) {
      this.skipTrivia();
      if (this.text[this.offset] === '}') break;
      if (this.text[this.offset] !== '"') this.fail('expected a double-quoted property name or "}"');
      const key = this.parseString();
      this.skipTrivia();
      if (this.text[this.offset] !== ':') this.fail('expected ":" after a property name');
      this.offset++;
      this.skipTrivia();
      // defineProperty keeps a "__proto__" key an ordinary property, as JSON.parse does.
      Object.defineProperty(result, key, {
        value: this.parseValue(),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipTrivia();
      if (this.text[this.offset] === ',') {
        this.offset++;
        continue;
      }
      if (this.text[this.offset] !== '}') this.fail('expected "," or "}"');
    }
    this.offset++;
    return result;
  }

  private parseArray(): unknown[] {
    const result: unknown[] = [];
    this.offset++;
    for (;;) {
      this.skipTrivia();
      if (this.text[this.offset] === ']') break;
      result.push(this.parseValue());
      this.skipTrivia();
      if (this.text[this.offset] === ',') {
        this.offset++;
        continue;
      }
      if (this.text[this.offset] !== ']') this.fail('expected "," or "]"');
    }
    this.offset++;
    return result;
  }

  private parseString(): string {
    const start = this.offset;
    let index = start + 1;
    for (;;) {
      const code = this.text.charCodeAt(index);
      if (Number.isNaN(code)) this.fail('unterminated string', start);
      if (code === 0x22) break;
      if (code < 0x20) this.fail('control character in a string (write it as an escape such as \\n)', index);
      index += code === 0x5c ? 2 : 1;
    }
    this.offset = index + 1;
    try {
      return JSON.parse(this.text.slice(start, index + 1)) as string;
    } catch {
      return this.fail('invalid escape sequence in a string', start);
    }
  }

  private skipTrivia(): void {
    for (;;) {
      const char = this.text[this.offset];
      if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
        this.offset++;
      } else if (char === '/' && this.text[this.offset + 1] === '/') {
        const end = this.text.indexOf('\n', this.offset);
        this.offset = end === -1 ? this.text.length : end + 1;
      } else if (char === '/' && this.text[this.offset + 1] === '*') {
        const end = this.text.indexOf('*/', this.offset + 2);
        if (end === -1) this.fail('unterminated comment');
        this.offset = end + 2;
      } else {
        return;
      }
    }
  }

  private fail(message: string, offset = this.offset): never {
    const before = this.text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    throw configError({ file: this.file }, `invalid JSON at line ${line}, column ${column}: ${message}`, {
      data: { line, column, offset },
    });
  }
}
