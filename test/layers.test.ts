import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SourceImport, sourceFiles, sourceImports } from './helpers/source-imports.js';

/*
 * The layers of src/ are written once, in the table of docs/architecture.md, and checked here
 * against every import of the source (type-only imports too: a type that points up a layer ties
 * the two folders as surely as a call does).
 */
const root = resolve(import.meta.dirname, '..');
const ENTRY = 'src/*.ts';

interface LayerRow {
  readonly layer: number;
  /** `null`: every folder on a lower layer. */
  readonly mayImport: ReadonlySet<string> | null;
}

/** The rows of the table under `## Layers`: folder name (`ENTRY` for the files of src/ itself) → row. */
function layerTable(): Map<string, LayerRow> {
  const page = readFileSync(resolve(root, 'docs/architecture.md'), 'utf8');
  const section = page.split(/^## Layers$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows = new Map<string, LayerRow>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const layer = Number(cells[1]);
    if (!Number.isInteger(layer) || layer < 1) continue;
    const folder = cells[2]?.replace(/`/g, '') ?? '';
    const name = folder === ENTRY ? ENTRY : folder.replace(/^src\//, '').replace(/\/$/, '');
    const allowed = cells[4] ?? '';
    const mayImport = allowed.startsWith('every lower layer')
      ? null
      : new Set([...allowed.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string));
    rows.set(name, { layer, mayImport });
  }
  return rows;
}

/** The folder of src/ a file belongs to: its first folder below src/, or `ENTRY`. */
const folderOf = (file: string): string => {
  const parts = file.split('/');
  return parts.length > 2 ? (parts[1] as string) : ENTRY;
};

const describeImport = (found: SourceImport) =>
  `${found.from}:${found.line} imports '${found.specifier}'${found.typeOnly ? ' (type only)' : ''}`;

/**
 * The groups of files that import one another, directly or around a loop (Tarjan's strongly
 * connected components of the import graph with more than one file, or one that imports itself).
 */
function importCycles(edges: readonly { from: string; to: string }[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const { from, to } of edges) graph.set(from, [...(graph.get(from) ?? []), to]);
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    low.set(file, order.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next))
        low.set(file, Math.min(low.get(file) as number, order.get(next) as number));
    }
    if (low.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.includes(file)) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return cycles;
}

/**
 * The rows of the table under `## Inside the gateway`: subfolder of src/gateway/ → the
 * subfolders it may import.
 */
function gatewayTable(): Map<string, ReadonlySet<string>> {
  const page = readFileSync(resolve(root, 'docs/architecture.md'), 'utf8');
  const section = page.split(/^## Inside the gateway$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows = new Map<string, ReadonlySet<string>>();
  for (const line of section.split('\n')) {
    const folder = /^\|\s*`gateway\/([a-z-]+)\/`\s*\|/.exec(line)?.[1];
    if (folder === undefined) continue;
    const allowed = line.split('|')[3] ?? '';
    rows.set(folder, new Set([...allowed.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string)));
  }
  return rows;
}

/** The subfolder of src/gateway/ a file is in, or `undefined` (outside the gateway, or at its top). */
const gatewayFolderOf = (file: string): string | undefined => {
  const parts = file.split('/');
  return parts[1] === 'gateway' && parts.length > 3 ? parts[2] : undefined;
};

const table = layerTable();
const insideGateway = gatewayTable();
const imports = sourceImports(root, 'src');

describe('the layers of src/ (docs/architecture.md)', () => {
  it('reads the table and the imports', () => {
    // The control: a table that failed to parse, or an import reader that found nothing,
    // would let every check below pass.
    expect(table.get('tool')).toEqual({ layer: 2, mayImport: new Set(['json']) });
    expect(table.get('cli')?.mayImport).toBeNull();
    expect(imports.length).toBeGreaterThan(1000);
    expect(imports.some((found) => found.typeOnly)).toBe(true);
    expect(imports).toContainEqual(
      expect.objectContaining({ from: 'src/index.ts', to: 'src/pipeline/tool-registry.ts' }),
    );
  });

  it('has a row for every folder of src/', () => {
    const folders = new Set(sourceFiles(root, 'src').map(folderOf));
    const missing = [...folders].filter((folder) => !table.has(folder));
    expect(missing, 'add a row for each to the layer table of docs/architecture.md').toEqual([]);
    const gone = [...table.keys()].filter((folder) => !folders.has(folder));
    expect(gone, 'rows of the layer table whose folder is gone').toEqual([]);
  });

  it('lets a folder import only folders on lower layers', () => {
    const wrong: string[] = [];
    for (const [folder, row] of table)
      for (const allowed of row.mayImport ?? []) {
        const below = table.get(allowed);
        if (below === undefined || below.layer >= row.layer)
          wrong.push(`${folder} (layer ${row.layer}) may import ${allowed} (layer ${below?.layer ?? '?'})`);
      }
    expect(wrong).toEqual([]);
  });

  it('keeps the registry below the pipeline that wraps it', () => {
    // The catalog hands tools out as registered; the pipeline extends it. An arrow back (even
    // for a type) would make the registry build or name the pipeline again.
    const registry = table.get('registry');
    const pipeline = table.get('pipeline');
    expect(registry?.mayImport?.has('pipeline')).toBe(false);
    expect(pipeline?.mayImport?.has('registry')).toBe(true);
    expect(
      imports.filter((found) => folderOf(found.from) === 'registry' && folderOf(found.to) === 'pipeline'),
    ).toEqual([]);
  });

  it('has no import that the table does not allow', () => {
    const forbidden: string[] = [];
    for (const found of imports) {
      const from = folderOf(found.from);
      const to = folderOf(found.to);
      if (from === to) continue;
      const row = table.get(from);
      const target = table.get(to);
      if (row === undefined || target === undefined) continue;
      const allowed = row.mayImport === null ? target.layer < row.layer : row.mayImport.has(to);
      if (!allowed)
        forbidden.push(`${describeImport(found)}: ${from} (layer ${row.layer}) may not import ${to}`);
    }
    expect(forbidden).toEqual([]);
  });

  it('has no import cycle between files, type-only imports included', () => {
    // The control: the finder sees a loop of three files and leaves a chain alone.
    const loop = [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'a' },
      { from: 'c', to: 'd' },
    ];
    expect(importCycles(loop)).toEqual([['a', 'b', 'c']]);
    const cycles = importCycles(imports).map((group) =>
      [
        group.join(' ⇄ '),
        ...imports
          .filter((found) => group.includes(found.from) && group.includes(found.to))
          .map((found) => `  ${describeImport(found)}`),
      ].join('\n'),
    );
    expect(cycles, 'move the type both files need into the file that owns it').toEqual([]);
  });
});

describe('the folders of src/gateway/ (docs/architecture.md)', () => {
  it('reads the table', () => {
    // The control: a table that failed to parse would let every check below pass.
    expect(insideGateway.get('auth')).toEqual(new Set());
    expect(insideGateway.get('http')?.has('auth')).toBe(true);
  });

  it('has a row for every folder of src/gateway/', () => {
    const folders = new Set(
      sourceFiles(root, 'src/gateway')
        .map(gatewayFolderOf)
        .filter((folder) => folder !== undefined),
    );
    expect([...folders].filter((folder) => !insideGateway.has(folder))).toEqual([]);
    expect([...insideGateway.keys()].filter((folder) => !folders.has(folder))).toEqual([]);
  });

  it('allows the arrows one way only: no two folders import each other, around any loop', () => {
    // A second arrow back needs a row that allows it, and the table then has a loop.
    const arrows = [...insideGateway].flatMap(([from, allowed]) => [...allowed].map((to) => ({ from, to })));
    expect(importCycles(arrows), 'move what both folders need to the one that owns it').toEqual([]);
  });

  it('has no folder that imports the files at the top of src/gateway/', () => {
    // The top wires the folders together: an import up to it (even of a type) ties a folder to
    // every other. What a folder needs of the core, it declares itself as an interface.
    const isTop = (file: string) => file.startsWith('src/gateway/') && file.split('/').length === 3;
    // The control: the top's own imports of the folders are seen, and are not counted; an
    // import from a folder up to the top would be.
    expect(imports).toContainEqual(
      expect.objectContaining({
        from: 'src/gateway/gateway-core.ts',
        to: 'src/gateway/resources/resource-host.ts',
      }),
    );
    expect(isTop('src/gateway/gateway-core.ts') && !isTop('src/gateway/calls/call-host.ts')).toBe(true);
    const upward = imports
      .filter((found) => gatewayFolderOf(found.from) !== undefined && isTop(found.to))
      .map(describeImport);
    expect(upward, 'declare what the folder needs of the core in the folder itself').toEqual([]);
  });

  it('has no import between its folders that the table does not allow', () => {
    const forbidden: string[] = [];
    for (const found of imports) {
      const from = gatewayFolderOf(found.from);
      const to = gatewayFolderOf(found.to);
      if (from === undefined || to === undefined || from === to) continue;
      if (!insideGateway.get(from)?.has(to))
        forbidden.push(`${describeImport(found)}: gateway/${from} may not import gateway/${to}`);
    }
    expect(forbidden).toEqual([]);
  });
});
