/** The LLM providers mcptools converts tools for. */
export type ProviderName = 'openai' | 'anthropic' | 'gemini' | 'ai-sdk';

/**
 * What one tool's conversion for one provider lost: each entry names a construct and where it
 * was (`oneOf → anyOf at /properties/parent`). An empty `lost` means the conversion was exact.
 */
export interface ConversionReport {
  tool: string;
  provider: ProviderName;
  lost: string[];
  /** OpenAI only: `false` when strict mode was asked for but the tool fell back to non-strict. */
  strict?: boolean;
  /** OpenAI only: why strict mode was not possible. */
  strictFallbackReason?: string;
}

/** Collects the losses of one schema conversion, without duplicates. */
export class LossLog {
  readonly lost: string[] = [];

  /** Records that `construct` was lost or changed at JSON pointer `path`. */
  add(construct: string, path: string): void {
    const entry = `${construct} at ${path === '' ? '/' : path}`;
    if (!this.lost.includes(entry)) this.lost.push(entry);
  }
}
