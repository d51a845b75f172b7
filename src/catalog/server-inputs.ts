import type { CatalogArgument, CatalogInput, CatalogKeyValue } from './catalog-records.js';
import type { InstallTarget } from './install-target.js';
import type { BundleUserConfig } from './mcpb-bundle.js';

/** Where a value goes: an argument, an environment variable, a header, or a `{name}` inside one. */
export type InputKind = 'argument' | 'env' | 'header' | 'variable';

/** One value a server needs before it can run. */
export interface InputSlot {
  /** Its name in `--env`, `--header`, `--arg` and the lock: the variable, header or flag name, or the argument's hint. */
  key: string;
  kind: InputKind;
  description?: string;
  required: boolean;
  /** Marked secret by its registry: kept in the secret vault, never in a file of the project. */
  secret: boolean;
  default?: string;
  choices?: string[];
  format?: string;
}

/** The key of an argument: a positional's hint (or its place), a named one's flag without dashes. */
export function argumentKey(argument: CatalogArgument, index: number): string {
  return argument.type === 'named'
    ? argument.name.replace(/^-+/, '')
    : (argument.valueHint ?? `arg${index + 1}`);
}

/** `{name}` placeholders of a template. */
export function templateNames(template: string): string[] {
  return [...template.matchAll(/\{([A-Za-z0-9_.-]+)\}/g)].map((match) => match[1]!);
}

function slot(key: string, kind: InputKind, input: CatalogInput): InputSlot {
  return {
    key,
    kind,
    ...(input.description ? { description: input.description } : {}),
    required: input.isRequired === true,
    secret: input.isSecret === true,
    ...(input.default !== undefined ? { default: input.default } : {}),
    ...(input.choices ? { choices: input.choices } : {}),
    ...(input.format ? { format: input.format } : {}),
  };
}

/**
 * The inputs one value of a record needs: none when the record fixes it (`value` without
 * placeholders); its `{variables}` when the fixed value is a template; else the value itself.
 */
function valueSlots(
  key: string,
  kind: InputKind,
  input: CatalogInput & { variables?: Record<string, CatalogInput> },
): InputSlot[] {
  if (input.value === undefined) return [slot(key, kind, input)];
  return templateNames(input.value).map((name) => ({
    ...slot(name, 'variable', input.variables?.[name] ?? {}),
    // A placeholder the record does not describe is still needed for the value to make sense.
    required: input.variables?.[name]?.isRequired ?? true,
  }));
}

/** Every input `target` needs, in order: runtime arguments, package arguments, environment, headers, URL variables. */
export function inputsOf(target: InstallTarget): InputSlot[] {
  const slots: InputSlot[] = [];
  const add = (found: InputSlot[]) => {
    for (const item of found) if (!slots.some((known) => known.key === item.key)) slots.push(item);
  };
  if (target.kind === 'package') {
    const { pkg } = target;
    const args = [...(pkg.runtimeArguments ?? []), ...(pkg.packageArguments ?? [])];
    args.forEach((argument, index) => {
      add(valueSlots(argumentKey(argument, index), 'argument', argument));
    });
    for (const variable of pkg.environmentVariables ?? []) add(valueSlots(variable.name, 'env', variable));
  } else {
    for (const header of target.remote.headers ?? [])
      add(valueSlots(header.name, 'header', header as CatalogKeyValue));
    const variables = (target.remote as { variables?: Record<string, CatalogInput> }).variables;
    for (const name of templateNames(target.remote.url))
      add([
        {
          ...slot(name, 'variable', variables?.[name] ?? {}),
          required: variables?.[name]?.isRequired ?? true,
        },
      ]);
  }
  return slots;
}

/**
 * The inputs of an MCPB bundle's `user_config` (each a `${user_config.<key>}` of its command):
 * `sensitive` ones secret (kept in the vault), a `default` that is a string, number or boolean
 * its default.
 */
export function bundleInputs(userConfig: Readonly<Record<string, BundleUserConfig>>): InputSlot[] {
  return Object.entries(userConfig).map(([key, field]) => {
    const fallback = field.default;
    const scalar = ['string', 'number', 'boolean'].includes(typeof fallback);
    const description = field.description ?? field.title;
    return {
      key,
      kind: 'variable' as const,
      ...(description ? { description } : {}),
      required: field.required === true,
      secret: field.sensitive === true,
      ...(scalar ? { default: String(fallback) } : {}),
      ...(field.type === 'directory' || field.type === 'file' ? { format: 'filepath' } : {}),
    };
  });
}
