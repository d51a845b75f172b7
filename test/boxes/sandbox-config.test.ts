import { describe, expect, it } from 'vitest';
import { bwrapCommand } from '../../src/boxes/bwrap-command.js';
import { sandboxStatus } from '../../src/boxes/sandbox-status.js';
import type { StdioServerConfig } from '../../src/config/config-types.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { applySandboxDefault } from '../../src/config/sandbox-default.js';

const entry = { command: 'node', args: ['server.js'] };

describe('the sandbox setting', () => {
  it('gives the top-level default to stdio servers without their own setting, never to trusted ones', () => {
    const config = parseConfig(
      {
        servers: {
          plain: entry,
          own: { ...entry, sandbox: { network: true } },
          off: { ...entry, sandbox: false },
          trusted: { ...entry, trusted: true },
          remote: { url: 'http://127.0.0.1:1/mcp' },
        },
        sandbox: { read: ['/srv/data'] },
      },
      { file: 'mcptools.json' },
    );
    const servers = config.servers as Record<string, StdioServerConfig>;
    expect(servers.plain!.sandbox).toEqual({ read: ['/srv/data'] });
    expect(servers.own!.sandbox).toEqual({ network: true });
    expect(servers.off!.sandbox).toBe(false);
    expect(servers.trusted!.sandbox).toBeUndefined();
    expect('sandbox' in servers.remote!).toBe(false);
    expect(sandboxStatus(servers.trusted!).reason).toMatch(/"trusted": true/);
    expect(sandboxStatus(servers.off!).reason).toMatch(/"sandbox": false/);
  });

  it('is off without a setting; serve’s gateway.sandbox boxes what the file left unset', () => {
    const config = parseConfig(
      { servers: { plain: entry, trusted: { ...entry, trusted: true } }, gateway: { sandbox: true } },
      { file: 'mcptools.json' },
    );
    const servers = config.servers as Record<string, StdioServerConfig>;
    expect(servers.plain!.sandbox).toBeUndefined();
    expect(sandboxStatus(servers.plain!)).toMatchObject({ boxed: false, reason: /no "sandbox" setting/ });
    applySandboxDefault(config.servers, config.gateway?.sandbox);
    expect(servers.plain!.sandbox).toBe(true);
    expect(servers.trusted!.sandbox).toBeUndefined();
  });

  it('refuses a relative path, a bad variable name and an unknown grant, naming file, server and field', () => {
    const bad = (sandbox: unknown) => () =>
      parseConfig({ servers: { box: { ...entry, sandbox } } }, { file: 'mcptools.json' });
    expect(bad({ read: ['data'] })).toThrow(/mcptools\.json.*box.*sandbox\.read.*must be an absolute path/s);
    expect(bad({ env: ['NOT A NAME'] })).toThrow(/sandbox\.env.*environment variable names/s);
    expect(bad({ network: 'some' })).toThrow(/box.*sandbox/s);
    expect(bad({ network: { allow: ['api.example.com'] } })).toThrow(
      /mcptools\.json.*box.*sandbox\.network\.allow.*must be host:port/s,
    );
    expect(bad({ network: { allow: [] } })).toThrow(/sandbox\.network\.allow.*at least one/s);
    expect(bad({ netwrok: true })).toThrow(/box.*sandbox/s);
  });

  it('keeps every value of the entry’s env off the bubblewrap command line', () => {
    const boxed = bwrapCommand(
      '/usr/bin/bwrap',
      { command: 'node', args: ['server.js'], env: { API_KEY: 'value-of-the-key' } },
      { env: ['LANG'], maxOpenFiles: 64 },
      ['HOME', 'PATH', 'USER'],
      { LANG: 'C.UTF-8', GATEWAY_TOKEN: 'gateway-secret' },
    );
    expect(boxed.args.join(' ')).not.toContain('value-of-the-key');
    expect(boxed.env).toEqual({ LANG: 'C.UTF-8', API_KEY: 'value-of-the-key' });
    expect(JSON.stringify(boxed)).not.toContain('gateway-secret');
    // The spawner's own HOME and USER are unset in the box; PATH and HOME are the box's.
    expect(boxed.args.join(' ')).toContain('--unsetenv HOME --unsetenv PATH --unsetenv USER');
    expect(boxed.args.slice(boxed.args.indexOf('--'))).toEqual([
      '--',
      'prlimit',
      '--nofile=64:64',
      '--',
      'node',
      'server.js',
    ]);
    expect(boxed.args).not.toContain('--share-net');
  });

  it('binds the working directory read-only, unless a grant already shows it', () => {
    const binds = (grants: { read?: string[]; write?: string[] }) => {
      const { args } = bwrapCommand(
        '/usr/bin/bwrap',
        { command: 'node', args: [], cwd: '/srv/app/work' },
        grants,
      );
      return args.flatMap((arg, index) =>
        arg === '--ro-bind' || arg === '--bind' ? [`${arg} ${args[index + 1]}`] : [],
      );
    };
    expect(binds({})).toContain('--ro-bind /srv/app/work');
    // Under a written folder it stays writable: no read-only bind over it.
    expect(binds({ write: ['/srv/app'] })).toEqual(['--ro-bind /usr', '--bind /srv/app']);
    expect(binds({ read: ['/srv/app/work'] }).filter((bind) => bind.endsWith('/srv/app/work'))).toEqual([
      '--ro-bind /srv/app/work',
    ]);
    expect(binds({ read: ['/srv/application'] })).toContain('--ro-bind /srv/app/work');
  });
});
