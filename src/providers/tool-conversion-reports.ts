import type { Tool } from '../tool/tool.js';
import { toAISDKTools } from './ai-sdk-tools.js';
import { toAnthropicTools } from './anthropic-tools.js';
import type { ConversionReport, ProviderName } from './conversion-report.js';
import { toGeminiTools } from './gemini-tools.js';
import { toOpenAITools } from './openai-tools.js';

/**
 * What converting `tools` for `provider` loses, one report per tool (an empty `lost` means
 * exact). For OpenAI, `strict: true` reports which tools fall back to non-strict and why.
 *
 * @example
 * toolConversionReports(tools, 'gemini').filter((report) => report.lost.length > 0);
 */
export function toolConversionReports(
  tools: readonly Tool[],
  provider: ProviderName,
  options: { strict?: boolean } = {},
): ConversionReport[] {
  const reports: ConversionReport[] = [];
  const onReport = (report: ConversionReport): void => {
    reports.push(report);
  };
  if (provider === 'openai') toOpenAITools(tools, { strict: options.strict === true, onReport });
  else if (provider === 'anthropic') toAnthropicTools(tools, { onReport });
  else if (provider === 'gemini') toGeminiTools(tools, { onReport });
  else toAISDKTools(tools, { onReport });
  return reports;
}
