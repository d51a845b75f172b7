import { countTokens as countO200kTokens } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Tokens of `text` under OpenAI's o200k encoding (GPT-4o and later): a real tokenizer, so
 * budgets and catalog sizes are what a model actually pays, not characters / 4.
 */
export function countTokens(text: string): number {
  return countO200kTokens(text);
}
