import { fileURLToPath } from 'node:url';
import type { PluginLogSink } from '../../src/plugins/plugin-types.js';
import type { ToolResult } from '../../src/tool/tool.js';

/** The folder of the small fixture plugins. */
export const fixtures = fileURLToPath(new URL('../fixtures/plugins/', import.meta.url));

/** The path of one fixture plugin. */
export const fixture = (name: string) => `${fixtures}${name}`;

/** A plugin log sink that keeps every line as `<level> <message>`. */
export function collectingLogger(): PluginLogSink & { lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (message: string) => lines.push(`${level} ${message}`);
  return { lines, debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') };
}

/** The text of a result, other blocks shown as `[type]`. */
export function textOf(result: ToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}
