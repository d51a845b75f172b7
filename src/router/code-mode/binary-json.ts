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
/** A string with a code unit above 0xff is written as UTF-16 (QuickJS keeps the others as bytes). */
const WIDE = /[\u0100-\uffff]/;
const INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/;

/** A value that is not plain JSON (a class instance, a cycle, too deep), so it goes as JSON text. */
export class NotJsonError extends Error {}

class Writer {
  bytes = new Uint8Array(4096);
  length = 0;
  readonly atoms = new Map<string, number>();
  readonly atomList: string[] = [];
  readonly #float = new DataView(new ArrayBuffer(8));

  reserve(more: number): void {
    if (this.length + more <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + more) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  byte(value: number): void {
    this.reserve(1);
    this.bytes[this.length++] = value;
  }

  leb128(value: number): void {
    this.reserve(5);
    let rest = value >>> 0;
    while (rest >= 0x80) {
      this.bytes[this.length++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.bytes[this.length++] = rest;
  }

  string(text: string): void {
    if (WIDE.test(text)) {
      this.leb128((text.length << 1) | 1);
      this.reserve(text.length * 2);
      for (let index = 0; index < text.length; index++) {
        const unit = text.charCodeAt(index);
        this.bytes[this.length++] = unit & 0xff;
        this.bytes[this.length++] = unit >>> 8;
      }
      return;
    }
    this.leb128(text.length << 1);
    this.reserve(text.length);
    for (let index = 0; index < text.length; index++) this.bytes[this.length++] = text.charCodeAt(index);
  }

  atom(key: string): void {
    if (INDEX_KEY.test(key) && Number(key) <= MAX_INT_ATOM) {
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
    if (!Number.isFinite(value)) {
      this.byte(TAG_NULL);
      return;
    }
    if (Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff && !Object.is(value, -0)) {
      this.byte(TAG_INT32);
      this.leb128((value << 1) ^ (value >> 31));
      return;
    }
    this.byte(TAG_FLOAT64);
    this.reserve(8);
    this.#float.setFloat64(0, value, true);
    for (let index = 0; index < 8; index++) this.bytes[this.length++] = this.#float.getUint8(index);
  }

  value(value: unknown, depth: number): void {
    if (value === null) {
      this.byte(TAG_NULL);
      return;
    }
    if (typeof value === 'boolean') {
      this.byte(value ? TAG_TRUE : TAG_FALSE);
      return;
    }
    if (typeof value === 'number') {
      this.number(value);
      return;
    }
    if (typeof value === 'string') {
      this.byte(TAG_STRING);
      this.string(value);
      return;
    }
    if (typeof value !== 'object') throw new NotJsonError(`a ${typeof value} is not JSON`);
    if (depth >= MAX_DEPTH) throw new NotJsonError('nested too deeply');
    if (Array.isArray(value)) {
      this.byte(TAG_ARRAY);
      this.leb128(value.length);
      for (const item of value) {
        // As JSON.stringify writes them: what JSON has no value for is null in an array.
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') this.byte(TAG_NULL);
        else this.value(item, depth + 1);
      }
      return;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) throw new NotJsonError('not a plain object');
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).filter((key) => {
      const item = record[key];
      return item !== undefined && typeof item !== 'function' && typeof item !== 'symbol';
    });
    this.byte(TAG_OBJECT);
    this.leb128(keys.length);
    for (const key of keys) {
      this.atom(key);
      this.value(record[key], depth + 1);
    }
  }
}

/**
 * `value` (a JSON value) in QuickJS's binary object format, in a buffer of its own: the version, the table of property
 * names, then the value. Throws {@link NotJsonError} for anything `JSON.parse` could not have
 * made (a class instance such as a `Date`, a cycle, nesting deeper than 1,000).
 */
export function encodeBinaryJson(value: unknown): Uint8Array {
  const body = new Writer();
  if (value === undefined) throw new NotJsonError('undefined is not JSON');
  body.value(value, 0);
  const head = new Writer();
  head.byte(VERSION);
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
