import type { Command } from 'commander';
import { lazyAction } from './lazy-action.js';
import { durationOption, positiveIntegerOption } from './parse-option-value.js';

/**
 * Every `mcptools` command with its arguments, options and help, in one module so that
 * `--help` loads one file; each action lives in `commands/<name>-action.ts` and is imported
 * only when its command runs (start-up ≤ 150 ms).
 */
export function registerCommands(program: Command): void {
  // `mcptools servers`: connect every configured server and show its status; exit 3 if one failed.
  program
    .command('servers')
    .description(
      'connect every configured server and show its state, protocol, counts, connect time and last error',
    )
    .addHelpText(
      'after',
      '\nExit code 3 when a server is in error.\nExamples:\n  mcptools servers\n  mcptools servers --config .mcp.json --json',
    )
    .action(lazyAction(async () => (await import('./commands/servers-action.js')).serversAction));

  // `mcptools tools`: the unified tool list, MCP and native alike, or its ranking for a request.
  program
    .command('tools')
    .description('list every tool an agent would get, MCP and native alike')
    .option('--server <name>', 'only the tools of this server')
    .option('--search <request>', 'rank the tools for a request, as tool_index does')
    .option('--limit <n>', 'most tools with --search (default 10)', positiveIntegerOption)
    .option('--schemas', 'print each tool’s input schema')
    .addHelpText(
      'after',
      '\nExamples:\n  mcptools tools --server everything\n  mcptools tools --search "read a file" --limit 3\n  mcptools tools --schemas --json',
    )
    .action(lazyAction(async () => (await import('./commands/tools-action.js')).toolsAction));

  // `mcptools call TOOL [JSON | key=value …]`: call one tool and print its result.
  program
    .command('call')
    .description('call one tool by its exposed name (server__tool or server.tool)')
    .argument('<tool>', 'exposed tool name, e.g. everything__echo')
    .argument(
      '[arguments...]',
      'one JSON object, or key=value pairs typed by the tool’s schema (key=@file reads a file)',
    )
    .option('--timeout <ms>', 'call timeout in milliseconds (e.g. 5000 or 5e3)', durationOption)
    .option('--save <dir>', 'write images, audio and blobs of the result into this directory')
    .option('--format <format>', '"text" (default) or "compact" (the compact two-line format)')
    .addHelpText(
      'after',
      `
key=value: numbers, booleans, JSON objects and arrays follow the tool's schema.
Ctrl-C cancels the call upstream and exits 130.
Examples:
  mcptools call everything__echo message=hello
  mcptools call everything__add a=2 b=3
  mcptools call everything__echo '{"message":"hello"}' --json
  mcptools call files__write_file path=a.txt content=@notes.txt
  mcptools call everything__get-tiny-image --save ./out`,
    )
    .action(lazyAction(async () => (await import('./commands/call-action.js')).callAction));

  // `mcptools run FILE`: one code-mode script over every tool.
  program
    .command('run')
    .description('run a JavaScript or TypeScript file as run_script does (code mode)')
    .argument('<file>', 'the script (- reads standard input)')
    .addHelpText(
      'after',
      `
The file is the body of an async function: await tools["server__tool"](args) or
tools.server.tool(args); print(...) and return a JSON value. Limits: router.codeMode.
Examples:
  mcptools run report.js
  echo 'return (await tools.everything["get-sum"]({ a: 1, b: 2 }))' | mcptools run -`,
    )
    .action(lazyAction(async () => (await import('./commands/run-action.js')).runAction));

  // `mcptools resources [--server S]`: the resources (and templates) of every server.
  program
    .command('resources')
    .description('list the resources and resource templates of every server (or one)')
    .option('--server <name>', 'only this server')
    .option('--format <format>', '"text" (default) or "compact" (the compact two-line format)')
    .addHelpText(
      'after',
      '\nExamples:\n  mcptools resources\n  mcptools resources --server everything --json\n  mcptools resources --format compact',
    )
    .action(lazyAction(async () => (await import('./commands/resources-action.js')).resourcesAction));

  // `mcptools read SERVER URI`: read one resource.
  program
    .command('read')
    .description('read one resource of one server')
    .argument('<server>', 'server name, as in `mcptools servers`')
    .argument('<uri>', 'resource URI, as in `mcptools resources`')
    .option(
      '--max-bytes <n>',
      'cut text after this many bytes (UTF-8 safe, with a notice on stderr)',
      positiveIntegerOption,
    )
    .option('--out <file>', 'write the content (text, or decoded blob bytes) to this file')
    .option('--format <format>', '"text" (default) or "compact" (the compact two-line format)')
    .addHelpText(
      'after',
      '\nExamples:\n  mcptools read everything "demo://resource/static/document/architecture.md"\n  mcptools read files file:///tmp/photo.png --out photo.png\n  mcptools read everything demo://resource/static/document/architecture.md --max-bytes 200 --format compact',
    )
    .action(lazyAction(async () => (await import('./commands/read-action.js')).readAction));

  // `mcptools prompts [--server S]`: the prompts of every server.
  program
    .command('prompts')
    .description('list the prompts of every server (or one), with their arguments')
    .option('--server <name>', 'only this server')
    .addHelpText('after', '\nExamples:\n  mcptools prompts\n  mcptools prompts --server everything --json')
    .action(lazyAction(async () => (await import('./commands/prompts-action.js')).promptsAction));

  // `mcptools prompt SERVER NAME [key=value …]`: expand one prompt into its messages.
  program
    .command('prompt')
    .description('get one prompt of one server, expanded into its messages')
    .argument('<server>', 'server name')
    .argument('<name>', 'prompt name, as in `mcptools prompts`')
    .argument('[arguments...]', 'prompt arguments as key=value (key=@file reads a file)')
    .addHelpText(
      'after',
      '\nExamples:\n  mcptools prompt everything simple-prompt\n  mcptools prompt everything args-prompt city=Paris state=Texas --json',
    )
    .action(lazyAction(async () => (await import('./commands/prompt-action.js')).promptAction));

  // `mcptools config [--all]`: the configuration in use, secrets masked, each server's file named.
  program
    .command('config')
    .description('show the configuration in use: which file each server comes from, secrets masked')
    .option('--all', 'merge every config file found on this machine (the first file to name a server wins)')
    .addHelpText(
      'after',
      '\nNo server is started. Exit code 2 when a file is invalid.\nExamples:\n  mcptools config\n  mcptools config --all --json',
    )
    .action(lazyAction(async () => (await import('./commands/config-action.js')).configAction));

  // `mcptools doctor`: check every server and suggest a fix for each failure.
  program
    .command('doctor')
    .description(
      'check every server (or one): command on PATH, starts, era and protocol, time to first tools/list, a fix for each failure',
    )
    .argument('[server]', 'only this server')
    .addHelpText(
      'after',
      '\nExit code 3 when a server fails.\nExamples:\n  mcptools doctor\n  mcptools doctor github\n  mcptools doctor --config ~/.cursor/mcp.json --json',
    )
    .action(lazyAction(async () => (await import('./commands/doctor-action.js')).doctorAction));

  // `mcptools serve --stdio | --http [HOST:]PORT`: the gateway, every tool as one MCP server.
  program
    .command('serve')
    .description('serve every configured tool as one MCP server, over stdio or Streamable HTTP (both eras)')
    .option('--stdio', 'serve over stdin/stdout (for Claude Desktop, Cursor, …)')
    .option('--http <[host:]port>', 'serve Streamable HTTP at http://HOST:PORT/mcp (default host 127.0.0.1)')
    .option(
      '--mode <mode>',
      'full (every tool), router (router tools only) or hybrid (pinned tools + router tools)',
    )
    .option('--profile <name>', 'serve this profile of the configuration\'s "gateway.profiles"')
    .option('--token <token>', 'bearer token HTTP clients must send (default: MCPTOOLS_TOKEN)')
    .option(
      '--cluster <redis-url>',
      'run as one replica of a cluster sharing state in Redis (redis://HOST:PORT or unix:///path/redis.sock; key in MCPTOOLS_CLUSTER_KEY)',
    )
    .option(
      '--advertise <url>',
      'with --cluster: the URL other replicas reach this one at (http://10.0.0.5:8808)',
    )
    .option('--replica-id <id>', "with --cluster: this replica's id (default: random)")
    .option('--oauth-issuer <url>', 'accept OAuth access tokens from this issuer (with --oauth-audience)')
    .option('--oauth-audience <uri>', "this gateway's resource identifier, its /mcp URL: tokens must name it")
    .option('--oauth-jwks-url <url>', "the issuer's signing keys (default: from the issuer's metadata)")
    .option('--verbose', "log more: the MCP SDK's own notes besides state changes, clients and errors")
    .option('--metrics', 'serve GET /metrics in Prometheus text format (to owners and MCPTOOLS_SCRAPE_TOKEN)')
    .option('--log-format <format>', 'text (default) or json (one object per line on stderr)')
    .option('--watch', 're-read the configuration file when it changes (SIGHUP always does)')
    .option(
      '--list-wait <ms>',
      'with --http: how long a list waits for servers still connecting at start (default: gateway.listWaitMs, else 5000)',
      durationOption,
    )
    .addHelpText(
      'after',
      '\nExamples:\n  mcptools serve --stdio\n  mcptools serve --http 8808\n  MCPTOOLS_TOKEN=secret mcptools serve --http 0.0.0.0:8808 --mode router\n  MCPTOOLS_CLUSTER_KEY=$(openssl rand -base64 32) mcptools serve --http 8808 --cluster redis://127.0.0.1:6379 --advertise http://127.0.0.1:8808',
    )
    .action(lazyAction(async () => (await import('./commands/serve-action.js')).serveAction));

  // `mcptools demo`: the one-shot tour of the built-in configuration (three published servers and
  // native example tools): each server's status, the unified tool list and one search.
  program
    .command('demo')
    .description('run the built-in configuration once: three published MCP servers and native example tools')
    .addHelpText('after', '\nExamples:\n  mcptools demo\n  mcptools demo --json')
    .action(lazyAction(async () => (await import('./commands/demo-action.js')).demoAction));
}
