/**
 * A request mixes what to do with what to do it on: "Read config.json", "Move issues to
 * 'Sprint 5'", "What do you remember about Project Falcon?". The second kind of words are
 * argument values. They say little about which tool to use, and when one happens to be a
 * word that tools use (`config`, `project`, `sprint`) it pulls the wrong tools up. This
 * splits a query into its intent and its argument values, and names the kind of thing a
 * value's shape implies (`config.json` is a file, `#deploys` a channel).
 */

/** A query split by {@link splitArgumentValues}. */
export interface QueryParts {
  /** The query with each argument value replaced by a space. */
  intent: string;
  /** The argument values, as written. */
  values: string[];
  /** Words the values' shapes imply: `file`, `website`, `email`, `channel`, `user`. */
  implied: string[];
}

const TOP_LEVEL_DOMAINS = new Set(
  'com org net io dev ai co app edu gov info biz me us uk de fr jp cn ru in eu ly gg tv sh so xyz'.split(' '),
);

/** One shape of argument value, the word it implies, and the look-alikes that are no value. */
interface ValueShape {
  pattern: RegExp;
  implies(match: string): string | undefined;
  isNotValue?(match: string): boolean;
}

const NOT_AFTER_WORD = '(?<![\\p{L}\\p{N}@./#-])';
const NOT_BEFORE_WORD = '(?![\\p{L}\\p{N}])';
const shape = (
  source: string,
  implies: ValueShape['implies'],
  isNotValue?: ValueShape['isNotValue'],
): ValueShape => ({
  pattern: new RegExp(`${NOT_AFTER_WORD}(?:${source})${NOT_BEFORE_WORD}`, 'gu'),
  implies,
  isNotValue,
});

/** Text in quotes: 'Sprint 4', "book venue", “…”, 「…」; never an apostrophe (`reviewers' comments`). */
const QUOTED_SHAPE = shape(
  '\'[^\'\\n]{1,80}\'|"[^"\\n]{1,80}"|‘[^’\\n]{1,80}’|“[^”\\n]{1,80}”|「[^」\\n]{1,80}」',
  () => undefined,
);

// Longest shapes first: an e-mail address holds a domain, a URL a path.
const SHAPES: readonly ValueShape[] = [
  shape('https?:\\/\\/[^\\s"\'<>]+[^\\s"\'<>.,;:!?)]', () => 'website'),
  shape('[\\p{L}\\p{N}._%+-]+@[\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)+', () => 'email'),
  // `backup.tar.gz`, `config.yaml`, `news.ycombinator.com`; not `e.g`, not `Node.js`.
  shape(
    '[\\p{L}\\p{N}_-]{2,}(?:\\.[\\p{L}\\p{N}_-]+)*\\.[A-Za-z][A-Za-z0-9]{0,4}',
    (match) =>
      TOP_LEVEL_DOMAINS.has(match.slice(match.lastIndexOf('.') + 1).toLowerCase()) ? 'website' : 'file',
    (match) => /^\p{Lu}[\p{L}.]*\.js$/u.test(match),
  ),
  // Paths and `owner/repo` slugs; not `CI/CD` or `and/or`. A path ending in `name.ext` is a file.
  shape(
    '[~.]?[\\p{L}\\p{N}_.-]*\\/[\\p{L}\\p{N}_./-]*[\\p{L}\\p{N}_-]',
    (match) => (/\/[^/]+\.[A-Za-z][A-Za-z0-9]{0,4}$/.test(match) ? 'file' : undefined),
    (match) => /^(?:\p{Lu}{1,4}\/\p{Lu}{1,4}|and\/or)$/u.test(match),
  ),
  QUOTED_SHAPE,
  shape('#[\\p{L}\\p{N}_-]+', () => 'channel'),
  shape('@[\\p{L}\\p{N}_.-]+', () => 'user'),
];

/**
 * Splits the quoted text out of a tool description: in `Example: check "Remember Me"` the
 * quoted words are an example value, not what the tool does.
 */
export function splitQuotedText(text: string): { rest: string; quoted: string[] } {
  const quoted: string[] = [];
  const rest = text.replace(QUOTED_SHAPE.pattern, (match) => {
    quoted.push(match);
    return ' ';
  });
  return { rest, quoted };
}

/**
 * Capitalized words that do not open a sentence: `Dave`, `Project Falcon`, `In Progress`.
 * The word before is matched, not looked behind at, so the scan stays linear.
 */
const PROPER_NAME = /([\p{Ll}\p{N},;:)]\s+)(\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)*)(?![\p{L}\p{N}]|\.\p{L})/gu;

/** German capitalizes every noun, so capitals mark no names there. */
const GERMAN = /(?<![\p{L}])(?:der|die|das|und|ist|ein|eine|mir|mich|zeig|bitte)(?![\p{L}])/iu;

/**
 * Splits `query` into intent and argument values. `namesServer(word)` says whether a
 * capitalized word names a server ("in Slack", "on GitLab"); such a word stays intent.
 *
 * @example
 * splitArgumentValues("Move issues to 'Sprint 5'", () => false)
 * // { intent: 'Move issues to  ', values: ["'Sprint 5'"], implied: [] }
 */
export function splitArgumentValues(query: string, namesServer: (word: string) => boolean): QueryParts {
  const values: string[] = [];
  const implied: string[] = [];
  let intent = query;
  for (const { pattern, implies, isNotValue } of SHAPES) {
    intent = intent.replace(pattern, (match) => {
      if (isNotValue?.(match)) return match;
      values.push(match);
      const word = implies(match);
      if (word !== undefined) implied.push(word);
      return ' ';
    });
  }
  if (GERMAN.test(intent)) return { intent, values, implied };
  intent = intent.replace(PROPER_NAME, (match, before: string, name: string) => {
    if (name.split(/\s+/).some(namesServer)) return match;
    values.push(name);
    return `${before} `;
  });
  return { intent, values, implied };
}
