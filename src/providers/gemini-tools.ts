import type { Tool } from '../tool/tool.js';
import { type ConversionReport, LossLog } from './conversion-report.js';
import { type GeminiSchema, toGeminiParameters } from './gemini-schema.js';
import { providerArgumentNames, renameArguments } from './provider-argument-names.js';
import { providerToolNames } from './provider-tool-names.js';

/** A Gemini function declaration (`@google/genai` `FunctionDeclaration`). */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: GeminiSchema;
}

/** A Gemini tool holding function declarations (`@google/genai` `Tool`). */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** Options of {@link toGeminiTools}. */
export interface GeminiToolsOptions {
  /** Receives one report per tool with what the conversion lost. */
  onReport?: (report: ConversionReport) => void;
}

/** One tool's Gemini declaration, logging what the OpenAPI subset could not hold. */
export function geminiFunctionDeclaration(tool: Tool, name: string, log: LossLog): GeminiFunctionDeclaration {
  const renamed = providerArgumentNames(tool.parameters, 'gemini');
  for (const [legal, original] of renamed)
    log.add(`argument "${original}" renamed to "${legal}"`, '/properties');
  const declaration: GeminiFunctionDeclaration = { name };
  if (tool.description !== '') declaration.description = tool.description;
  const parameters = toGeminiParameters(renameArguments(tool.parameters, renamed), log);
  if (parameters) declaration.parameters = parameters;
  return declaration;
}

/**
 * Gemini tools for `tools`: `[{ functionDeclarations: [...] }]`, each schema cleaned to the
 * OpenAPI subset the Gemini API accepts (see {@link toGeminiParameters}) and each name made to
 * follow Gemini's rule (letter or underscore first; letters, digits, `_ . : -`; at most 64).
 *
 * @example
 * await ai.models.generateContent({ model, contents, config: { tools: toGeminiTools(tools) } });
 */
export function toGeminiTools(tools: readonly Tool[], options: GeminiToolsOptions = {}): GeminiTool[] {
  const functionDeclarations = [...providerToolNames(tools, 'gemini')].map(([name, tool]) => {
    const log = new LossLog();
    const declaration = geminiFunctionDeclaration(tool, name, log);
    options.onReport?.({ tool: tool.name, provider: 'gemini', lost: log.lost });
    return declaration;
  });
  return functionDeclarations.length === 0 ? [] : [{ functionDeclarations }];
}
