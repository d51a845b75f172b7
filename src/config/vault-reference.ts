/**
 * How a server entry refers to a secret kept in the secret vault: `${vault:<entry>/<NAME>}`
 * (`mcptools add` writes it; the value is read when the configuration is). Entry names may hold
 * any character but `/` and `}`; a variable name is what the registry called it.
 */
export const vaultReferencePattern = /^vault:([^/{}]+)\/([^{}]+)$/;

/** Looks up one vault value: `undefined` when it is not stored. */
export type VaultLookup = (entry: string, name: string) => string | undefined;

/** The reference text for `name` of `entry`. */
export function vaultReference(entry: string, name: string): string {
  return `\${vault:${entry}/${name}}`;
}
