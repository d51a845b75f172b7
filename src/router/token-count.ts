type Counter = (text: string) => number;

let counter: Promise<Counter> | undefined;

/**
 * Tokens of `text` under OpenAI's o200k encoding (GPT-4o and later): a real tokenizer, so
 * budgets and catalog sizes are what a model actually pays, not characters / 4. The
 * encoding's tables take tens of MiB, so they load on the first count, never at import.
 */
export async function countTokens(text: string): Promise<number> {
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then((module) => module.countTokens);
  return (await counter)(text);
}
