// Reads a V8 CPU profile (`.cpuprofile`, from `--cpu-prof` or the inspector) into self time per
// layer of the call path — which package or which folder of mcptools' src/ the sampled
// function lives in (through dist/'s source maps: the library is a bundle) — and per function,
// so a profile says where each microsecond of a call goes.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const maps = new Map();
/** The source-map entry of a function of mcptools' dist/ (its `src/` file), or undefined. */
function originalOf({ url, lineNumber, columnNumber }) {
  if (!url.startsWith('file://') || !url.includes('/dist/') || url.includes('/node_modules/'))
    return undefined;
  if (!maps.has(url)) {
    const file = `${fileURLToPath(url)}.map`;
    maps.set(url, existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : undefined);
  }
  const entry = maps.get(url)?.findEntry(lineNumber, columnNumber);
  return entry?.originalSource ? entry : undefined;
}

/** The layer of a function, from its script URL and name. */
export function layerOf(frame) {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)' || functionName === '(idle)' || functionName === '(root)')
    return functionName;
  if (url === '') return 'native/builtins';
  if (url.startsWith('node:')) {
    const name = url.slice(5).replace(/^internal\//, '');
    const top = name.split('/')[0];
    return `node:${['http', '_http_server', '_http_common', '_http_outgoing', '_http_incoming', 'http2'].includes(top) ? 'http' : (['streams', 'stream', 'net', 'child_process', 'timers', 'events', 'util', 'async_hooks', 'process', 'url', 'webstreams', 'deps', 'crypto', 'fs', 'buffer', 'abort_controller', 'event_target', 'perf', 'errors'].find((prefix) => top.startsWith(prefix)) ?? top)}`;
  }
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    const name = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    if (
      name === '@modelcontextprotocol/client' ||
      name === '@modelcontextprotocol/server' ||
      name === '@modelcontextprotocol/core'
    ) {
      return name;
    }
    return name.startsWith('@opentelemetry') ? '@opentelemetry/*' : name;
  }
  const original = originalOf(frame);
  if (original) {
    const path = original.originalSource.replace(/^.*?\/src\//, '');
    return `mcptools ${path.includes('/') ? path.split('/')[0] : path}`;
  }
  const dist = url.lastIndexOf('/dist/');
  if (dist >= 0) {
    const rest = url.slice(dist + '/dist/'.length);
    const folder = rest.includes('/') ? rest.split('/')[0] : rest;
    return `mcptools ${folder.replace(/\.js$/, '')}`;
  }
  return url.split('/').slice(-2).join('/');
}

/**
 * Self time of `profile` per layer and per function, in µs (from sample counts and the time
 * between samples). Returns `{ totalUs, layers: Map, functions: Map }`, each map sorted by time.
 */
export function profileLayers(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  for (let index = 0; index < profile.samples.length; index++) {
    const id = profile.samples[index];
    const delta = profile.timeDeltas[index + 1] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  }
  const layers = new Map();
  const functions = new Map();
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const { callFrame } = byId.get(id);
    const layer = layerOf(callFrame);
    if (layer === '(idle)') continue;
    totalUs += us;
    layers.set(layer, (layers.get(layer) ?? 0) + us);
    const original = originalOf(callFrame);
    const where = original
      ? `${original.originalSource.replace(/^.*?\/src\//, 'src/')}:${original.originalLine + 1}`
      : `${callFrame.url.split('/').slice(-2).join('/')}:${callFrame.lineNumber + 1}`;
    const key = `${callFrame.functionName || '(anonymous)'} ${where}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  const sorted = (map) => new Map([...map].sort((left, right) => right[1] - left[1]));
  return { totalUs, layers: sorted(layers), functions: sorted(functions) };
}

/**
 * Bytes allocated per layer and per function in a sampling heap profile (`.heapprofile`, from
 * `HeapProfiler.getSamplingProfile`): `{ totalBytes, layers: Map, functions: Map }`, sorted.
 */
export function allocationLayers(profile) {
  const layers = new Map();
  const functions = new Map();
  let totalBytes = 0;
  const visit = (node) => {
    const bytes = node.selfSize ?? 0;
    if (bytes > 0) {
      const { callFrame } = node;
      totalBytes += bytes;
      const layer = layerOf(callFrame);
      layers.set(layer, (layers.get(layer) ?? 0) + bytes);
      const original = originalOf(callFrame);
      const where = original
        ? `${original.originalSource.replace(/^.*?\/src\//, 'src/')}:${original.originalLine + 1}`
        : `${callFrame.url.split('/').slice(-2).join('/')}:${callFrame.lineNumber + 1}`;
      const key = `${callFrame.functionName || '(anonymous)'} ${where}`;
      functions.set(key, (functions.get(key) ?? 0) + bytes);
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(profile.head);
  const sorted = (map) => new Map([...map].sort((left, right) => right[1] - left[1]));
  return { totalBytes, layers: sorted(layers), functions: sorted(functions) };
}
