import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { redactConfig } from '../../src/config/redact-config.js';
import { frontDoor } from '../../src/gateway/auth/front-door.js';

/* `gateway.auth`, `gateway.tokens` and `gateway.access`: accepted, refused with the field named, redacted. */

const good = {
  servers: {},
  gateway: {
    auth: {
      type: 'oauth',
      issuer: 'https://id.example.com',
      audience: 'https://mcp.example.com/mcp',
      introspection: { clientId: 'gateway', clientSecret: 'introspection-SECRET-1' },
      owner: { claims: { groups: 'ops' } },
      login: { clientId: 'gateway-login', clientSecret: 'login-SECRET-1', flowSeconds: 300 },
    },
    tokens: { ci: { token: 'static-SECRET-token-0123', principal: 'ci-bot', profile: 'small' } },
    access: [{ servers: ['prod*'], who: { scopes: ['prod'] } }],
    profiles: { small: { mode: 'router', who: { principals: ['ci-bot'] } } },
  },
};

describe('the identity sections of the gateway configuration', () => {
  it('accepts OAuth, named tokens, access rules and profile selectors', () => {
    const config = parseConfig(structuredClone(good), { file: 'mcptools.json' });
    expect(config.gateway?.auth?.issuer).toBe('https://id.example.com');
    expect(config.gateway?.auth?.login?.clientId).toBe('gateway-login');
    expect(config.gateway?.tokens?.ci?.principal).toBe('ci-bot');
    expect(config.gateway?.access?.[0]?.who.scopes).toEqual(['prod']);
  });

  it('refuses an empty token, a wrong type and a rule without who, naming the field', () => {
    const bad = (gateway: Record<string, unknown>) => () =>
      parseConfig({ servers: {}, gateway }, { file: 'mcptools.json' });
    expect(bad({ tokens: { ci: { token: '' } } })).toThrow(/gateway\.tokens\.ci\.token/);
    expect(bad({ auth: { type: 'saml', issuer: 'https://x', audience: 'a' } })).toThrow(
      /gateway\.auth\.type/,
    );
    expect(bad({ access: [{ tools: ['x'] }] })).toThrow(/gateway\.access\.0\.who|gateway\.access\[0\]\.who/);
  });

  it('refuses to serve with a static token under 16 characters once its variable is read', () => {
    const config = parseConfig(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax, read by parseConfig
      { servers: {}, gateway: { tokens: { ci: { token: '${CI_TOKEN}' } } } },
      { file: 'mcptools.json', env: { CI_TOKEN: 'short' } },
    );
    expect(() => frontDoor({ config })).toThrow(/gateway\.tokens\.ci\.token: must be at least 16 characters/);
  });

  it('hides the static tokens, the introspection and the login secrets when the configuration is shown', () => {
    const shown = JSON.stringify(redactConfig(parseConfig(structuredClone(good), { file: 'mcptools.json' })));
    expect(shown).not.toContain('SECRET');
    expect(shown).toContain('ci-bot');
    expect(shown).toContain('gateway-login');
  });

  it('reads the login secret from the environment, and refuses a login without a client', () => {
    const config = parseConfig(
      {
        servers: {},
        gateway: {
          auth: {
            type: 'oauth',
            issuer: 'https://id.example.com',
            audience: 'https://mcp.example.com/mcp',
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax, read by parseConfig
            login: { clientId: 'gateway-login', clientSecret: '${LOGIN_SECRET}' },
          },
        },
      },
      { file: 'mcptools.json', env: { LOGIN_SECRET: 'from-the-environment' } },
    );
    expect(config.gateway?.auth?.login?.clientSecret).toBe('from-the-environment');
    expect(() =>
      parseConfig(
        {
          servers: {},
          gateway: { auth: { ...good.gateway.auth, login: { clientSecret: 'x' } } },
        },
        { file: 'mcptools.json' },
      ),
    ).toThrow(/gateway\.auth\.login\.clientId/);
  });
});
