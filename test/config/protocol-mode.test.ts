import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';

/*
 * `protocol` names the eras by their names (`2025`, `2026-07-28`); the earlier names are still
 * read, each as the mode it meant, with one warning per place naming the file, server and field.
 */
describe('protocol: the eras by their names, the earlier names deprecated', () => {
  it('reads the new names as they are, with no warning (the control)', () => {
    const warnings: string[] = [];
    const config = parseConfig(
      {
        protocol: '2026-07-28-first',
        servers: { a: { command: 'a', protocol: '2025' }, b: { command: 'b', protocol: '2025-first' } },
      },
      { file: 'new-names.json', onWarning: (message) => warnings.push(message) },
    );
    expect(config.protocol).toBe('2026-07-28-first');
    expect(config.servers.a?.protocol).toBe('2025');
    expect(config.servers.b?.protocol).toBe('2025-first');
    expect(warnings).toEqual([]);
  });

  it.each([
    ['legacy', '2025'],
    ['modern', '2026-07-28'],
    ['initialize', '2025-first'],
    ['auto', '2026-07-28-first'],
  ])('reads "%s" as "%s", warning once with the file, server and field', (old, mode) => {
    const warnings: string[] = [];
    const file = `old-${old}.json`;
    const value = { protocol: old, servers: { files: { command: 'npx', protocol: old } } };
    const first = parseConfig(value, { file, onWarning: (message) => warnings.push(message) });
    expect(first.protocol).toBe(mode);
    expect(first.servers.files?.protocol).toBe(mode);
    // Read again (a gateway reloads its configuration): the same places are not warned of twice.
    const again = parseConfig(value, { file, onWarning: (message) => warnings.push(message) });
    expect(again.servers.files?.protocol).toBe(mode);
    expect(warnings).toEqual([
      `${file}: server "files": field "protocol": "${old}" is deprecated, write "${mode}" (it means the same)`,
      `${file}: field "protocol": "${old}" is deprecated, write "${mode}" (it means the same)`,
    ]);
  });

  it('refuses a value that is neither, naming the file, server and field', () => {
    expect(() =>
      parseConfig({ servers: { files: { command: 'npx', protocol: '2024' } } }, { file: 'bad.json' }),
    ).toThrow(/bad\.json: server "files": field "protocol"/);
  });
});
