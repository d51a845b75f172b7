import type { ToolOverrideConfig } from '../config/policies-schema.js';
import { McpToolsError } from '../errors/mcp-tools-error.js';
import { validateArguments } from '../tool/argument-validator.js';
import type { JsonSchemaObject, Tool } from '../tool/tool.js';

/**
 * `tool` as an override shows it: another exposed name, title (`annotations.title`; `label`
 * keeps the original name) or description, and fixed argument values removed from the schema the model sees
 * and filled in on every call (a value the caller sends for a fixed argument is replaced).
 * Throws `CONFIG_INVALID` naming `where` when a fixed argument is not a property of the
 * tool's schema or its value does not fit that property's schema.
 *
 * @example
 * applyToolOverride(tool, { name: 'search_docs', arguments: { repo: 'acme/docs' } }, 'policies.overrides.github.search');
 */
export function applyToolOverride(tool: Tool, override: ToolOverrideConfig, where: string): Tool {
  const fixed = override.arguments ?? {};
  const keys = Object.keys(fixed);
  let parameters = tool.parameters;
  if (keys.length > 0) {
    const properties = { ...(tool.parameters.properties ?? {}) };
    for (const key of keys) {
      const property = properties[key];
      if (property === undefined)
        throw new McpToolsError(
          'CONFIG_INVALID',
          `${where}.arguments.${key}: the tool ${tool.originalName ?? tool.name} has no argument "${key}"`,
        );
      const problem = validateArguments(
        { type: 'object', properties: { [key]: property } } as JsonSchemaObject,
        { [key]: fixed[key] },
      );
      if (problem)
        throw new McpToolsError(
          'CONFIG_INVALID',
          `${where}.arguments.${key}: the fixed value does not fit: ${problem.message}`,
        );
      delete properties[key];
    }
    const required = tool.parameters.required?.filter((name) => !keys.includes(name));
    parameters = { ...tool.parameters, properties, ...(required === undefined ? {} : { required }) };
  }
  const execute: Tool['execute'] =
    keys.length === 0
      ? tool.execute
      : (toolCallId, params, signal, onUpdate, context) =>
          tool.execute(toolCallId, { ...params, ...fixed }, signal, onUpdate, context);
  const annotations =
    override.title === undefined ? tool.annotations : { ...tool.annotations, title: override.title };
  return {
    ...tool,
    ...(override.name === undefined ? {} : { name: override.name }),
    ...(override.description === undefined ? {} : { description: override.description }),
    ...(annotations === undefined ? {} : { annotations }),
    parameters,
    execute,
  };
}
