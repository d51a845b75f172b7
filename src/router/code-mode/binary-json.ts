/**
 * QuickJS's binary object format (what its `JS_WriteObject` writes and `JS_ReadObject` reads,
 * without bytecode), written by the host for JSON values: reading it inside the sandbox is
 * several times cheaper than `JSON.parse` of the same value's text there, which is most of
 * what an inner call's result costs a script. Only JSON values are written (what
 * `JSON.stringify` would keep, in the order it would keep them); anything else is refused with
 * {@link NotJsonError}, and the caller sends JSON text instead. The format belongs to the
 * QuickJS build: {@link binaryJsonMatches} checks it against the sandbox's own writer before
 * it is used.
 */

const VERSION = 5;
const TAG_NULL = 1;
const TAG_FALSE = 3;
const TAG_TRUE = 4;
const TAG_INT32 = 5;
const TAG_FLOAT64 = 6;
const TAG_STRING = 7;
const TAG_OBJECT = 8;
const TAG_ARRAY = 9;
/** The highest property key QuickJS keeps as an integer atom instead of a string. */
const MAX_INT_ATOM = 2 ** 31 - 2;
/** Nesting beyond this is refused (JSON text is sent instead, and meets its own limits). */
const MAX_DEPTH = 1_000;
/** A writer's buffer at first, and the most it keeps between answers. */
const START_BYTES = 64 * 1024;
const KEPT_BYTES = 1024 * 1024;
const INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/;
const DIGIT_0 = 48;
const DIGIT_9 = 57;

/** A value that is not plain JSON (a class instance, a cycle, too deep), so it goes as JSON text. */
export class NotJsonError extends Error {}

/**
 * The body of one answer, written into a buffer kept between answers (grown, never shrunk
 * below its start size), with the property names it uses in the order of first use. Each
 * write makes room once for its worst case, so the per-byte loops check nothing.
 */
class Writer {
  bytes = new Uint8Array(START_BYTES);
  length = 0;
  readonly atoms = new Map<string, number>();
  readonly atomList: string[] = [];
  readonly #float = new DataView(new ArrayBuffer(8));

  reset(): void {
    // A large answer's room is given back rather than kept for the process's life.
    if (this.bytes.length > KEPT_BYTES) this.bytes = new Uint8Array(START_BYTES);
    this.length = 0;
    this.atoms.clear();
    this.atomList.length = 0;
  }

  reserve(more: number): void {
    if (this.length + more <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + more) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** An unsigned LEB128 number; room for it (5 bytes) must have been made. */
  leb128(value: number): void {
    const bytes = this.bytes;
    let rest = value >>> 0;
    while (rest >= 0x80) {
      bytes[this.length++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    bytes[this.length++] = rest;
  }

  /**
   * A string as QuickJS keeps it: one byte a code unit when every unit is below 0x100 (found
   * while copying, so most strings are read once), else two, low byte first.
   */
  string(text: string): void {
    const units = text.length;
    this.reserve(5 + units * 2);
    const bytes = this.bytes;
    const start = this.length;
    this.leb128(units << 1);
    let at = this.length;
    for (let index = 0; index < units; index++) {
      const unit = text.charCodeAt(index);
      if (unit > 0xff) {
        this.length = start;
        this.wideString(text);
        return;
      }
      bytes[at++] = unit;
    }
    this.length = at;
  }

  wideString(text: string): void {
    const units = text.length;
    this.leb128((units << 1) | 1);
    const bytes = this.bytes;
    let at = this.length;
    for (let index = 0; index < units; index++) {
      const unit = text.charCodeAt(index);
      bytes[at++] = unit & 0xff;
      bytes[at++] = unit >>> 8;
    }
    this.length = at;
  }

  /** A property name: an integer atom for an array-index key, else its entry in the table. */
  atom(key: string): void {
    this.reserve(5);
    const first = key.charCodeAt(0);
    if (first >= DIGIT_0 && first <= DIGIT_9 && INDEX_KEY.test(key) && Number(key) <= MAX_INT_ATOM) {
      this.leb128((Number(key) << 1) | 1);
      return;
    }
    let index = this.atoms.get(key);
    if (index === undefined) {
      index = this.atomList.length;
      this.atoms.set(key, index);
      this.atomList.push(key);
    }
    // Table entries are numbered from 1 (0 is no atom), shifted left: the low bit marks integers.
    this.leb128((index + 1) << 1);
  }

  number(value: number): void {
    this.reserve(9);
    const bytes = this.bytes;
    if ((value | 0) === value && !Object.is(value, -0)) {
      bytes[this.length++] = TAG_INT32;
      this.leb128((value << 1) ^ (value >> 31));
      return;
    }
    if (!Number.isFinite(value)) {
      bytes[this.length++] = TAG_NULL;
      return;
    }
    bytes[this.length++] = TAG_FLOAT64;
    this.#float.setFloat64(0, value, true);
    for (let index = 0; index < 8; index++) bytes[this.length++] = this.#float.getUint8(index);
  }

  value(value: unknown, depth: number): void {
    switch (typeof value) {
      case 'string':
        this.reserve(1);
        this.bytes[this.length++] = TAG_STRING;
        this.string(value);
        return;
      case 'number':
        this.number(value);
        return;
      case 'boolean':
        this.reserve(1);
        this.bytes[this.length++] = value ? TAG_TRUE : TAG_FALSE;
        return;
      case 'object':
        break;
      default:
        throw new NotJsonError(`a ${typeof value} is not JSON`);
    }
    if (value === null) {
      this.reserve(1);
      this.bytes[this.length++] = TAG_NULL;
      return;
    }
    if (depth >= MAX_DEPTH) throw new NotJsonError('nested too deeply');
    if (Array.isArray(value)) {
      this.reserve(6);
      this.bytes[this.length++] = TAG_ARRAY;
      this.leb128(value.length);
      for (const item of value) {
        // As JSON.stringify writes them: what JSON has no value for is null in an array.
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') {
          this.reserve(1);
          this.bytes[this.length++] = TAG_NULL;
        } else this.value(item, depth + 1);
      }
      return;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) throw new NotJsonError('not a plain object');
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    // As JSON.stringify writes them: a property JSON has no value for is left out.
    let count = 0;
    for (const key of keys) if (isWritten(record[key])) count++;
    this.reserve(6);
    this.bytes[this.length++] = TAG_OBJECT;
    this.leb128(count);
    for (const key of keys) {
      const item = record[key];
      if (!isWritten(item)) continue;
      this.atom(key);
      this.value(item, depth + 1);
    }
  }
}

/** Whether JSON.stringify keeps a property holding `item`. */
function isWritten(item: unknown): boolean {
  return item !== undefined && typeof item !== 'function' && typeof item !== 'symbol';
}

/** The body's writer, kept between answers (one answer is written at a time, synchronously). */
const body = new Writer();
/** The head's (version and property names). */
const head = new Writer();

/**
 * `value` (a JSON value) in QuickJS's binary object format, in a buffer of its own: the version, the table of property
 * names, then the value. Throws {@link NotJsonError} for anything `JSON.parse` could not have
 * made (a class instance such as a `Date`, a cycle, nesting deeper than 1,000).
 */
export function encodeBinaryJson(value: unknown): Uint8Array {
  if (value === undefined) throw new NotJsonError('undefined is not JSON');
  body.reset();
  head.reset();
  body.value(value, 0);
  head.reserve(6);
  head.bytes[head.length++] = VERSION;
  head.leb128(body.atomList.length);
  for (const atom of body.atomList) head.string(atom);
  const out = new Uint8Array(head.length + body.length);
  out.set(head.bytes.subarray(0, head.length));
  out.set(body.bytes.subarray(0, body.length), head.length);
  return out;
}

/**
 * JSON text with every kind of value and key this writer produces, for
 * {@link binaryJsonMatches} (its integer key first, where both engines list it).
 */
export const BINARY_JSON_PROBE =
  '{"10":{"b":"ab","a":[],"c":{}},"a":[1,-300,2147483647,2147483648,1.5,-1e300,null,true,false],"é€":"x€","__proto__":"p","":[[],"\\u0000"]}';

/**
 * Whether the sandbox's QuickJS wrote {@link BINARY_JSON_PROBE} (parsed there) as `written`,
 * exactly as {@link encodeBinaryJson} writes it: only then is the format used, so a QuickJS
 * build with another format gets JSON text instead.
 */
export function binaryJsonMatches(written: Uint8Array): boolean {
  const mine = encodeBinaryJson(JSON.parse(BINARY_JSON_PROBE));
  return mine.length === written.length && mine.every((byte, index) => byte === written[index]);
}
