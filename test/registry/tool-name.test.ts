import { describe, expect, it } from 'vitest';
import { legalizeName, namespacedName, TOOL_NAME_PATTERN, uniqueName } from '../../src/registry/tool-name.js';

describe('namespacedName', () => {
  it('joins server and tool with the separator when the result is legal', () => {
    expect(namespacedName('files', 'read_file')).toBe('files__read_file');
    expect(namespacedName('files', 'read_file', { separator: '-' })).toBe('files-read_file');
  });

  it('always returns a legal name within the budget', () => {
    const awkward = ['get.user', 'a/b', 'my tool', 'café', '工具', 'emoji_🎉', 'x'.repeat(200), '', '-dash'];
    for (const tool of awkward) {
      for (const maxLength of [64, 40, 20]) {
        const name = namespacedName('some-server.with dots', tool, { maxLength });
        expect(name).toMatch(TOOL_NAME_PATTERN);
        expect(name.length).toBeLessThanOrEqual(maxLength);
      }
    }
  });

  it('is deterministic and keeps names that differ only in illegal characters apart', () => {
    expect(namespacedName('s', 'get.user')).toBe(namespacedName('s', 'get.user'));
    expect(namespacedName('s', 'get.user')).not.toBe(namespacedName('s', 'get_user'));
    expect(namespacedName('s', 'a/b')).not.toBe(namespacedName('s', 'a_b'));
  });

  it('keeps the start of a long tool name and two long names sharing a prefix apart', () => {
    const long = `${'search_repositories_by_topic_and_language_'.repeat(2)}`;
    const first = namespacedName('github', `${long}one`);
    const second = namespacedName('github', `${long}two`);
    expect(first.startsWith('github__search_repositories')).toBe(true);
    expect(first).not.toBe(second);
    expect(first.length).toBe(64);
  });

  it('limits the server part to 24 characters when shortening', () => {
    const name = namespacedName('a-very-long-server-name-that-goes-on-and-on', 'x'.repeat(80));
    expect(name.split('__')[0]!.length).toBeLessThanOrEqual(24);
  });

  it("gives every tool of a server one prefix, whether or not the tool's name is cut", () => {
    const server = 'everything-server-with-a-rather-long-descriptive-name';
    for (const maxLength of [64, 48]) {
      const names = ['echo', 'get-annotated-message', 'x'.repeat(80), 'with.dot'].map((tool) =>
        namespacedName(server, tool, { maxLength }),
      );
      const prefixes = new Set(names.map((name) => name.slice(0, name.indexOf('__'))));
      expect(prefixes.size).toBe(1);
      expect([...prefixes][0]!.length).toBeLessThanOrEqual(24);
      for (const name of names) expect(name.length).toBeLessThanOrEqual(maxLength);
    }
    // A short legal server name is its own prefix; an illegal one is told apart from its sanitized twin.
    expect(namespacedName('files', 'read')).toBe('files__read');
    expect(namespacedName('my.server', 'read')).not.toBe(namespacedName('my_server', 'read'));
  });
});

describe('legalizeName and uniqueName', () => {
  it('leaves a legal name alone and hashes an illegal one', () => {
    expect(legalizeName('read_file')).toBe('read_file');
    expect(legalizeName('read.file')).toMatch(/^read_file_[0-9a-f]{6}$/);
  });

  it('suffixes a taken name with a stable hash of its identity', () => {
    const taken = new Set(['echo__x']);
    const first = uniqueName('echo__x', 'other\u0000x', (candidate) => taken.has(candidate));
    const again = uniqueName('echo__x', 'other\u0000x', (candidate) => taken.has(candidate));
    expect(first).toMatch(/^echo__x_[0-9a-f]{6}$/);
    expect(again).toBe(first);
    expect(uniqueName('free', 'id', () => false)).toBe('free');
  });
});
