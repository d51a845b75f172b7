import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { base64ByteLength, formatBytes } from '../../tool/result.js';
import { truncateUtf8 } from '../../tool/truncate.js';
import { ExitCode } from '../exit-codes.js';
import { onlyServer } from '../only-server.js';
import { printJson, printLine } from '../print.js';
import { runSessionCommand } from '../run-session-command.js';
import { parseFormat } from './parse-format.js';
import { requireServer } from './require-server.js';

interface ReadOptions {
  maxBytes?: number;
  out?: string;
  format?: string;
}

/** Runs `mcptools read SERVER URI`. */
export async function readAction(
  server: string,
  uri: string,
  commandOptions: ReadOptions,
  command: Command,
): Promise<void> {
  const format = parseFormat(commandOptions.format);
  await runSessionCommand(
    command,
    async ({ session, options, signal }) => {
      requireServer(session.hub, server);
      if (format === 'compact' && !options.json && commandOptions.out === undefined) {
        const { runCompactRouterTool } = await import('./run-compact-router-tool.js');
        const maxBytes = commandOptions.maxBytes;
        return runCompactRouterTool(
          session,
          'readResource',
          { server, uri, ...(maxBytes ? { max_bytes: maxBytes } : {}) },
          signal,
        );
      }
      const contents = await session.hub.resources.read(server, uri, { signal });
      // One byte budget across the text items, in order; blobs are never cut.
      let budget = commandOptions.maxBytes ?? Number.POSITIVE_INFINITY;
      let truncated = false;
      const items = contents.map((item) => {
        if (typeof item.text !== 'string') return item;
        const cut = truncateUtf8(item.text, budget);
        budget -= cut.shownSize;
        truncated ||= cut.truncated;
        return cut.truncated ? { ...item, text: cut.text } : item;
      });
      if (commandOptions.out !== undefined) {
        const bytes = Buffer.concat(
          items.map((item) =>
            typeof item.text === 'string'
              ? Buffer.from(item.text, 'utf8')
              : Buffer.from(item.blob ?? '', 'base64'),
          ),
        );
        writeFileSync(commandOptions.out, bytes);
        if (options.json) printJson({ server, uri, out: commandOptions.out, bytes: bytes.length, truncated });
        else process.stderr.write(`mcptools: wrote ${formatBytes(bytes.length)} to ${commandOptions.out}\n`);
      } else if (options.json) {
        printJson({ server, uri, contents: items, truncated });
      } else {
        for (const item of items) {
          if (typeof item.text === 'string') printLine(item.text);
          else
            printLine(
              `[blob: ${item.uri}, ${item.mimeType ?? 'application/octet-stream'}, ${formatBytes(base64ByteLength(item.blob ?? ''))} — use --out FILE to save it]`,
            );
        }
      }
      if (truncated && !options.json)
        process.stderr.write(`mcptools: text cut at ${commandOptions.maxBytes} bytes (--max-bytes)\n`);
      return ExitCode.success;
    },
    { only: onlyServer(server) },
  );
}
