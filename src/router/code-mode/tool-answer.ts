import type { ToolResult } from '../../tool/tool.js';
import type { HostAnswer } from './script-sandbox.js';

function textOf(result: ToolResult): string {
  return result.content
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

/** JSON text parsed when it is an object or an array; any other text as it is. */
function parsedText(text: string): unknown {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * What a script gets back from an inner call: the tool's `structuredContent` when it has one,
 * else its text (parsed when it is a JSON object or array), or the content blocks when there
 * is more than text. A failure (`isError`) becomes an error the script may catch, with the
 * router's error code when the router refused the call.
 */
export function toolAnswer(result: ToolResult): HostAnswer {
  if (result.isError === true) {
    const routed = (result.details as { error?: { code?: unknown; msg?: unknown } } | undefined)?.error;
    if (routed !== undefined && typeof routed.msg === 'string')
      return {
        error: { message: routed.msg, ...(typeof routed.code === 'string' ? { code: routed.code } : {}) },
      };
    const text = textOf(result);
    return { error: { message: text === '' ? 'the tool failed' : text } };
  }
  if (result.structuredContent !== undefined) return { value: result.structuredContent };
  if (result.content.every((block) => block.type === 'text')) return { value: parsedText(textOf(result)) };
  return { value: result.content };
}
