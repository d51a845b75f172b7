// The peer MCP clients a user would pick instead of mcptools — mcporter, Mastra (@mastra/mcp),
// LangChain (@langchain/mcp-adapters) — as benchmark sides (see sides.mjs). They live in
// bench/peers with their own package.json, never in mcptools' dependencies; the first run
// installs them there (`npm install --prefix bench/peers`).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PEERS = fileURLToPath(new URL('../peers/', import.meta.url));

/** Installs bench/peers once, when its node_modules is missing. */
function ensureInstalled() {
  if (existsSync(`${PEERS}node_modules/.package-lock.json`)) return;
  console.log('installing the benchmark peers into bench/peers (npm install, once)…');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['install', '--prefix', PEERS, '--no-audit', '--no-fund', '--legacy-peer-deps'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Imports `specifier` as resolved from bench/peers (ESM entry). */
async function importPeer(specifier) {
  const root = `${PEERS}node_modules/${specifier}/`;
  const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
  const exported = manifest.exports?.['.'];
  const entry =
    (typeof exported === 'string'
      ? exported
      : (exported?.import?.default ?? exported?.import ?? exported?.default)) ??
    manifest.module ??
    manifest.main;
  return import(pathToFileURL(root + entry).href);
}

function textOf(result) {
  const text = result?.content?.[0]?.text;
  if (typeof text !== 'string' || result?.isError)
    throw new Error(`not an echo: ${JSON.stringify(result).slice(0, 200)}`);
  return text;
}

const silent = { info() {}, warn() {}, error() {}, debug() {} };

const FACTORIES = {
  async mcporter() {
    const { createRuntime } = await importPeer('mcporter');
    return {
      name: 'mcporter',
      async open(targets) {
        const servers = targets.map((target, index) => ({
          name: `echo${index}`,
          command: target.stdio
            ? { kind: 'stdio', command: target.stdio.command, args: target.stdio.args, cwd: process.cwd() }
            : { kind: 'http', url: new URL(target.url) },
        }));
        const runtime = await createRuntime({ servers, logger: silent });
        await Promise.all(servers.map((server) => runtime.listTools(server.name)));
        return {
          // mcporter and the LangChain adapters run the SDK v1 client: 2025 era only.
          era: 'legacy',
          call: async (index, text) =>
            textOf(await runtime.callTool(`echo${index}`, 'echo', { args: { text } })),
          close: () => runtime.close(),
        };
      },
    };
  },
  async mastra() {
    const { MCPClient } = await importPeer('@mastra/mcp');
    return {
      name: 'mastra',
      async open(targets) {
        const servers = Object.fromEntries(
          targets.map((target, index) => [
            `echo${index}`,
            target.stdio
              ? { command: target.stdio.command, args: target.stdio.args, stderr: 'ignore' }
              : { url: new URL(target.url) },
          ]),
        );
        const client = new MCPClient({ id: `bench-${Math.random().toString(36).slice(2)}`, servers });
        const tools = await client.listTools();
        const byIndex = targets.map((_target, index) => tools[`echo${index}_echo`]);
        if (byIndex.some((tool) => tool === undefined))
          throw new Error(`mastra: tools ${Object.keys(tools)}`);
        return {
          // @mastra/mcp 2 runs the SDK v2 client in its `auto` mode (sibling probe over stdio).
          era: 'modern (auto)',
          call: async (index, text) => textOf(await byIndex[index].execute({ text }, {})),
          close: () => client.disconnect(),
        };
      },
    };
  },
  async langchain() {
    const { MultiServerMCPClient } = await importPeer('@langchain/mcp-adapters');
    return {
      name: 'langchain',
      async open(targets) {
        const mcpServers = Object.fromEntries(
          targets.map((target, index) => [
            `echo${index}`,
            target.stdio
              ? {
                  transport: 'stdio',
                  command: target.stdio.command,
                  args: target.stdio.args,
                  stderr: 'ignore',
                }
              : { transport: 'http', url: target.url },
          ]),
        );
        const client = new MultiServerMCPClient({ mcpServers, useStandardContentBlocks: false });
        const perServer = await Promise.all(targets.map((_target, index) => client.getTools(`echo${index}`)));
        const byIndex = perServer.map((tools) => tools.find((tool) => tool.name.endsWith('echo')));
        return {
          era: 'legacy',
          call: async (index, text) => {
            const result = await byIndex[index].invoke({ text });
            const value = Array.isArray(result) ? result[0] : result;
            return typeof value === 'string' ? value : textOf({ content: value });
          },
          close: () => client.close(),
        };
      },
    };
  },
};

/** Loads the named peers (installing bench/peers first if needed); `{ sides, skipped }`. */
export async function loadPeers(names) {
  const sides = {};
  const skipped = {};
  try {
    ensureInstalled();
  } catch (error) {
    for (const name of names) skipped[name] = `bench/peers install failed: ${error.message}`;
    return { sides, skipped };
  }
  for (const name of names) {
    try {
      sides[name] = await FACTORIES[name]();
    } catch (error) {
      skipped[name] = error instanceof Error ? error.message.split('\n')[0] : String(error);
    }
  }
  return { sides, skipped };
}
