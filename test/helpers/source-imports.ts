import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One import of a source file: the file, the line, the specifier as written, and the file it names. */
export interface SourceImport {
  readonly from: string;
  readonly line: number;
  readonly specifier: string;
  readonly to: string;
  /** `import type`, `export type` or `import('…')` in a type: erased at run time, but still an arrow. */
  readonly typeOnly: boolean;
}

/** Every `.ts` file under `dir`, relative to `root`, with `/` separators, tests left out. */
export function sourceFiles(root: string, dir: string): string[] {
  const files: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) files.push(child);
    }
  };
  walk(dir);
  return files.sort();
}

/**
 * The relative imports of the `.ts` files under `dir` that name another file of the tree: static
 * imports and re-exports, `import()` calls with a literal specifier, and `import('…')` types.
 * Bare specifiers (packages, `node:`) are left out.
 */
export function sourceImports(root: string, dir: string): SourceImport[] {
  const imports: SourceImport[] = [];
  for (const file of sourceFiles(root, dir)) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const add = (literal: ts.Node, typeOnly: boolean): void => {
      if (!ts.isStringLiteralLike(literal) || !literal.text.startsWith('.')) return;
      const to = resolveSpecifier(root, file, literal.text);
      if (to === undefined) return;
      const line = source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1;
      imports.push({ from: file, line, specifier: literal.text, to, typeOnly });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node)) {
        add(node.moduleSpecifier, importIsTypeOnly(node));
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined) {
        add(node.moduleSpecifier, node.isTypeOnly || exportIsTypeOnly(node));
      } else if (ts.isImportTypeNode(node)) {
        const argument = node.argument;
        if (ts.isLiteralTypeNode(argument)) add(argument.literal, true);
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] !== undefined
      ) {
        add(node.arguments[0], false);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return imports;
}

function importIsTypeOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (clause === undefined) return false;
  if (clause.isTypeOnly) return true;
  if (clause.name !== undefined) return false;
  const bindings = clause.namedBindings;
  if (bindings === undefined || !ts.isNamedImports(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

function exportIsTypeOnly(node: ts.ExportDeclaration): boolean {
  const clause = node.exportClause;
  if (clause === undefined || !ts.isNamedExports(clause)) return false;
  return clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
}

/** `./x.js` from `src/a/b.ts` → `src/a/x.ts` (or `x/index.ts`); undefined when it names no source file. */
function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const stem = target.replace(/\.(js|ts|mjs|cjs)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}/index.ts`, target]) {
    if (existsSync(path.join(root, candidate)) && candidate.endsWith('.ts')) return candidate;
  }
  return undefined;
}
