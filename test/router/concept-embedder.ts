import type { EmbedTexts } from '../../src/router/search/embed-batches.js';

/**
 * A stand-in for an embedding model: one dimension per concept, counted from the words that
 * express it. It knows that "how high above sea level" and "elevation" mean one thing,
 * which is what a real model contributes and what lexical search cannot do.
 */
const CONCEPTS: RegExp[] = [
  /\b(high|elevation|altitude|sea level)\b/gi,
  /\b(remember|memory|knowledge|entities|observations)\b/gi,
  /\b(file|files|directory|disk)\b/gi,
  /\b(message|channel|slack|post)\b/gi,
];

/** The concept vector of one text. */
export function conceptVector(text: string): number[] {
  return CONCEPTS.map((concept) => (text.match(concept) ?? []).length + 0.01);
}

/** An {@link EmbedTexts} of concept vectors that records every call. */
export function conceptEmbedder() {
  const calls: { texts: string[]; kind: 'query' | 'document' }[] = [];
  const embed: EmbedTexts = async (texts, kind) => {
    calls.push({ texts, kind });
    return texts.map(conceptVector);
  };
  return { embed, calls };
}
