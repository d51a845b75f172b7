// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} placeholders under test, not templates.
import { describe, expect, it } from 'vitest';
import { detectConfigFormat, formatFromFileName } from '../../src/config/detect-config-format.js';
import { parseConfig } from '../../src/config/parse-config.js';

describe('detectConfigFormat', () => {
  it.each([
    [{ servers: {} }, undefined, 'mcptools'],
    [{ servers: {}, namespace: {} }, undefined, 'mcptools'],
    [{ servers: {}, inputs: [] }, undefined, 'vscode'],
    [{ servers: { a: { type: 'stdio', command: 'x', envFile: '.env' } } }, undefined, 'vscode'],
    [{ servers: { a: { url: 'https://x/', headers: { A: '${input:key}' } } } }, undefined, 'vscode'],
    [{ servers: { a: { command: 'x' } } }, '/p/.vscode/mcp.json', 'vscode'],
    [{ servers: { a: { command: 'x' }, inputs: [] } }, '/p/mcptools.json', 'mcptools'],
    [{ mcpServers: { a: { command: 'x' } } }, undefined, 'claude-desktop'],
    [{ mcpServers: { a: { type: 'stdio', command: 'x' } } }, undefined, 'claude-code'],
    [{ mcpServers: { a: { serverUrl: 'https://x/' } } }, undefined, 'windsurf'],
    [{ mcpServers: { a: { type: 'stdio', command: 'x' } } }, '/p/.cursor/mcp.json', 'cursor'],
    [{ mcpServers: {} }, '/h/.codeium/windsurf/mcp_config.json', 'windsurf'],
    [{ mcpServers: {} }, '/p/mcptools.json', 'claude-desktop'],
    [{ mcp_servers: {} }, undefined, 'codex'],
    [{ model: 'o3' }, '/h/.codex/config.toml', 'codex'],
    [{ globalShortcut: 'x' }, '/h/Claude/claude_desktop_config.json', 'claude-desktop'],
    [{ hello: 1 }, '/p/other.json', undefined],
    ['text', undefined, undefined],
  ])('%j in %s is %s', (value, file, format) => {
    expect(detectConfigFormat(value, file)).toBe(format);
  });

  it('knows each client file name', () => {
    expect(formatFromFileName('/x/mcp.json')).toBeUndefined();
    expect(formatFromFileName('/x/.mcp.json')).toBe('claude-code');
  });
});

describe('warnings', () => {
  it('go to process.emitWarning with code MCPTOOLS_CONFIG when no onWarning is given', async () => {
    const warned = new Promise<Error & { code?: string }>((resolve) => process.once('warning', resolve));
    parseConfig({ mcpServers: { a: { command: 'x', alwaysAllow: [] } } }, { env: {} });
    const warning = await warned;
    expect(warning.code).toBe('MCPTOOLS_CONFIG');
    expect(warning.message).toBe('config: server "a": field "alwaysAllow": not used by mcptools, ignored');
  });
});
