import type { ServerStatus } from '../mcp/hub-types.js';
import { base64ByteLength, formatBytes } from '../tool/result.js';
import type { Tool, ToolResult } from '../tool/tool.js';
import { cutAtWord, readableError } from './readable-error.js';

/** Writes one line to stdout. */
export function printLine(text = ''): void {
  process.stdout.write(`${text}\n`);
}

/** Writes a value as pretty JSON to stdout. */
export function printJson(value: unknown): void {
  printLine(JSON.stringify(value, null, 2));
}

/** Aligned columns, the first row a header, two spaces between columns. */
export function table(rows: string[][]): string[] {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

/**
 * One row per server: state, transport, era and protocol, counts, connect time (when
 * `connectMs` has it) and the last error in plain words (cut to `errorWidth` when given).
 */
export function formatStatusTable(
  statuses: ServerStatus[],
  connectMs: ReadonlyMap<string, number> = new Map(),
  errorWidth: number | undefined = process.stdout.isTTY ? 100 : undefined,
): string[] {
  const rows = [
    ['SERVER', 'STATE', 'TRANSPORT', 'PROTOCOL', 'TOOLS', 'RESOURCES', 'PROMPTS', 'CONNECT', 'LAST ERROR'],
  ];
  for (const status of statuses) {
    const ms = connectMs.get(status.name);
    rows.push([
      status.name,
      status.state,
      status.transport ?? '-',
      status.protocolVersion
        ? `${status.protocolVersion}${status.protocolEra ? ` (${status.protocolEra})` : ''}`
        : '-',
      String(status.toolCount),
      String(status.resourceCount),
      String(status.promptCount),
      ms === undefined ? '-' : `${ms} ms`,
      // A skipped entry's message says why ("skipped: this is mcptools itself"): no code before it.
      // On a terminal the error is cut at a word to keep the row on one line; piped, it is whole.
      status.lastError
        ? status.state === 'skipped'
          ? firstLine(status.lastError.message)
          : errorWidth === undefined
            ? readableError(status.lastError)
            : cutAtWord(readableError(status.lastError), errorWidth)
        : '',
    ]);
  }
  return table(rows);
}

/** The first line of `text`, cut to `max` characters with an ellipsis. */
export function firstLine(text: string, max = 100): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** One row per tool: exposed name, where it comes from, and the first line of its description. */
export function formatToolTable(tools: Tool[]): string[] {
  const rows = [['TOOL', 'SOURCE', 'DESCRIPTION']];
  for (const tool of tools) {
    const origin = tool.server ? `${tool.source ?? 'native'}:${tool.server}` : (tool.source ?? 'native');
    rows.push([tool.name, origin, firstLine(tool.description ?? '', 80)]);
  }
  return table(rows);
}

/**
 * A result as a person reads it: text as is, binary parts as a line with type and size (and
 * the file they were saved to, when `saved` has one for their index), `structuredContent`
 * as pretty JSON — without repeating a text block that only serializes it.
 */
export function formatResult(result: ToolResult, saved: ReadonlyMap<number, string> = new Map()): string {
  const structured = result.structuredContent;
  const structuredText = structured === undefined ? undefined : JSON.stringify(structured);
  const parts = result.content.map((block, index) => {
    const file = saved.get(index);
    const to = file ? ` → ${file}` : '';
    switch (block.type) {
      case 'text':
        return structuredText !== undefined && sameJson(block.text, structuredText) ? undefined : block.text;
      case 'image':
      case 'audio':
        return `[${block.type}: ${block.mimeType}, ${formatBytes(base64ByteLength(block.data))}${to}]`;
      case 'resource':
        if (typeof block.resource.text === 'string') return block.resource.text;
        return `[resource: ${block.resource.uri}${block.resource.mimeType ? `, ${block.resource.mimeType}` : ''}${block.resource.blob ? `, ${formatBytes(base64ByteLength(block.resource.blob))}` : ''}${to}]`;
      case 'resource_link':
        return `[resource link: ${block.uri}]`;
      default:
        return undefined;
    }
  });
  if (structured !== undefined) parts.push(JSON.stringify(structured, null, 2));
  return parts.filter((part) => part !== undefined).join('\n');
}

function sameJson(text: string, json: string): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === json;
  } catch {
    return false;
  }
}
