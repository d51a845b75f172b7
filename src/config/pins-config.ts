/** What a pin covers: a tool, a prompt or a resource template of one server. */
export type PinnedKind = 'tool' | 'prompt' | 'template';

/** What a server's changed definitions get: held back until approved, served with a warning, or not pinned at all. */
export type PinMode = 'enforce' | 'warn' | 'off';

/** Pin settings of one server (`pins.servers.<name>`). */
export interface ServerPinsConfig {
  mode?: PinMode;
  /** Fields left out of this server's fingerprints (`description`, `_meta`, …): ones it changes on its own. */
  ignore?: string[];
  /** Whether this server's first definitions are pinned as they come. Default: the global setting. */
  trustOnFirstUse?: boolean;
}

/** `pins` of `mcptools.json`: definitions fingerprinted, and changed ones quarantined. */
export interface PinsConfig {
  /** Default `enforce` (`mcptools serve`, or when the section is given); the library is `off` without it. */
  mode?: PinMode;
  /** The pin file (relative to the configuration file). Default `pins.json` beside the OAuth vault. */
  file?: string;
  /** Pin the first definitions seen of each server (trust on first use). Default `true`. */
  trustOnFirstUse?: boolean;
  servers?: Record<string, ServerPinsConfig>;
  /**
   * The poisoning scan of definitions not seen before (hidden characters, terminal escapes,
   * instructions aimed at the model, shadowing): `warn` (default) reports each finding,
   * `quarantine` also holds back a first-seen definition with a high-severity one, `off`.
   */
  scan?: 'warn' | 'quarantine' | 'off';
}
