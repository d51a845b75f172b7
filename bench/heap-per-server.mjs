// What each side keeps per connected server, by kind of object: heap snapshots before and
// after connecting N stdio servers (after a warm-up round of the same size, as the memory
// benchmark does), and the objects new in the second snapshot grouped by constructor or
// closure name, per server. With `--marginal`, what one more server keeps: after two warm-up
// rounds of 2N, the objects new with 2N servers open minus those new with N, per server (what
// is made once per process, on the first connects, cancels out).
// With `--output-schema`, the servers' tool declares an output schema and each server gets one
// call before the snapshot (the client checks the result against it). With `--tools=K`, each
// server is the minimal echo server listing K tools (what each tool keeps is then K times in the
// per-server figures).
//   node bench/heap-per-server.mjs [servers=20] [--sides=sdk,mcptools] [--top=40] [--marginal]
//     [--output-schema] [--tools=K]
// Needs `npm run build`. Each side runs in a child process of its own (`--expose-gc`).
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeHeapSnapshot } from 'node:v8';

const SELF = fileURLToPath(import.meta.url);
const positional = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const flag = (name, fallback) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

if (positional[0] === 'child') {
  await child(
    positional[1],
    Number(positional[2]),
    positional[3],
    positional[4] === 'marginal',
    positional[5],
  );
} else {
  const servers = Number(positional[0] ?? 20);
  const top = Number(flag('top', 40));
  const marginal = process.argv.includes('--marginal');
  const results = {};
  for (const side of flag('sides', 'sdk,mcptools').split(',')) {
    const out = join(tmpdir(), `heap-per-server-${process.pid}-${side}.json`);
    const args = ['--expose-gc', SELF, 'child', side, String(servers), out, marginal ? 'marginal' : 'once'];
    if (process.argv.includes('--output-schema')) args.push('output-schema');
    if (flag('tools') !== undefined) args.push(`--tools=${flag('tools')}`);
    execFileSync(process.execPath, args, {
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: 300_000,
    });
    results[side] = JSON.parse(readFileSync(out, 'utf8'));
    rmSync(out, { force: true });
  }
  for (const [side, groups] of Object.entries(results)) {
    const total = groups.reduce((sum, group) => sum + group.bytes, 0);
    // Code (compiled by the JIT whenever it likes) and Node's native and synthetic nodes swing
    // from run to run; the JS objects alone are the same to 0.01 KiB from run to run.
    const objects = groups
      .filter((group) => !/^(code|native|synthetic)\b/.test(group.key))
      .reduce((sum, group) => sum + group.bytes, 0);
    // Grouped by anchor (HEAP_ANCHOR=1), the keys no longer say what each object is.
    const split =
      process.env.HEAP_ANCHOR === '1'
        ? ''
        : `, of which ${(objects / servers / 1024).toFixed(2)} KiB JS objects (not code, native or synthetic)`;
    const what = marginal ? 'kept by each server beyond the first N' : 'of new objects per server';
    console.log(
      `\n${side}: ${(total / servers / 1024).toFixed(1)} KiB ${what} (self sizes)${split}; top ${top}`,
    );
    for (const group of groups.slice(0, top))
      console.log(
        `${(group.bytes / servers).toFixed(0).padStart(7)} B ${(group.count / servers).toFixed(1).padStart(6)} × ${group.key}`,
      );
  }
}

async function child(side, size, out, marginal, outputSchema) {
  const byRetainer = process.env.HEAP_BY_RETAINER === '1';
  const { echoStdioCommand, minimalEchoStdioCommand } = await import('./lib/servers.mjs');
  const { loadSides } = await import('./lib/sides.mjs');
  const { sides } = await loadSides([side]);
  const serverArgs = outputSchema === 'output-schema' ? ['--output-schema'] : [];
  const tools = flag('tools');
  const command = () =>
    tools === undefined ? echoStdioCommand(serverArgs) : minimalEchoStdioCommand(['--tools', tools]);
  const targets = (count) => Array.from({ length: count }, () => ({ stdio: command() }));
  /** Opens `count` servers; with output schemas, calls each once. */
  const open = async (count) => {
    const handle = await sides[0].open(targets(count));
    if (serverArgs.length > 0)
      await Promise.all(Array.from({ length: count }, (_, index) => handle.call(index, 'x')));
    return handle;
  };
  const { fullCollection } = await import('./lib/full-collection.mjs');
  const collect = () => fullCollection();
  const snapshot = (name) => writeHeapSnapshot(join(tmpdir(), `heap-${process.pid}-${name}.heapsnapshot`));
  /** The objects of the snapshot `file` not in the snapshot `before`, grouped: key → { key, count, bytes }. */
  const groupsOf = (file, before) => {
    // Read only now: a set of ids held while `file` was taken would be counted in it.
    const known = new Set(nodes(before).map((node) => node.id));
    const groups = new Map();
    for (const node of nodes(file, known)) {
      if (known.has(node.id)) continue;
      const key =
        process.env.HEAP_ANCHOR === '1'
          ? node.retainer
          : byRetainer
            ? `${node.key}  ←  ${node.retainer}`
            : node.key;
      const group = groups.get(key) ?? { key, count: 0, bytes: 0 };
      group.count++;
      group.bytes += node.size;
      groups.set(key, group);
    }
    rmSync(file);
    return groups;
  };
  /**
   * Opens `count` servers, snapshots the heap, and closes them; resolves the snapshot's file.
   * Every snapshot is taken before any is read: what reading one builds (its groups) would be
   * new objects in the next.
   */
  const measure = async (count) => {
    const handle = await open(count);
    await collect();
    const file = snapshot(`after-${count}`);
    await handle.close();
    await collect();
    return file;
  };
  // Marginal: after two warm-up rounds of 2N, (what 2N servers keep − what N keep) / N, so that
  // everything made once per process (code, hidden classes, feedback) cancels out.
  for (let round = 0; round < (marginal ? 2 : 1); round++) {
    await (await open(marginal ? 2 * size : size)).close();
  }
  await collect();
  const before = snapshot('before');
  const onceFile = await measure(size);
  const twiceFile = marginal ? await measure(2 * size) : undefined;
  let groups = groupsOf(onceFile, before);
  if (twiceFile !== undefined) {
    const twice = groupsOf(twiceFile, before);
    for (const [key, group] of groups) {
      const more = twice.get(key) ?? { key, count: 0, bytes: 0 };
      twice.set(key, { key, count: more.count - group.count, bytes: more.bytes - group.bytes });
    }
    groups = twice;
  }
  rmSync(before);
  const { writeFileSync } = await import('node:fs');
  writeFileSync(
    out,
    JSON.stringify([...groups.values()].sort((left, right) => Math.abs(right.bytes) - Math.abs(left.bytes))),
  );
}

/**
 * The nodes of a heap snapshot file as `{ id, size, key, retainer }`, `key` being type and
 * name; with `known` (ids of an earlier snapshot), `retainer` names the first object that
 * holds a node not in `known`, and the edge it holds it by.
 */
function nodes(file, known) {
  const snapshot = JSON.parse(readFileSync(file, 'utf8'));
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, idAt, sizeAt] = ['type', 'name', 'id', 'self_size'].map((field) =>
    fields.indexOf(field),
  );
  const rows = [];
  const edgeFields = snapshot.snapshot.meta.edge_fields;
  const edgeTypes = snapshot.snapshot.meta.edge_types[0];
  const edgeWidth = edgeFields.length;
  const countAt = fields.indexOf('edge_count');
  const retainers = new Map();
  if (known) {
    let edge = 0;
    for (let index = 0; index < snapshot.nodes.length; index += width) {
      const count = snapshot.nodes[index + countAt];
      for (let at = edge; at < edge + count * edgeWidth; at += edgeWidth) {
        const type = edgeTypes[snapshot.edges[at]];
        if (type === 'weak' || type === 'shortcut') continue;
        const target = snapshot.edges[at + 2];
        if (retainers.has(target)) continue;
        const nameOrIndex = snapshot.edges[at + 1];
        const edgeName =
          type === 'element' || type === 'hidden' ? `[${nameOrIndex}]` : snapshot.strings[nameOrIndex];
        retainers.set(target, { source: index, edgeName });
      }
      edge += count * edgeWidth;
    }
  }
  const depth = Number(process.env.HEAP_RETAINER_DEPTH ?? 1);
  const label = (index) =>
    `${types[snapshot.nodes[index + typeAt]]} ${snapshot.strings[snapshot.nodes[index + nameAt]].slice(0, 40)}`;
  const chain = (index) => {
    const links = [];
    for (let at = index, step = 0; step < depth; step++) {
      const link = retainers.get(at);
      if (link === undefined) break;
      links.push(`${label(link.source)} .${link.edgeName}`);
      at = link.source;
    }
    return links.join('  ←  ');
  };
  // The nearest holder with a class of its own (not a plain object, array, context or closure).
  const plain =
    /^(object (Object|Array|Map|Set|WeakMap|system \/ .*|shape .*)|array .*|closure.*|hidden .*|string.*|concatenated.*|sliced.*|code.*|number.*)$/;
  const anchor = (index) => {
    for (let at = index, step = 0; step < 12; step++) {
      const link = retainers.get(at);
      if (link === undefined) break;
      const name = label(link.source);
      if (!plain.test(name)) return `${name} .${link.edgeName}`;
      at = link.source;
    }
    return process.env.HEAP_UNANCHORED === '1' ? `? ${chain(index)}` : '?';
  };
  for (let index = 0; index < snapshot.nodes.length; index += width) {
    const type = types[snapshot.nodes[index + typeAt]];
    let name = snapshot.strings[snapshot.nodes[index + nameAt]];
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string') name = '';
    if (name.length > 60) name = `${name.slice(0, 60)}…`;
    rows.push({
      id: snapshot.nodes[index + idAt],
      size: snapshot.nodes[index + sizeAt],
      key: `${type} ${name}`,
      retainer: process.env.HEAP_ANCHOR === '1' ? anchor(index) : chain(index),
    });
  }
  return rows;
}
