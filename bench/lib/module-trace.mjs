// Preloaded with `node --import ./bench/lib/module-trace.mjs`: records the URL of every module the
// process loads (ES modules through a loader hook, CommonJS through require's cache) and exposes
// `globalThis.__moduleTrace()`, which returns them. The hook thread costs memory of its own: the
// memory benchmark uses this only to say which modules a side loads, never for its figures.
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const loaded = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => loaded.add(url));
port1.unref();
register('./module-trace-hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });

globalThis.__moduleTrace = () => {
  const require = createRequire(import.meta.url);
  for (const file of Object.keys(require.cache)) loaded.add(`file://${file}`);
  return [...loaded].sort();
};
