import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One fenced code block of a Markdown page. */
export interface DocBlock {
  /** The page, relative to the repository (`docs/gateway.md`). */
  file: string;
  /** The line of its opening fence. */
  line: number;
  language: string;
  text: string;
  /** Where it is quoted in a failure: `docs/gateway.md:22`. */
  where: string;
  /** Why the block is only type-checked, from a `<!-- doc-test: type-check only: WHY -->` line before it. */
  typeCheckOnly?: string;
}

/** The README and every page under `docs/`, relative to `root`. */
export function docPages(root: string): string[] {
  const pages = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) pages.push(relative(root, path));
    }
  };
  walk(join(root, 'docs'));
  return pages.sort();
}

/** Every fenced block (```lang … ```) of `file`. */
export function docBlocks(root: string, file: string): DocBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\S*)\s*$/.exec(lines[index] as string);
    if (!open) continue;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && !(lines[index] as string).startsWith('```'); index++)
      body.push(lines[index] as string);
    const marker = /^<!-- doc-test: type-check only: (.+) -->$/.exec(lines[start - 1] ?? '');
    blocks.push({
      file,
      line: start + 1,
      language: open[1] ?? '',
      text: `${body.join('\n')}\n`,
      where: `${file}:${start + 1}`,
      ...(marker ? { typeCheckOnly: marker[1] } : {}),
    });
  }
  return blocks;
}
