import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';

const options = {
  file: '/project/mcptools.json',
  cwd: '/project',
  homeDir: '/home/user',
  env: {},
  onWarning: () => {},
};

describe('mcptools.json plugins', () => {
  it('keeps package names and resolves plugin paths against the config file', () => {
    const config = parseConfig(
      {
        servers: {},
        plugins: [
          '@ollama/openclaw-web-search',
          './plugins/mine',
          { spec: '~/plugins/other.mjs', config: { url: 'http://127.0.0.1:9' }, allow: ['x_*'] },
        ],
      },
      options,
    );
    expect(config.plugins).toEqual([
      '@ollama/openclaw-web-search',
      '/project/plugins/mine',
      { spec: '/home/user/plugins/other.mjs', config: { url: 'http://127.0.0.1:9' }, allow: ['x_*'] },
    ]);
  });

  it('rejects a misspelt plugin field, naming it', () => {
    expect(() => parseConfig({ servers: {}, plugins: [{ spec: 'x', confg: {} }] }, options)).toThrow(/confg/);
  });
});
