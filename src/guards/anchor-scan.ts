/** Where the anchors of an {@link AnchorScanner} start in one text, and the first character of each mark class. */
export interface AnchorHits {
  /** The start of every occurrence of each anchor key, ascending, each once; a key without one is absent. */
  starts: ReadonlyMap<string, readonly number[]>;
  /** The index of the first character of each mark class; a class without one is absent. */
  marks: ReadonlyMap<string, number>;
}

/** An anchor: a literal a detector's pattern must start with (or contain), looked for under `key`. */
export interface Anchor {
  key: string;
  /**
   * The literal. A space in it stands for one or more whitespace characters (what `\s+` matches),
   * and each character matches what it matches in a case-insensitive regular expression without
   * the `u` flag (ASCII letters in either case): a superset of what the detector's pattern needs.
   */
  text: string;
}

/** A class of single characters whose first occurrence is reported ({@link AnchorHits.marks}). */
export interface MarkClass {
  key: string;
  /** The characters, as a one-character class (`/[\u200b-\u200d]/`). */
  chars: RegExp;
}

const OTHER = 0;
const SPACE = 1;

/**
 * Finds, in one pass over a text, where each of many anchors starts and where each mark class
 * first occurs, so that detectors run their exact patterns only there instead of each pattern
 * over the whole text (each pass over a 100 kB result costs about as much as this one). An
 * Aho–Corasick automaton over the text's characters folded to a small alphabet: a table lookup
 * and a transition per character, no copy of the text (not lowered, not normalised). Written
 * here because the maintained multi-pattern package measured (`modern-ahocorasick`) matches
 * case-sensitively only and took seconds on a 100 kB text (it segments graphemes first).
 */
export class AnchorScanner {
  readonly #keys: string[];
  /** Each anchor's symbols, for finding its start from where it ended. */
  readonly #symbols: number[][];
  readonly #markKeys: string[];
  /** Code unit → symbol: OTHER, SPACE, an anchor character's, or a mark's ({@link #marked}). */
  readonly #symbolOf = new Uint8Array(65_536);
  /** Code unit → mark class + 1 (0: none). */
  readonly #markOf = new Uint8Array(65_536);
  readonly #isSpace = new Uint8Array(65_536);
  /** The symbol of a marked character that is not whitespace (a marked whitespace character stays whitespace). */
  readonly #marked: number;
  /** The state (× stride) a marked character that is not whitespace leads to: the start state, flagged. */
  readonly #markState: number;
  /** Marked whitespace characters, looked for apart (in the automaton they are whitespace). */
  readonly #spaceMarks: Array<[string, string]> = [];
  readonly #stride: number;
  /** Transitions, indexed by state × stride + symbol, to the next state × stride. */
  readonly #delta: Uint32Array;
  /** The anchors ending at each state (state × stride), or none. */
  readonly #ends: ReadonlyArray<readonly number[] | undefined>;
  /** 1 where {@link #ends} has anchors (the per-character check reads a byte). */
  readonly #endsHere: Uint8Array;

  constructor(anchors: readonly Anchor[], marks: readonly MarkClass[] = []) {
    this.#keys = anchors.map((anchor) => anchor.key);
    this.#markKeys = marks.map((mark) => mark.key);
    // Every code unit once: the tables are filled by the regular expressions' own answers, so
    // that whitespace and case folding are exactly what the detectors' patterns mean by them.
    let every = '';
    for (let from = 0; from < 65_536; from += 4096)
      every += String.fromCharCode(...Array.from({ length: 4096 }, (_, offset) => from + offset));
    for (const match of every.matchAll(/\s/g)) {
      this.#isSpace[match.index] = 1;
      this.#symbolOf[match.index] = SPACE;
    }
    let next = SPACE + 1;
    const symbolOf = (char: string): number => {
      if (char === ' ') return SPACE;
      const known = this.#symbolOf[char.charCodeAt(0)]!;
      if (known !== OTHER) return known;
      const symbol = next++;
      const escaped = char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
      for (const match of every.matchAll(new RegExp(escaped, 'gi'))) {
        if (this.#isSpace[match.index] === 1)
          throw new Error(`anchor character ${JSON.stringify(char)} is whitespace`);
        this.#symbolOf[match.index] = symbol;
      }
      return symbol;
    };
    this.#symbols = anchors.map((anchor) => {
      if (anchor.text.length === 0 || anchor.text.startsWith(' '))
        throw new Error(`anchor ${anchor.key} must start with a character other than a space`);
      return [...anchor.text.replace(/ +/g, ' ')].map(symbolOf);
    });
    this.#marked = next;
    if (this.#marked + 1 > 256) throw new Error('too many distinct anchor characters');
    this.#stride = this.#marked + 1;
    for (const [index, mark] of marks.entries()) {
      for (const match of every.matchAll(new RegExp(mark.chars.source, 'g'))) {
        const code = match.index;
        const symbol = this.#symbolOf[code]!;
        if (this.#markOf[code] !== 0 || (symbol !== OTHER && symbol !== SPACE))
          throw new Error(`mark ${mark.key} overlaps an anchor or another mark`);
        this.#markOf[code] = index + 1;
        if (symbol === SPACE) this.#spaceMarks.push([String.fromCharCode(code), mark.key]);
        else this.#symbolOf[code] = this.#marked;
      }
    }
    // The trie of the anchors' symbols, then its failure links and a complete transition table.
    const children: Map<number, number>[] = [new Map()];
    const label: number[] = [OTHER];
    const ending: number[][] = [[]];
    for (const [index, symbols] of this.#symbols.entries()) {
      let state = 0;
      for (const symbol of symbols) {
        let child = children[state]!.get(symbol);
        if (child === undefined) {
          child = children.length;
          children.push(new Map());
          label.push(symbol);
          ending.push([]);
          children[state]!.set(symbol, child);
        }
        state = child;
      }
      ending[state]!.push(index);
    }
    const stride = this.#stride;
    // One more state than the trie's: where a marked character leads.
    const states = children.length + 1;
    this.#markState = children.length * stride;
    const delta = new Uint32Array(states * stride);
    const fail = new Array<number>(states).fill(0);
    const queue: number[] = [];
    for (let symbol = 0; symbol < this.#marked; symbol++) {
      const child = children[0]!.get(symbol);
      delta[symbol] = child === undefined ? 0 : child * stride;
      if (child !== undefined) queue.push(child);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      for (let symbol = 0; symbol < this.#marked; symbol++) {
        const child = children[state]!.get(symbol);
        const fallback = delta[fail[state]! * stride + symbol]!;
        if (child === undefined) delta[state * stride + symbol] = fallback;
        else {
          fail[child] = fallback / stride;
          ending[child]!.push(...ending[fail[child]!]!);
          delta[state * stride + symbol] = child * stride;
          queue.push(child);
        }
      }
    }
    for (let state = 0; state < children.length; state++)
      // More whitespace after whitespace is the same run (one `\s+`): it leaves the state as it is.
      if (label[state] === SPACE) delta[state * stride + SPACE] = state * stride;
    // The mark state goes on as the start state does; a marked character matches no anchor character.
    delta.copyWithin(this.#markState, 0, stride);
    for (let state = 0; state < states; state++) delta[state * stride + this.#marked] = this.#markState;
    this.#delta = delta;
    const ends: Array<number[] | undefined> = [];
    this.#endsHere = new Uint8Array(states * stride);
    this.#endsHere[this.#markState] = 1;
    for (let state = 0; state < children.length; state++)
      if (ending[state]!.length > 0) {
        ends[state * stride] = ending[state];
        this.#endsHere[state * stride] = 1;
      }
    this.#ends = ends;
  }

  /** The {@link AnchorHits} of `text`. */
  scan(text: string): AnchorHits {
    const symbolOf = this.#symbolOf;
    const delta = this.#delta;
    const endsHere = this.#endsHere;
    const ends = this.#ends;
    const markState = this.#markState;
    const hitAt: number[] = [];
    const hitState: number[] = [];
    const marks = new Map<string, number>();
    let state = 0;
    // The per-character work: a lookup, a transition and one flag (anchors ending here, or a mark).
    for (let i = 0; i < text.length; i++) {
      state = delta[state + symbolOf[text.charCodeAt(i)]!]!;
      if (endsHere[state] === 1) {
        if (state === markState) {
          const key = this.#markKeys[this.#markOf[text.charCodeAt(i)]! - 1]!;
          if (!marks.has(key)) marks.set(key, i);
        } else {
          hitAt.push(i);
          hitState.push(state);
        }
      }
    }
    for (const [char, key] of this.#spaceMarks) {
      const at = text.indexOf(char);
      const before = marks.get(key);
      if (at !== -1 && (before === undefined || at < before)) marks.set(key, at);
    }
    const starts = new Map<string, number[]>();
    for (let h = 0; h < hitAt.length; h++)
      for (const anchor of ends[hitState[h]!]!) {
        const start = this.#startOf(text, hitAt[h]!, this.#symbols[anchor]!);
        const key = this.#keys[anchor]!;
        const list = starts.get(key);
        // Whitespace after an anchor that ends with it reports the anchor again, at the same start.
        if (list === undefined) starts.set(key, [start]);
        else if (list[list.length - 1] !== start) list.push(start);
      }
    // Anchors of one key end in the order found, which is not always the order they start in.
    for (const [key, list] of starts)
      if (list.length > 1) starts.set(key, [...new Set(list.sort((a, b) => a - b))]);
    return { starts, marks };
  }

  /** Where an anchor of `symbols` that ended at index `end` of `text` started. */
  #startOf(text: string, end: number, symbols: readonly number[]): number {
    let at = end;
    for (let s = symbols.length - 1; s >= 0; s--) {
      if (symbols[s] === SPACE) while (at >= 0 && this.#isSpace[text.charCodeAt(at)] === 1) at--;
      else at--;
    }
    return at + 1;
  }
}
