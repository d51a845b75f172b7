/** Receives one token: its text and whether it came from an ideographic/kana script. */
export type TokenVisitor = (text: string, cjk: boolean) => void;

/** A token and whether it came from an ideographic/kana script (those are never stemmed). */
export interface Token {
  text: string;
  cjk: boolean;
}

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+/u;
const SCRIPT_RUN = /\p{Script=Han}+|[\p{Script=Katakana}ー]+|\p{Script=Hiragana}+|\p{Script=Hangul}+/gu;

/**
 * Folds accents on Latin letters (`é` → `e`, `ß` stays) and compatibility forms (full-width
 * `Ａ` → `A`) while leaving kana voicing marks intact, so `ガ` stays `ガ`.
 */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu, '$1')
    .normalize('NFC');
}

/** Inserts boundaries inside identifiers: `getFileInfo` → `get File Info`, `HTTPServer2` → `HTTP Server 2`. */
function splitCase(text: string): string {
  return text
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})/gu, '$1 $2')
    .replace(/(\p{N})(\p{L})/gu, '$1 $2');
}

/**
 * Ideographic text has no spaces: Han runs become overlapping bigrams (a lone character
 * stays a unigram), katakana loanwords stay whole, hiragana runs are dropped because they
 * are mostly particles and verb endings.
 */
function cjkTokens(run: string, emit: TokenVisitor): void {
  for (const match of run.matchAll(SCRIPT_RUN)) {
    const part = match[0];
    const chars = [...part];
    if (/\p{Script=Hiragana}/u.test(chars[0]!)) continue;
    if (/\p{Script=Han}/u.test(chars[0]!)) {
      if (chars.length === 1) emit(part, true);
      for (let index = 0; index + 1 < chars.length; index++) {
        emit(chars[index]! + chars[index + 1]!, true);
      }
      continue;
    }
    emit(part, true);
  }
}

enum CharKind {
  Other = 0,
  Lower = 1,
  Upper = 2,
  Digit = 3,
}

function charKind(code: number): CharKind {
  if (code >= 97 && code <= 122) return CharKind.Lower;
  if (code >= 65 && code <= 90) return CharKind.Upper;
  if (code >= 48 && code <= 57) return CharKind.Digit;
  return CharKind.Other;
}

/**
 * One pass with the same boundaries as {@link splitCase}; a word holding any non-ASCII
 * character is handed whole to {@link unicodeTokens}, so one `é` or `—` in a long
 * description does not send all of it down the slow Unicode path.
 */
function scanTokens(text: string, emit: TokenVisitor): void {
  let start = -1;
  let previous = CharKind.Other;
  const flush = (end: number) => {
    if (start >= 0) emit(text.slice(start, end).toLowerCase(), false);
    start = -1;
  };
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 128) {
      const wordStart = start >= 0 ? start : index;
      let end = index + 1;
      while (end < text.length) {
        const next = text.charCodeAt(end);
        if (next < 128 && charKind(next) === CharKind.Other) break;
        end++;
      }
      start = -1;
      unicodeTokens(text.slice(wordStart, end), emit);
      index = end - 1;
      previous = CharKind.Other;
      continue;
    }
    const kind = charKind(code);
    if (kind === CharKind.Other) {
      flush(index);
    } else if (start < 0) {
      start = index;
    } else if (
      (kind === CharKind.Upper && previous === CharKind.Lower) ||
      (kind === CharKind.Digit) !== (previous === CharKind.Digit) ||
      (kind === CharKind.Lower && previous === CharKind.Upper && index - 1 > start)
    ) {
      // `HTTPServer`: the boundary falls before the last capital of a run.
      const cut = kind === CharKind.Lower && previous === CharKind.Upper ? index - 1 : index;
      flush(cut);
      start = cut;
    }
    previous = kind;
  }
  flush(text.length);
}

/**
 * Identifier-aware, Unicode-aware tokenization: splits snake_case, kebab-case, camelCase and
 * letter/digit boundaries, lowercases, folds accents, and cuts CJK text into bigrams.
 *
 * @example
 * tokenize('get_fileInfo2') // [{ text: 'get' }, { text: 'file' }, { text: 'info' }, { text: '2' }]
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  scanTokens(text, (token, cjk) => tokens.push({ text: token, cjk }));
  return tokens;
}

/** Calls `visit` with each token of `text` in order, as {@link tokenize} would list them, without allocating a list. */
export function forEachToken(text: string, visit: TokenVisitor): void {
  scanTokens(text, visit);
}

function unicodeTokens(text: string, emit: TokenVisitor): void {
  const words = splitCase(foldText(text)).match(/[\p{L}\p{N}\p{M}ー]+/gu) ?? [];
  for (const word of words) {
    if (!CJK_RUN.test(word)) {
      emit(word.toLowerCase(), false);
      continue;
    }
    // Mixed runs such as `Notion里搜索` keep their Latin part as a word.
    for (const piece of word.split(
      /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+)/u,
    )) {
      if (piece.length === 0) continue;
      if (CJK_RUN.test(piece)) cjkTokens(piece, emit);
      else emit(piece.toLowerCase(), false);
    }
  }
}
