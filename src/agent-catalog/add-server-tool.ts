import { validateArguments } from '../tool/argument-validator.js';
import type { JsonSchemaObject, Tool, ToolResult } from '../tool/tool.js';
import type { AgentCatalog, CatalogVariable } from './agent-catalog.js';

/** What `add_server` needs beside the catalog. */
export interface AddServerToolOptions {
  catalog: AgentCatalog;
  /**
   * Withholds trust on first use from an entry before it is written (the pins' `distrust`):
   * its tools wait for an operator's approval.
   */
  distrust(entry: string): Promise<void>;
  /** Whether the pins hold back what `entry` lists (`enforce`); an entry they would not hold is refused. */
  held(entry: string): boolean;
  /** Applies the configuration file again (and tells a cluster's other replicas to). */
  reload(): Promise<void>;
  /** The operator's log: the approve and configure commands go here, never to the model. */
  log(line: string): void;
  /** The configuration file added to, named in the configure command the log shows. */
  configFile?: string;
  name?: string;
}

/** Entry names the configuration accepts for a server (the same as a tool name's server part). */
const ENTRY_PATTERN = '^[A-Za-z0-9_-]{1,64}$';

/** The arguments: checked before anything runs (a call may reach the tool without the gateway's check). */
const PARAMETERS: JsonSchemaObject = {
  type: 'object',
  properties: {
    name: {
      type: 'string',
      minLength: 3,
      maxLength: 200,
      description: 'The registry name, e.g. io.github.owner/server',
    },
    version: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: 'An exact version (default: the latest)',
    },
    as: { type: 'string', pattern: ENTRY_PATTERN, description: 'The entry name in the configuration' },
    values: {
      type: 'object',
      additionalProperties: { type: 'string', maxLength: 4096 },
      description: 'Values of the variables the server needs that are not secret (by name)',
    },
  },
  required: ['name'],
  additionalProperties: false,
};

const text = (body: string, isError = false): ToolResult => ({
  content: [{ type: 'text', text: body }],
  ...(isError ? { isError: true } : {}),
});

const describe = (variable: CatalogVariable) =>
  `${variable.name} (${variable.where}${variable.secret ? ', secret' : ''})`;

/**
 * `add_server`: adds a server from the registry to the configuration `serve` runs (a package or
 * a remote, as `mcptools add` would, locked), at a resolved version, and applies it. Owner-only; every call asks the person first (the pipeline's
 * approval). It never takes a secret from the model: a value the registry marks secret is
 * refused as an argument, and an entry still missing one is written disabled until the person
 * provides it. The new server is not trusted on first use: its tools are held (pins) until an
 * operator approves them, and only then appear, with `tools/list_changed`.
 */
export function createAddServerTool(options: AddServerToolOptions): Tool {
  const { catalog } = options;
  return {
    name: options.name ?? 'add_server',
    label: 'Add an MCP server',
    description:
      "Add a server found with find_server to this gateway. A person approves the call; the new server's tools appear only after an operator reviewed them. Never pass secrets (API keys, tokens): the person provides those outside the conversation.",
    parameters: PARAMETERS,
    source: 'native',
    category: 'catalog',
    ownerOnly: true,
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    async execute(_toolCallId, params, signal) {
      const invalid = validateArguments(PARAMETERS, params ?? {});
      if (invalid) return text(`invalid arguments: ${invalid.message}`, true);
      const name = String(params.name);
      const version = typeof params.version === 'string' ? params.version : undefined;
      const values = (params.values ?? {}) as Record<string, string>;
      const entry = typeof params.as === 'string' ? params.as : catalog.entryFor(name);
      if (version === 'latest') return text('give an exact version, or none for the latest', true);
      if (!options.held(entry))
        return text(
          `the pins do not hold back the tools of "${entry}" (its pin mode is not enforce); choose another name with "as"`,
          true,
        );
      if (catalog.hasEntry(entry))
        return text(`the configuration already has a server "${entry}"; choose another name with "as"`, true);
      try {
        const variables = await catalog.variables(name, version, signal);
        // A secret given as an argument has passed through the model: refused, and not echoed.
        const secrets = Object.keys(values).filter((key) =>
          variables.some((variable) => variable.secret && variable.name === key),
        );
        if (secrets.length > 0)
          return text(
            `refused: ${secrets.join(', ')} ${secrets.length === 1 ? 'is a secret' : 'are secrets'}; secrets are never taken as arguments, the person provides them outside the conversation. Call again without ${secrets.length === 1 ? 'it' : 'them'}.`,
            true,
          );
        const unknown = Object.keys(values).filter(
          (key) => !variables.some((variable) => variable.name === key),
        );
        if (unknown.length > 0)
          return text(
            `unknown variable${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}; this server takes: ${variables.map(describe).join(', ') || 'none'}`,
            true,
          );
        // Distrusted before it exists: no process may pin its first tools as they come.
        await options.distrust(entry);
        const added = await catalog.add({ name, ...(version ? { version } : {}), entry, values }, signal);
        await options.reload();
        options.log(
          `add_server: ${added.name}@${added.version} added as "${added.entry}"; its tools are held until approved: mcptools pins diff ${added.entry}, then mcptools pins approve ${added.entry}`,
        );
        const lines = [`added "${added.entry}": ${added.name}@${added.version} (${added.kind}).`];
        if (added.warning) lines.push(`deprecated: ${added.warning}`);
        if (added.runtimeMissing)
          lines.push(
            `It runs with ${added.runtimeMissing}, which is not installed on the gateway's machine: it starts once ${added.runtimeMissing} is installed.`,
          );
        if (added.needs.length > 0) {
          // Names only: the person types the values into the CLI's prompt (or --env NAME from
          // their environment), which keeps secrets in the vault and out of this log.
          const config = options.configFile ? ` --config ${options.configFile}` : '';
          options.log(
            `add_server: "${added.entry}" needs configuration (${added.needs.map(describe).join(', ')}): mcptools add ${added.name}@${added.version} --as ${added.entry}${config}`,
          );
          lines.push(
            `It needs configuration and stays disabled until the person provides: ${added.needs.map(describe).join(', ')}. Ask them to do so outside this conversation.`,
          );
        }
        lines.push(
          "Its tools are not served yet: an operator must review and approve them first; they appear in this gateway's tool list once approved.",
        );
        return text(lines.join('\n'));
      } catch (error) {
        return text(`add_server failed: ${error instanceof Error ? error.message : String(error)}`, true);
      }
    },
  };
}
