import { describe, expect, it } from 'vitest';
import { serverOfToolName } from '../../src/cli/server-of-tool-name.js';
import type { McpToolsConfig } from '../../src/config/config-types.js';

const stdio = { type: 'stdio' as const, command: 'node' };

describe('serverOfToolName', () => {
  it('names the one server whose namespace prefix or `server.` the name starts with', () => {
    const config: McpToolsConfig = { servers: { files: stdio, web: stdio } };
    expect(serverOfToolName(config, 'files__read_file')).toBe('files');
    expect(serverOfToolName(config, 'web.fetch')).toBe('web');
    // Control: a name of no server (native, router, plugin tool) starts them all.
    expect(serverOfToolName(config, 'tool_index')).toBeUndefined();
    expect(serverOfToolName(config, 'other.fetch')).toBeUndefined();
  });

  it('follows a custom separator and a server’s own prefix', () => {
    const config: McpToolsConfig = {
      servers: { files: { ...stdio, prefix: 'fs' }, web: stdio },
      namespace: { separator: '-' },
    };
    expect(serverOfToolName(config, 'fs-read_file')).toBe('files');
    expect(serverOfToolName(config, 'web-fetch')).toBe('web');
    expect(serverOfToolName(config, 'files-read_file')).toBeUndefined();
    expect(serverOfToolName(config, 'web__fetch')).toBeUndefined();
  });

  it('starts all when two prefixes match, or the name is a router per-server tool', () => {
    const config: McpToolsConfig = { servers: { echo: stdio, echo__x: stdio, mcp: stdio } };
    expect(serverOfToolName(config, 'echo__x__run')).toBeUndefined();
    expect(serverOfToolName(config, 'echo__run')).toBe('echo');
    expect(serverOfToolName(config, 'mcp__echo__read_resource')).toBeUndefined();
  });
});
