/**
 * A host's configuration file opened for editing its server map in place: everything outside the
 * entries changed (comments, order, formatting, other settings) is kept as it was.
 */
export interface ServersDocument {
  /** The server map as it stands now (empty when the file or the map is missing). */
  servers(): Record<string, unknown>;
  /** Adds or replaces one entry. */
  set(name: string, entry: Record<string, unknown>): void;
  /** Removes one entry; nothing when it is missing. */
  remove(name: string): void;
  /** The file's text now. */
  text(): string;
}
