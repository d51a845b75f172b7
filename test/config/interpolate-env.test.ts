// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} placeholders under test, not templates.
import { describe, expect, it } from 'vitest';
import { interpolateEnv } from '../../src/config/interpolate-env.js';
import { McpToolsError } from '../../src/errors/mcp-tools-error.js';

const location = { file: 'mcptools.json', server: 'github', field: 'headers.Authorization' };
const env = { TOKEN: 'abc', EMPTY: '', HOST: 'h.example' };

describe('interpolateEnv', () => {
  it('replaces ${VAR} and ${env:VAR}, several per string', () => {
    expect(interpolateEnv('Bearer ${TOKEN}', { env, location })).toBe('Bearer abc');
    expect(interpolateEnv('https://${HOST}/${env:TOKEN}', { env, location })).toBe('https://h.example/abc');
  });

  it('uses the default of ${VAR:-default} when the variable is unset or empty', () => {
    expect(interpolateEnv('${PORT:-8080}', { env, location })).toBe('8080');
    expect(interpolateEnv('${EMPTY:-fallback}', { env, location })).toBe('fallback');
    expect(interpolateEnv('${TOKEN:-fallback}', { env, location })).toBe('abc');
    expect(interpolateEnv('${NOPE:-}', { env, location })).toBe('');
    expect(interpolateEnv('${NOPE:-a:b/c}', { env, location })).toBe('a:b/c');
  });

  it('keeps an empty variable empty with plain ${VAR}', () => {
    expect(interpolateEnv('[${EMPTY}]', { env, location })).toBe('[]');
  });

  it('lets editor variables win over the environment', () => {
    expect(
      interpolateEnv('${workspaceFolder}/x', {
        env: { workspaceFolder: '/env' },
        variables: { workspaceFolder: '/ws' },
        location,
      }),
    ).toBe('/ws/x');
  });

  it('throws CONFIG_INVALID naming file, server, field and variable for an unset variable', () => {
    let caught: unknown;
    try {
      interpolateEnv('Bearer ${GITHUB_TOKEN}', { env, location });
    } catch (error) {
      caught = error;
    }
    expect(McpToolsError.isInstance(caught)).toBe(true);
    const error = caught as McpToolsError;
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toBe(
      'mcptools.json: server "github": field "headers.Authorization": environment variable "GITHUB_TOKEN" is not set (write ${GITHUB_TOKEN:-default} to give a default)',
    );
    expect(error.data).toMatchObject({
      file: 'mcptools.json',
      server: 'github',
      field: 'headers.Authorization',
      variable: 'GITHUB_TOKEN',
    });
  });

  it('treats ${env:VAR} with an unset variable as an error too', () => {
    expect(() => interpolateEnv('${env:NOPE}', { env, location })).toThrow(/"NOPE" is not set/);
  });

  it('leaves other placeholders as they are and warns', () => {
    const warnings: string[] = [];
    const value = interpolateEnv('${input:key}-${command:pick}', {
      env,
      location,
      warn: (message) => warnings.push(message),
    });
    expect(value).toBe('${input:key}-${command:pick}');
    expect(warnings).toEqual([
      'mcptools.json: server "github": field "headers.Authorization": placeholder ${input:key} is not supported and is left as is',
      'mcptools.json: server "github": field "headers.Authorization": placeholder ${command:pick} is not supported and is left as is',
    ]);
  });

  it('returns strings without placeholders untouched', () => {
    expect(interpolateEnv('$HOME and $ {X}', { env, location })).toBe('$HOME and $ {X}');
  });
});
