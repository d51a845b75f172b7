// Loader hooks of bench/lib/module-trace.mjs: posts each loaded module's URL to the main thread.
let port;

export function initialize(data) {
  port = data.port;
}

export async function load(url, context, nextLoad) {
  port.postMessage(url);
  return nextLoad(url, context);
}
