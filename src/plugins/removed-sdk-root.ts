/**
 * What the root `openclaw/plugin-sdk` import resolves to under `strict: true`: OpenClaw
 * 2026.9 removed that export, so a plugin importing it fails to load there, and here too.
 */
export {};

throw new Error(
  'imports the root "openclaw/plugin-sdk", which OpenClaw 2026.9 removed; import a subpath such as "openclaw/plugin-sdk/plugin-entry" (or load it without strict)',
);
