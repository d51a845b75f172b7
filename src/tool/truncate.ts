/** What a cut left and what it removed. */
export interface Truncation {
  text: string;
  truncated: boolean;
  /** Size of the original, in the unit the cut was made in (bytes or characters). */
  originalSize: number;
  /** Size kept, in the same unit. */
  shownSize: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Cuts `text` to at most `maxBytes` of UTF-8 on a character boundary: a multi-byte
 * sequence is never split ("Truncation respects UTF-8 char boundaries").
 */
export function truncateUtf8(text: string, maxBytes: number): Truncation {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) {
    return { text, truncated: false, originalSize: bytes.length, shownSize: bytes.length };
  }
  let end = Math.max(0, maxBytes);
  // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return {
    text: decoder.decode(bytes.subarray(0, end)),
    truncated: true,
    originalSize: bytes.length,
    shownSize: end,
  };
}

/**
 * Cuts `text` to at most `maxChars` UTF-16 code units without splitting a surrogate pair,
 * so the kept text is still valid Unicode.
 */
export function truncateChars(text: string, maxChars: number): Truncation {
  if (text.length <= maxChars) {
    return { text, truncated: false, originalSize: text.length, shownSize: text.length };
  }
  let end = Math.max(0, maxChars);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
  return { text: text.slice(0, end), truncated: true, originalSize: text.length, shownSize: end };
}
