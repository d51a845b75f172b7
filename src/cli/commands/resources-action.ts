import type { Command } from 'commander';
import type { ResourceEntry, ResourceTemplateEntry, ServerError } from '../../mcp/hub-types.js';
import { formatBytes } from '../../tool/result.js';
import { ExitCode } from '../exit-codes.js';
import { firstLine, printJson, printLine, table } from '../print.js';
import { runSessionCommand } from '../run-session-command.js';
import { parseFormat } from './parse-format.js';
import { requireServer } from './require-server.js';

interface ResourcesOptions {
  server?: string;
  format?: string;
}

/** Runs `mcptools resources`. */
export async function resourcesAction(commandOptions: ResourcesOptions, command: Command): Promise<void> {
  const format = parseFormat(commandOptions.format);
  await runSessionCommand(command, async ({ session, options, signal }) => {
    const { server } = commandOptions;
    if (server !== undefined) requireServer(session.hub, server);
    if (format === 'compact' && !options.json) {
      const { runCompactRouterTool } = await import('./run-compact-router-tool.js');
      return runCompactRouterTool(session, 'listResources', server === undefined ? {} : { server }, signal);
    }
    const resources = session.hub.resources;
    let items: ResourceEntry[];
    let templates: ResourceTemplateEntry[];
    let errors: ServerError[] = [];
    if (server === undefined) {
      const [all, allTemplates] = await Promise.all([
        resources.listAll({ signal }),
        resources.listAllTemplates({ signal }),
      ]);
      items = all.items;
      templates = allTemplates.items;
      const seen = new Set<string>();
      errors = [...all.errors, ...allTemplates.errors].filter(
        (entry) => !seen.has(entry.server) && !!seen.add(entry.server),
      );
    } else {
      [items, templates] = await Promise.all([
        resources.list(server, { signal }),
        resources.listTemplates(server, { signal }),
      ]);
    }
    if (options.json) {
      printJson({ resources: items, templates, errors });
    } else {
      const rows = [['SERVER', 'URI', 'MIME', 'SIZE', 'NAME']];
      for (const item of items)
        rows.push([
          item.server,
          item.uri,
          item.mimeType ?? '-',
          item.size === undefined ? '-' : formatBytes(item.size),
          firstLine(item.title ?? item.name, 60),
        ]);
      for (const template of templates)
        rows.push([
          template.server,
          template.uriTemplate,
          template.mimeType ?? '-',
          'template',
          firstLine(template.title ?? template.name, 60),
        ]);
      for (const line of table(rows)) printLine(line);
      for (const { server: failed, error } of errors)
        process.stderr.write(`mcptools: ${failed}: ${error.code}: ${firstLine(error.message)}\n`);
    }
    return errors.length > 0 && items.length === 0 && templates.length === 0
      ? ExitCode.connection
      : ExitCode.success;
  });
}
