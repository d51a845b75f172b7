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
function cjkTokens(run: string, out: Token[]): void {
  for (const match of run.matchAll(SCRIPT_RUN)) {
    const part = match[0];
    const chars = [...part];
    if (/\p{Script=Hiragana}/u.test(chars[0]!)) continue;
    if (/\p{Script=Han}/u.test(chars[0]!)) {
      if (chars.length === 1) out.push({ text: part, cjk: true });
      for (let index = 0; index + 1 < chars.length; index++) {
        out.push({ text: chars[index]! + chars[index + 1]!, cjk: true });
      }
      continue;
    }
    out.push({ text: part, cjk: true });
  }
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
  const words = splitCase(foldText(text)).match(/[\p{L}\p{N}\p{M}ー]+/gu) ?? [];
  for (const word of words) {
    if (!CJK_RUN.test(word)) {
      tokens.push({ text: word.toLowerCase(), cjk: false });
      continue;
    }
    // Mixed runs such as `Notion里搜索` keep their Latin part as a word.
    for (const piece of word.split(/([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+)/u)) {
      if (piece.length === 0) continue;
      if (CJK_RUN.test(piece)) cjkTokens(piece, tokens);
      else tokens.push({ text: piece.toLowerCase(), cjk: false });
    }
  }
  return tokens;
}
