import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse as parseToml } from 'smol-toml';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { parseJsonc } from '../../src/config/parse-jsonc.js';
import { cliBin } from '../cli/cli-process.js';
import { fixtureCommand } from '../fixtures/spawn-http.js';
import { type DocBlock, docBlocks, docPages } from './doc-blocks.js';

/*
 * No page lies: every code block of the README and docs/ is checked by what it is.
 * - JSON and TOML parse; outside docs/hosts/ (whose blocks are the hosts' own formats) each
 *   configuration is read by mcptools' own reader.
 * - TypeScript type-checks against the built package's declarations (`mcptools` and its
 *   subpaths resolve through package.json's `exports` to dist/*.d.ts, as a user's import does),
 *   then runs (transpiled by the TypeScript compiler the check already loaded, as plain
 *   JavaScript importing the built package as users do) in a folder whose `mcptools.json` names
 *   a fixture server; a block that listens on 8808 listens on any port. A block that cannot run here says why on the line before it
 *   (`<!-- doc-test: type-check only: it calls OpenAI's embeddings API -->`).
 * - Shell: every `mcptools` command and option exists in the built CLI's help, every
 *   `npm run` script in package.json, every file a `node`, `sh` or `npx vitest` line names in the
 *   repository. Host CLIs (claude, codex, gemini, openclaw) and `apt-get` are not run.
 */
const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const pages = docPages(root);
const blocks = pages.flatMap((page) => docBlocks(root, page));
const work = mkdtempSync(join(tmpdir(), 'mcptools-docs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every `${NAME}` a block refers to, set, so that its configuration reads as a user's would. */
const variablesOf = (text: string) =>
  Object.fromEntries([...text.matchAll(/\$\{(?:env:)?([A-Z_][A-Z0-9_]*)/g)].map((match) => [match[1], 'x']));
const of = (...languages: string[]) => blocks.filter((block) => languages.includes(block.language));
const hostPage = (block: DocBlock) => block.file.startsWith('docs/hosts/');

describe('the docs', () => {
  it('has code blocks to check (the extraction works)', () => {
    expect(of('ts').length).toBeGreaterThanOrEqual(5);
    expect(of('json').length).toBeGreaterThanOrEqual(10);
    expect(of('sh').length).toBeGreaterThanOrEqual(5);
  });

  it('starts every page under docs/ with summary and read_when front-matter', () => {
    for (const page of pages.filter((page) => page.startsWith('docs/'))) {
      const text = readFileSync(join(root, page), 'utf8');
      expect(text, page).toMatch(/^---\nsummary: \S.*\nread_when: \S.*\n---\n/);
    }
  });

  it('links only to files and headings that exist', () => {
    const slug = (heading: string) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replaceAll(' ', '-');
    for (const page of pages) {
      const text = readFileSync(join(root, page), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target as string)) continue;
        const [path, anchor] = (target as string).split('#');
        const file = path ? resolve(dirname(join(root, page)), path) : join(root, page);
        expect(existsSync(file), `${page} → ${target}`).toBe(true);
        if (anchor && file.endsWith('.md')) {
          const headings = [...readFileSync(file, 'utf8').matchAll(/^#+ (.*)$/gm)].map((match) =>
            slug(match[1] as string),
          );
          expect(headings, `${page} → ${target}`).toContain(anchor);
        }
      }
    }
  });

  it.each(of('json', 'jsonc').map((block) => [block.where, block] as const))('%s parses', (_where, block) => {
    const value = parseJsonc(block.text, block.where);
    // A lock file (`lockfileVersion`) lists servers too, but is no configuration.
    const isConfig =
      typeof value === 'object' &&
      value !== null &&
      !('lockfileVersion' in value) &&
      ('servers' in value || 'mcpServers' in value);
    if (isConfig && !hostPage(block)) {
      const config = parseConfig(value, { file: block.where, env: variablesOf(block.text) });
      expect(Object.keys(config.servers).length).toBeGreaterThan(0);
    }
  });

  it.each(of('toml').map((block) => [block.where, block] as const))(
    '%s parses, and as Codex TOML when it names servers',
    (_where, block) => {
      const value = parseToml(block.text);
      // Another program's settings (Podman's containers.conf) only parse.
      if (!('mcp_servers' in value)) return;
      const config = parseConfig(value, { file: join(work, '.codex', 'config.toml') });
      // The HTTP entry is `mcptools`, the stdio one `mcptools-stdio`.
      expect(Object.keys(config.servers)).toEqual([expect.stringMatching(/^mcptools(-stdio)?$/)]);
    },
  );
});

describe('the TypeScript blocks', () => {
  const blockDir = join(root, 'test', 'docs', '.blocks');
  const files = of('ts').map((block, index) => {
    const file = join(blockDir, `block-${index}.ts`);
    return { block, file };
  });

  it('type-check against the source', () => {
    rmSync(blockDir, { recursive: true, force: true });
    mkdirSync(blockDir, { recursive: true });
    for (const { block, file } of files) writeFileSync(file, `${block.text}\nexport {};\n`);
    const program = ts.createProgram(
      files.map(({ file }) => file),
      {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        skipLibCheck: true,
        types: ['node'],
      },
    );
    // The blocks' own diagnostics, against the declarations `npm run build` wrote (built first by
    // `npm test`): the source behind them is type-checked on its own by `npm run typecheck`, and
    // reading its ~600 files again here cost a third more CPU than the declarations.
    const sources = files.map(({ file }) => program.getSourceFile(file));
    expect(sources.every(Boolean), 'every block is in the program').toBe(true);
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...sources.flatMap((source) => [
        ...program.getSyntacticDiagnostics(source),
        ...program.getSemanticDiagnostics(source),
      ]),
    ];
    const problems = diagnostics.map((diagnostic) => {
      const index = files.findIndex(({ file }) => file === diagnostic.file?.fileName);
      const line = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line ?? 0;
      const where =
        index >= 0 ? `${files[index]?.block.file}:${(files[index]?.block.line ?? 0) + 1 + line}` : '?';
      return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  }, 120_000);

  it.each(files.flatMap(({ block }, index) => (block.typeCheckOnly ? [] : [[block.where, index] as const])))(
    '%s runs against a fixture server',
    async (_where, index) => {
      const { block } = files[index] as { block: DocBlock };
      // Inside the repository, so that the packages a block imports (openai, ai) resolve.
      const project = join(blockDir, `run-${index}`);
      mkdirSync(project, { recursive: true });
      const echo = fixtureCommand('echo');
      writeFileSync(
        join(project, 'mcptools.json'),
        JSON.stringify({ servers: { echo: { command: echo.command, args: echo.args } } }),
      );
      // `mcptools` and its subpaths resolve as a user's import does: the package's own name, from
      // inside it, is its `exports` in dist/ (built by `npm test` first), not tsc's source.
      const source = block.text.replaceAll('port: 8808', 'port: 0');
      // Transpiled here rather than by a loader in the child (tsx): a loader costs each run about
      // a third of a second of CPU, and the compiler is loaded already. Types only are removed.
      const { outputText } = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
        fileName: 'block.mts',
      });
      const file = join(project, 'block.mjs');
      writeFileSync(file, outputText);
      const { stderr } = await run(process.execPath, [file], {
        cwd: project,
        env: { ...process.env, HOME: project, MCPTOOLS_ERA_CACHE: 'off' },
        timeout: 90_000,
      });
      expect(stderr).not.toMatch(/Error|error:/);
    },
    120_000,
  );
});

describe('the shell blocks', () => {
  const lines = of('sh', 'bash').flatMap((block) =>
    block.text
      .replace(/\\\n\s*/g, ' ') // a command continued over lines is one command
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line !== '')
      .map((line) => ({ line, where: block.where })),
  );
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const helpOf = new Map<string, Promise<string>>();
  const help = (command: string) => {
    let text = helpOf.get(command);
    if (!text) {
      text = run(process.execPath, [cliBin, ...(command ? [command] : []), '--help']).then(
        ({ stdout }) => stdout,
      );
      helpOf.set(command, text);
    }
    return text;
  };

  it.each(lines.map(({ line, where }) => [`${where} ${line}`, line] as const))('%s', async (_name, line) => {
    // Variables set for the one command (`MCPTOOLS_TEST_WORKERS=1 npx vitest …`) are not the command.
    const all = line.split(/\s+/);
    const first = all.findIndex((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word));
    const words = all.slice(Math.max(0, first));
    const at = words.findIndex((word) => word === 'mcptools' || word.endsWith('/main.cjs'));
    if (words[0] === 'npm' && (words[1] === 'run' || words[1] === 'test' || words[1] === 'start')) {
      const script = words[1] === 'run' ? (words[2] as string) : words[1];
      expect(manifest.scripts, line).toHaveProperty(script);
    } else if (words[0] === 'node' && words[1]?.match(/\.(m?js|ts)$/)) {
      expect(existsSync(join(root, words[1])), line).toBe(true);
    } else if ((words[0] === 'sh' || words[0] === 'bash') && words[1]?.endsWith('.sh')) {
      expect(existsSync(join(root, words[1])), line).toBe(true);
    } else if (words[0] === 'npx' && words[1] === 'vitest') {
      for (const path of words.slice(2).filter((word) => word.endsWith('.ts')))
        expect(existsSync(join(root, path)), `${line}: ${path}`).toBe(true);
    } else if (at >= 0 && ['node', 'npx', 'mcptools'].includes(words[0] as string)) {
      const command = words[at + 1] ?? '';
      const commandHelp = await help(command.startsWith('-') ? '' : command);
      if (!command.startsWith('-'))
        expect(await help(''), line).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
      for (const option of words.filter((word) => /^--[a-z]/.test(word))) {
        const name = option.split('=')[0] as string;
        expect(`${commandHelp}${await help('')}`, `${line}: ${name}`).toContain(name);
      }
    } else {
      // A host's own CLI (claude, codex, gemini, openclaw), the system's package manager or the
      // shell itself: not installed here, or not run by a test.
      expect(words[0], line).toMatch(/^(claude|codex|gemini|openclaw|apt-get|npm|export|cd)$/);
    }
  });
});
