import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SecretVault } from '../../src/auth/secret-vault.js';
import { loadConfig } from '../../src/config/load-config.js';
import { redactConfig } from '../../src/config/redact-config.js';

const dir = mkdtempSync(join(tmpdir(), 'mcptools-secret-vault-'));
const KEY = Buffer.alloc(32, 7).toString('base64');
const OTHER_KEY = Buffer.alloc(32, 9).toString('base64');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SecretVault', () => {
  it('keeps values owner-only, in clear without a key', async () => {
    const vault = new SecretVault(join(dir, 'plain', 'secrets.json'));
    await vault.set('weather', { API_KEY: 'plain-value' });
    expect(vault.get('weather', 'API_KEY')).toBe('plain-value');
    expect(vault.get('weather', 'OTHER')).toBeUndefined();
    expect(statSync(vault.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'plain')).mode & 0o777).toBe(0o700);
    await vault.retain('weather', []);
    expect(vault.names('weather')).toEqual([]);
  });

  it('seals values with MCPTOOLS_VAULT_KEY, bound to their entry and name', async () => {
    const path = join(dir, 'sealed', 'secrets.json');
    const vault = new SecretVault(path, KEY);
    await vault.set('weather', { API_KEY: 'sealed-canary-value' });
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('sealed-canary-value');
    expect(text).not.toContain(Buffer.from('sealed-canary-value').toString('base64').slice(0, 12));
    expect(vault.get('weather', 'API_KEY')).toBe('sealed-canary-value');
    expect(() => new SecretVault(path).get('weather', 'API_KEY')).toThrow(/sealed and does not open/);
    expect(() => new SecretVault(path, OTHER_KEY).get('weather', 'API_KEY')).toThrow(/does not open/);
    // A sealed value copied to another entry does not open there.
    const file = JSON.parse(text);
    file.entries.other = { API_KEY: file.entries.weather.API_KEY };
    writeFileSync(path, JSON.stringify(file));
    expect(() => vault.get('other', 'API_KEY')).toThrow(/does not open/);
    expect(() => new SecretVault(path, 'short')).toThrow(/MCPTOOLS_VAULT_KEY must be 32\+ random bytes/);
  });
});

describe('${vault:…} references in the configuration', () => {
  it('resolve when the configuration is read, and a missing one names the entry and the name', async () => {
    const file = join(dir, 'mcptools.json');
    writeFileSync(
      file,
      JSON.stringify({
        servers: { weather: { command: 'node', env: { API_KEY: '${vault:weather/API_KEY}', REGION: 'eu' } } },
      }),
    );
    const vault = (entry: string, name: string) =>
      entry === 'weather' && name === 'API_KEY' ? 'from-vault' : undefined;
    const config = await loadConfig(file, { vault });
    expect(config.servers.weather).toMatchObject({ env: { API_KEY: 'from-vault', REGION: 'eu' } });
    // Printed configurations hide it like any interpolated value.
    expect(JSON.stringify(redactConfig(config))).not.toContain('from-vault');
    await expect(loadConfig(file, { vault: () => undefined })).rejects.toThrow(
      /servers\.weather|weather.*the secret weather\/API_KEY is not in the secret vault/,
    );
  });

  it('registries[] headers are hidden when the configuration is printed', async () => {
    const file = join(dir, 'registries.json');
    writeFileSync(
      file,
      JSON.stringify({
        servers: {},
        registries: [{ url: 'https://127.0.0.1:9/', headers: { Authorization: 'Bearer ${TEAM_TOKEN}' } }],
      }),
    );
    const config = await loadConfig(file, { env: { TEAM_TOKEN: 'team-canary' } });
    expect(config.registries?.[0]?.headers?.Authorization).toBe('Bearer team-canary');
    expect(JSON.stringify(redactConfig(config))).not.toContain('team-canary');
    await expect(loadConfig(file, { env: {} })).rejects.toThrow(/registries\.0\.headers\.Authorization/);
  });
});
