// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are the hosts' ${VAR} references under test, not templates.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectHost, type HostCommandOptions, undoHost } from '../../src/hosts/connect-host.js';
import type { ConnectTarget } from '../../src/hosts/connect-target.js';
import { hostBackupPath } from '../../src/hosts/host-backups.js';
import { HOSTS, type HostDefinition, hostDefinition } from '../../src/hosts/host-definitions.js';
import { importHost } from '../../src/hosts/import-host.js';
import { listHosts } from '../../src/hosts/list-hosts.js';

const STDIO: Extract<ConnectTarget, { kind: 'stdio' }> = {
  kind: 'stdio',
  command: '/opt/node/bin/node',
  args: [
    '/opt/mcptools/dist/cli/main.cjs',
    'serve',
    '--stdio',
    '--config',
    '/home/u/.config/mcptools/mcptools.json',
  ],
};
const TOKEN = 'canary-token-5f1c9e';

let scratch: string;
let options: HostCommandOptions;

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'mcptools-connect-'));
  const home = join(scratch, 'home');
  mkdirSync(home);
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    PATH: join(scratch, 'bin'),
    MCPTOOLS_TOKEN: TOKEN,
  };
  options = { env, platform: 'linux' };
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** A file each host could have: comments where the format allows them, another server, other settings. */
function existingFile(host: HostDefinition): string {
  if (host.format === 'toml')
    return '# my Codex settings\nmodel = "o3" # the model\n\n[mcp_servers.notes]\ncommand = "npx" # pinned\nargs = ["-y", "notes-mcp"]\n\n[profiles.fast]\nmodel = "o4-mini"\n';
  const servers = `{\n    // a server of my own\n    "notes": { "command": "npx", "args": ["-y", "notes-mcp"] }\n  }`;
  const nested =
    host.serversPath.length === 2 ? `{\n    "servers": ${servers.replaceAll('\n', '\n  ')}\n  }` : servers;
  return `// ${host.name} settings, edited by hand\n{\n  "theme": "dark", /* kept */\n  "${host.serversPath[0]}": ${nested},\n  "trailing": [1, 2,],\n}\n`;
}

/** The host's server map as the host reads it. */
function serversIn(host: HostDefinition, text: string): Record<string, Record<string, unknown>> {
  let node = (host.format === 'toml' ? parseToml(text) : parseJsonc(text)) as Record<string, unknown>;
  for (const key of host.serversPath) node = node[key] as Record<string, unknown>;
  return node as Record<string, Record<string, unknown>>;
}

function writeHostFile(host: HostDefinition, text: string): string {
  const file = host.configFile(options);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

describe.each(HOSTS.map((host) => [host.id, host] as const))('connect %s', (_id, host) => {
  it('adds mcptools beside what the file had, comments kept, and --undo gives the same bytes back', () => {
    const before = existingFile(host);
    const file = writeHostFile(host, before);
    const connected = connectHost(host, STDIO, options);
    expect(connected.file).toBe(file);
    const after = readFileSync(file, 'utf8');
    const servers = serversIn(host, after);
    expect(servers['mcptools-stdio']).toMatchObject({ command: STDIO.command, args: STDIO.args });
    expect(servers.notes).toMatchObject({ command: 'npx', args: ['-y', 'notes-mcp'] });
    // Comments and the other settings are where they were.
    for (const kept of host.format === 'toml'
      ? ['# my Codex settings', '# the model', '# pinned', '[profiles.fast]']
      : ['// a server of my own', '/* kept */', '"trailing": [1, 2,]'])
      expect(after).toContain(kept);
    expect(undoHost(host, options)).toEqual([{ file, outcome: 'exact' }]);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(existsSync(hostBackupPath(host.id, options.env))).toBe(false);
  });

  it('creates the file when the host has none, and --undo removes it and the folders it made', () => {
    const file = host.configFile(options);
    connectHost(host, STDIO, options);
    expect(serversIn(host, readFileSync(file, 'utf8'))['mcptools-stdio']).toMatchObject({
      command: STDIO.command,
    });
    // A new file may come to hold tokens: owner-only, like the undo record.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(hostBackupPath(host.id, options.env)).mode & 0o777).toBe(0o600);
    undoHost(host, options);
    expect(existsSync(file)).toBe(false);
    if (dirname(file) !== options.env.HOME) expect(existsSync(dirname(file))).toBe(false);
    expect(existsSync(options.env.HOME!)).toBe(true);
  });

  it('stdio then HTTP, then one --undo: the bytes before the first connect', () => {
    const before = existingFile(host);
    const file = writeHostFile(host, before);
    connectHost(host, STDIO, options);
    const http = { kind: 'http' as const, url: 'http://127.0.0.1:8808/mcp' };
    connectHost(host, http, options);
    const servers = serversIn(host, readFileSync(file, 'utf8'));
    expect(Object.keys(servers)).toEqual(expect.arrayContaining(['notes', 'mcptools-stdio', 'mcptools']));
    expect(JSON.stringify(servers.mcptools)).toContain('http');
    undoHost(host, options);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('--undo after the host changed the file takes back only mcptools’ entry', () => {
    const file = writeHostFile(host, existingFile(host));
    connectHost(host, STDIO, options);
    // The host adds a server of its own after connect (here: its own format, appended by hand).
    const changed =
      host.format === 'toml'
        ? `${readFileSync(file, 'utf8')}\n[mcp_servers.later]\ncommand = "later-mcp"\n`
        : readFileSync(file, 'utf8').replace('"theme": "dark",', '"theme": "light",');
    writeFileSync(file, changed);
    expect(undoHost(host, options)).toEqual([{ file, outcome: 'entries' }]);
    const text = readFileSync(file, 'utf8');
    const servers = serversIn(host, text);
    expect(servers['mcptools-stdio']).toBeUndefined();
    expect(servers.notes).toBeDefined();
    if (host.format === 'toml') expect(servers.later).toEqual({ command: 'later-mcp' });
    else expect(text).toContain('"theme": "light"');
  });
});

describe('connect --http and the token', () => {
  const http = { kind: 'http' as const, url: 'http://127.0.0.1:8808/mcp', tokenEnv: 'MCPTOOLS_TOKEN' };
  const references: Record<string, string> = {
    'claude-code': '${MCPTOOLS_TOKEN}',
    cursor: '${env:MCPTOOLS_TOKEN}',
    vscode: '${env:MCPTOOLS_TOKEN}',
    windsurf: '${env:MCPTOOLS_TOKEN}',
    'gemini-cli': '${MCPTOOLS_TOKEN}',
    openclaw: '${MCPTOOLS_TOKEN}',
  };
  it.each(Object.entries(references))(
    '%s gets a reference to the variable, never the token',
    (id, reference) => {
      const host = hostDefinition(id);
      connectHost(host, http, options);
      const text = readFileSync(host.configFile(options), 'utf8');
      expect(text).not.toContain(TOKEN);
      expect(JSON.stringify(serversIn(host, text).mcptools)).toContain(`Bearer ${reference}`);
    },
  );

  it('codex names the variable in bearer_token_env_var', () => {
    const host = hostDefinition('codex');
    connectHost(host, http, options);
    const text = readFileSync(host.configFile(options), 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(serversIn(host, text).mcptools).toEqual({ url: http.url, bearer_token_env_var: 'MCPTOOLS_TOKEN' });
  });

  it('Claude Desktop, which interpolates nothing, is refused a token and its file left alone', () => {
    const host = hostDefinition('claude-desktop');
    expect(() => connectHost(host, http, options)).toThrow(/Claude Desktop cannot read a token/);
    expect(existsSync(host.configFile(options))).toBe(false);
    // Control: without a token it bridges through mcp-remote.
    connectHost(host, { kind: 'http', url: http.url }, options);
    expect(serversIn(host, readFileSync(host.configFile(options), 'utf8')).mcptools).toEqual({
      command: 'npx',
      args: ['-y', 'mcp-remote', http.url],
    });
  });
});

describe('a host rewriting its file while connect writes it', () => {
  const host = hostDefinition('claude-code');
  const hostWrites = (n: number) => `{"numStartups": ${n}, "mcpServers": {}}\n`;

  it('is retried once from the new content when the file changed between read and write', () => {
    const file = writeHostFile(host, hostWrites(1));
    let writes = 0;
    connectHost(host, STDIO, {
      ...options,
      beforeWrite: () => {
        if (writes++ === 0) writeFileSync(file, hostWrites(2));
      },
    });
    const written = parseJsonc(readFileSync(file, 'utf8'));
    // The host's own change survives, and mcptools' entry is in.
    expect(written.numStartups).toBe(2);
    expect(written.mcpServers['mcptools-stdio']).toBeDefined();
    // The undo baseline is what the retry read (the host's change), byte for byte.
    const record = JSON.parse(readFileSync(hostBackupPath(host.id, options.env), 'utf8'));
    expect(record.files).toHaveLength(1);
    expect(Buffer.from(record.files[0].before, 'base64').toString('utf8')).toBe(hostWrites(2));
    undoHost(host, options);
    expect(readFileSync(file, 'utf8')).toBe(hostWrites(2));
  });

  it('is refused with a message when it changes again, nothing written and no undo record left', () => {
    const file = writeHostFile(host, hostWrites(1));
    let n = 1;
    expect(() =>
      connectHost(host, STDIO, { ...options, beforeWrite: () => writeFileSync(file, hostWrites(++n)) }),
    ).toThrow(
      /changed twice while mcptools was writing it \(Claude Code may be running.*nothing was written/,
    );
    expect(readFileSync(file, 'utf8')).toBe(hostWrites(n));
    expect(existsSync(hostBackupPath(host.id, options.env))).toBe(false);
    expect(readdirTemp(dirname(file))).toEqual([]);
  });
});

/** Temporary files mcptools left beside a host's file. */
function readdirTemp(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.includes('.mcptools-'));
}

describe('import', () => {
  const desktop = hostDefinition('claude-desktop');
  const configPath = () => join(options.env.XDG_CONFIG_HOME!, 'mcptools', 'mcptools.json');
  const hostText = `{
  "mcpServers": {
    "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": { "API_KEY": "\${API_KEY}" } },
    "docs": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer \${DOCS_TOKEN}" } },
    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] },
    "broken": { "note": "neither command nor url" },
    "mcptools-stdio": { "command": "mcptools", "args": ["serve", "--stdio"] }
  },
  "globalShortcut": "Ctrl+Space"
}
`;
  const mcptoolsText =
    '{\n  // mine\n  "servers": {\n    "memory": { "command": "uvx", "args": ["other-memory"] }\n  }\n}\n';

  it('copies the host’s servers into the user configuration, reports a clash and what it could not read', () => {
    writeHostFile(desktop, hostText);
    mkdirSync(dirname(configPath()), { recursive: true });
    writeFileSync(configPath(), mcptoolsText);
    const result = importHost(desktop, { ...options, configPath: configPath() });
    expect(result.imported).toEqual(['files', 'docs']);
    expect(result.clashes.map((clash) => clash.name)).toEqual(['memory']);
    expect(result.skipped).toEqual([{ name: 'broken', reason: 'has neither a command nor a URL' }]);
    const written = readFileSync(configPath(), 'utf8');
    expect(written).toContain('// mine');
    expect(parseJsonc(written).servers).toEqual({
      memory: { command: 'uvx', args: ['other-memory'] },
      files: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
        env: { API_KEY: '${API_KEY}' },
      },
      docs: {
        type: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer ${DOCS_TOKEN}' },
      },
    });
    // Without --replace the host's file is not touched.
    expect(readFileSync(desktop.configFile(options), 'utf8')).toBe(hostText);
  });

  it('--replace leaves mcptools the only entry but what it could not move; undo restores both files exactly', () => {
    const hostFile = writeHostFile(desktop, hostText);
    mkdirSync(dirname(configPath()), { recursive: true });
    writeFileSync(configPath(), mcptoolsText);
    const result = importHost(desktop, { ...options, configPath: configPath(), replace: STDIO });
    expect(result.removedFromHost).toEqual(['files', 'docs']);
    const servers = serversIn(desktop, readFileSync(hostFile, 'utf8'));
    expect(Object.keys(servers).sort()).toEqual(['broken', 'mcptools-stdio', 'memory']);
    expect(servers['mcptools-stdio']).toEqual({ command: STDIO.command, args: STDIO.args });
    expect(readFileSync(hostFile, 'utf8')).toContain('"globalShortcut": "Ctrl+Space"');
    const undone = undoHost(desktop, options);
    expect(undone.map((file) => file.outcome)).toEqual(['exact', 'exact']);
    expect(readFileSync(hostFile, 'utf8')).toBe(hostText);
    expect(readFileSync(configPath(), 'utf8')).toBe(mcptoolsText);
  });

  it('undo removes a user configuration that import created', () => {
    writeHostFile(desktop, hostText);
    importHost(desktop, { ...options, configPath: configPath() });
    expect(Object.keys(parseJsonc(readFileSync(configPath(), 'utf8')).servers)).toEqual([
      'files',
      'docs',
      'memory',
    ]);
    undoHost(desktop, options);
    expect(existsSync(configPath())).toBe(false);
  });

  it.each([
    [
      'cursor',
      {
        mcpServers: {
          gh: { url: 'https://gh.example/mcp', headers: { Authorization: 'Bearer ${env:GH_TOKEN}' } },
        },
      },
      { type: 'http', url: 'https://gh.example/mcp', headers: { Authorization: 'Bearer ${GH_TOKEN}' } },
    ],
    [
      'gemini-cli',
      { mcpServers: { gh: { httpUrl: 'https://gh.example/mcp', headers: { 'X-Key': '$GH_KEY' } } } },
      { type: 'streamable-http', url: 'https://gh.example/mcp', headers: { 'X-Key': '${GH_KEY}' } },
    ],
    [
      'vscode',
      { servers: { gh: { type: 'sse', url: 'https://gh.example/sse' } } },
      { type: 'sse', url: 'https://gh.example/sse' },
    ],
    [
      'windsurf',
      { mcpServers: { gh: { serverUrl: 'https://gh.example/mcp', disabled: true } } },
      { type: 'http', url: 'https://gh.example/mcp', enabled: false },
    ],
    [
      'openclaw',
      { mcp: { servers: { gh: { url: 'https://gh.example/mcp', transport: 'streamable-http' } } } },
      { type: 'streamable-http', url: 'https://gh.example/mcp' },
    ],
  ])('%s: its references and transport in mcptools terms', (id, file, expected) => {
    const host = hostDefinition(id);
    writeHostFile(host, JSON.stringify(file));
    importHost(host, { ...options, configPath: configPath() });
    expect(parseJsonc(readFileSync(configPath(), 'utf8')).servers.gh).toEqual(expected);
  });

  it('codex: bearer_token_env_var and env_http_headers become header references', () => {
    const codex = hostDefinition('codex');
    writeHostFile(
      codex,
      '[mcp_servers.gh]\nurl = "https://gh.example/mcp"\nbearer_token_env_var = "GH_TOKEN"\nenv_http_headers = { "X-Org" = "GH_ORG" }\n',
    );
    importHost(codex, { ...options, configPath: configPath() });
    expect(parseJsonc(readFileSync(configPath(), 'utf8')).servers.gh).toEqual({
      type: 'streamable-http',
      url: 'https://gh.example/mcp',
      headers: { 'X-Org': '${GH_ORG}', Authorization: 'Bearer ${GH_TOKEN}' },
    });
  });
});

describe('connect --list', () => {
  it('shows a host installed by its file or its command, and which have mcptools', () => {
    writeHostFile(hostDefinition('cursor'), '{"mcpServers": {}}');
    connectHost(hostDefinition('codex'), STDIO, options);
    mkdirSync(join(scratch, 'bin'));
    writeFileSync(join(scratch, 'bin', 'gemini'), '#!/bin/sh\n', { mode: 0o755 });
    const byHost = Object.fromEntries(listHosts(options).map((status) => [status.host, status]));
    expect(byHost.cursor).toMatchObject({ installed: true, fileExists: true, mcptools: [] });
    expect(byHost.codex).toMatchObject({ installed: true, mcptools: ['mcptools-stdio'] });
    expect(byHost['gemini-cli']).toMatchObject({
      installed: true,
      fileExists: false,
      binary: join(scratch, 'bin', 'gemini'),
    });
    expect(byHost.windsurf).toMatchObject({ installed: false, mcptools: [] });
  });
});

describe('where each host’s file is', () => {
  const home = '/home/u';
  it('follows the platform and the hosts’ own variables', () => {
    const files = (platform: NodeJS.Platform, env: Record<string, string>) =>
      Object.fromEntries(
        HOSTS.map((host) => [host.id, host.configFile({ env: { HOME: home, ...env }, platform })]),
      );
    expect(files('linux', {})).toEqual({
      'claude-code': '/home/u/.claude.json',
      'claude-desktop': '/home/u/.config/Claude/claude_desktop_config.json',
      cursor: '/home/u/.cursor/mcp.json',
      vscode: '/home/u/.config/Code/User/mcp.json',
      windsurf: '/home/u/.codeium/windsurf/mcp_config.json',
      'gemini-cli': '/home/u/.gemini/settings.json',
      codex: '/home/u/.codex/config.toml',
      openclaw: '/home/u/.openclaw/openclaw.json',
    });
    expect(files('darwin', {})).toMatchObject({
      'claude-desktop': '/home/u/Library/Application Support/Claude/claude_desktop_config.json',
      vscode: '/home/u/Library/Application Support/Code/User/mcp.json',
    });
    expect(files('win32', { USERPROFILE: home, APPDATA: '/appdata' })).toMatchObject({
      'claude-desktop': '/appdata/Claude/claude_desktop_config.json',
      vscode: '/appdata/Code/User/mcp.json',
    });
    expect(
      files('linux', {
        XDG_CONFIG_HOME: '/xdg',
        CLAUDE_CONFIG_DIR: '/cc',
        CODEX_HOME: '/cx',
        OPENCLAW_STATE_DIR: '/oc',
      }),
    ).toMatchObject({
      'claude-code': '/cc/.claude.json',
      'claude-desktop': '/xdg/Claude/claude_desktop_config.json',
      vscode: '/xdg/Code/User/mcp.json',
      codex: '/cx/config.toml',
      openclaw: '/oc/openclaw.json',
    });
  });
});

describe('files connect cannot or must not replace', () => {
  it('writes through a symbolic link to the file it points at, the link kept', () => {
    const host = hostDefinition('claude-code');
    const target = join(scratch, 'dotfiles', 'claude.json');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, '{}\n');
    symlinkSync(target, host.configFile(options));
    connectHost(host, STDIO, options);
    expect(lstatSync(host.configFile(options)).isSymbolicLink()).toBe(true);
    expect(parseJsonc(readFileSync(target, 'utf8')).mcpServers['mcptools-stdio']).toBeDefined();
    undoHost(host, options);
    expect(readFileSync(target, 'utf8')).toBe('{}\n');
  });

  it('refuses a JSON5-only OpenClaw file, naming the line and the way out, the file untouched', () => {
    const host = hostDefinition('openclaw');
    const text = '{\n  gateway: { port: 18789 },\n}\n';
    const file = writeHostFile(host, text);
    expect(() => connectHost(host, STDIO, options)).toThrow(
      /openclaw\.json: invalid JSON at line 2.*openclaw mcp set/,
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(existsSync(hostBackupPath(host.id, options.env))).toBe(false);
  });

  it('never quotes a broken file’s text in the error (it may hold a token)', () => {
    const host = hostDefinition('cursor');
    writeHostFile(host, `{"mcpServers": {"gh": {"headers": {"Authorization": "Bearer ${TOKEN}"}}} oops`);
    expect(() => connectHost(host, STDIO, options)).toThrow(/invalid JSON at line 1/);
    try {
      connectHost(host, STDIO, options);
    } catch (error) {
      expect(String(error)).not.toContain(TOKEN);
    }
  });
});

describe('an entry that is mcptools under another name', () => {
  // The CLI's entry file, in a folder whose name does not say mcptools (a clone named otherwise).
  const cli = '/opt/tools/dist/cli/main.cjs';
  const gateway = { command: '/opt/node/bin/node', args: [cli, 'serve', '--stdio'] };

  it('is not imported, and --list counts it as mcptools', () => {
    const host = hostDefinition('cursor');
    writeHostFile(
      host,
      JSON.stringify({ mcpServers: { gateway, notes: { command: 'npx', args: ['-y', 'notes-mcp'] } } }),
    );
    const configPath = join(options.env.XDG_CONFIG_HOME!, 'mcptools', 'mcptools.json');
    expect(importHost(host, { ...options, configPath, cliEntry: cli }).imported).toEqual(['notes']);
    expect(listHosts(options, cli).find((status) => status.host === 'cursor')?.mcptools).toEqual(['gateway']);
    // Control: without knowing the CLI's file, the same entry reads as an ordinary server.
    expect(listHosts(options).find((status) => status.host === 'cursor')?.mcptools).toEqual([]);
  });
});

describe('import --replace while the host rewrites its file', () => {
  it('refuses the host file, says the configuration was written and how to take it back; undo does', () => {
    const desktop = hostDefinition('claude-desktop');
    const text = '{"mcpServers": {"notes": {"command": "npx", "args": ["-y", "notes-mcp"]}}}\n';
    const file = writeHostFile(desktop, text);
    const configPath = join(options.env.XDG_CONFIG_HOME!, 'mcptools', 'mcptools.json');
    let n = 0;
    // The host writes its file at every write of mcptools'; the configuration's write is the first.
    const beforeWrite = () => {
      if (n++ > 0) writeFileSync(file, `${text.trimEnd()} \n`.repeat(1 + (n % 2)));
    };
    expect(() => importHost(desktop, { ...options, configPath, replace: STDIO, beforeWrite })).toThrow(
      /nothing was written.*copied into .*mcptools\.json already: `mcptools import claude-desktop --undo` takes them out/,
    );
    expect(parseJsonc(readFileSync(configPath, 'utf8')).servers.notes).toBeDefined();
    undoHost(desktop, options);
    expect(existsSync(configPath)).toBe(false);
  });
});
