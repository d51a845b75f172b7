import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';
import { positiveIntegerOption } from '../parse-option-value.js';

/** Collects a repeated `--flag K=V` option. */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * `mcptools registry search|show` (servers in the MCP registries), `add` (install one, locked,
 * secrets in the vault), `remove` and `update` (move a lock on purpose). Actions load when run.
 */
export function registerCatalogCommands(program: Command): void {
  const registry = program
    .command('registry')
    .description(
      'search the MCP registries configured (registries[], else the official one) and show a server',
    );
  registry
    .command('search')
    .description('servers whose name contains <text>, latest versions, with their status')
    .argument('<text>', 'part of a server name')
    .option('--limit <n>', 'most results per registry (default 30)', positiveIntegerOption)
    .addHelpText(
      'after',
      '\nExamples:\n  mcptools registry search filesystem\n  mcptools registry search memory --json',
    )
    .action(lazyAction(async () => (await import('./registry-action.js')).registrySearchAction));
  registry
    .command('show')
    .description(
      'a server: description, versions, status, packages and remotes, and the variables each needs',
    )
    .argument('<name>', 'the server name, optionally @version')
    .addHelpText(
      'after',
      '\nExamples:\n  mcptools registry show io.github.user/weather\n  mcptools registry show io.github.user/weather@1.2.0 --json',
    )
    .action(lazyAction(async () => (await import('./registry-action.js')).registryShowAction));

  program
    .command('add')
    .description(
      'add a server from the MCP registry: version and integrity locked, secrets kept in the vault',
    )
    .argument('<name>', 'the server name, optionally @version (default: the latest, written as its version)')
    .option('--as <entry>', 'the entry name in the configuration (default: from the server name)')
    .option(
      '--use <type>',
      'install this kind: npm, pypi, oci, nuget, mcpb or remote (default: the first this machine runs)',
    )
    .option(
      '--env <KEY=VALUE>',
      'an environment variable the server needs (KEY alone: from this environment)',
      collect,
    )
    .option(
      '--header <KEY=VALUE>',
      'a header a remote server needs (KEY alone: from the environment)',
      collect,
    )
    .option('--arg <KEY=VALUE>', 'an argument or {variable} the server needs, by its name', collect)
    .option('-y, --yes', 'ask nothing: take the flags and defaults, refuse when a required value is missing')
    .addHelpText(
      'after',
      `
Writes the entry into --config (default ./mcptools.json) and mcptools-lock.json beside it.
A value the registry marks secret goes to the owner-only vault in the state folder; the entry
refers to it as \${vault:<entry>/<NAME>}.
Examples:
  mcptools add io.github.modelcontextprotocol/server-filesystem --arg allowed_directory=.
  mcptools add io.github.user/weather@1.2.0 --as weather --env WEATHER_API_KEY --yes`,
    )
    .action(lazyAction(async () => (await import('./add-action.js')).addAction));

  program
    .command('remove')
    .description('remove an entry: from the configuration, the lock, the vault and the pins')
    .argument('<entry>', 'the entry name in the configuration')
    .action(lazyAction(async () => (await import('./remove-action.js')).removeAction));

  program
    .command('update')
    .description('move locked entries to their registry’s latest version, showing what changes')
    .argument('[entry]', 'only this entry')
    .option('-y, --yes', 'apply without asking')
    .option('--dry-run', 'show what would change, change nothing')
    .action(lazyAction(async () => (await import('./add-action.js')).updateAction));
}
