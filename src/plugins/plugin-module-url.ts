/**
 * The URL of this module, in the folder that holds `plugin-sdk/` and `removed-sdk-root.*`. The
 * plugin loader finds those files from it; `scripts/bundle-library.mjs` keeps this module out of
 * the library bundle, so the URL stays in `dist/plugins/` wherever the loader's code ends up.
 */
export const PLUGINS_MODULE_URL: string = import.meta.url;
