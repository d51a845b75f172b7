import type { ServerStatus } from '../mcp/provider-types.js';
import { base64ByteLength, formatBytes } from '../tool/result.js';
import type { Tool, ToolResult } from '../tool/tool.js';

/** Writes one line to stdout. */
export function printLine(text = ''): void {
  process.stdout.write(`${text}\n`);
}

/** Writes a value as pretty JSON to stdout. */
export function printJson(value: unknown): void {
  printLine(JSON.stringify(value, null, 2));
}

function table(rows: string[][]): string[] {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

/** One row per server: state, transport, protocol and counts, with the last error. */
export function formatStatusTable(statuses: ServerStatus[]): string[] {
  const rows = [['SERVER', 'STATE', 'TRANSPORT', 'PROTOCOL', 'TOOLS', 'RESOURCES', 'PROMPTS', 'NOTE']];
  for (const status of statuses) {
    rows.push([
      status.name,
      status.state,
      status.transport ?? '-',
      status.protocolVersion ?? '-',
      String(status.toolCount),
      String(status.resourceCount),
      String(status.promptCount),
      status.lastError ? `${status.lastError.code}: ${firstLine(status.lastError.message)}` : '',
    ]);
  }
  return table(rows);
}

function firstLine(text: string, max = 100): string {
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

/** A result as a person reads it: text as is, binary parts as a line with type and size. */
export function formatResult(result: ToolResult): string {
  return result.content
    .map((block) => {
      switch (block.type) {
        case 'text':
          return block.text;
        case 'image':
        case 'audio':
          return `[${block.type}: ${block.mimeType}, ${formatBytes(base64ByteLength(block.data))}]`;
        case 'resource':
          return block.resource.text ?? `[resource: ${block.resource.uri}]`;
        case 'resource_link':
          return `[resource link: ${block.uri}]`;
        default:
          return '';
      }
    })
    .join('\n');
}
