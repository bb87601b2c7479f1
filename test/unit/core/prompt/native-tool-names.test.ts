import { describe, expect, it } from 'vitest';
import { createNativeToolNames, nativeToolName, parseFunctionCalls } from '../../../../core/prompt/index.js';

const VALID = /^[A-Za-z0-9_-]{1,64}$/;

describe('nativeToolName', () => {
  it('joins-server-and-tool-with-two-underscores', () => {
    expect(nativeToolName('context7', 'resolve-library-id')).toBe('context7__resolve-library-id');
  });

  it('replaces-characters-outside-the-allowed-set', () => {
    expect(nativeToolName('my.server', 'read file/v2')).toBe('my_server__read_file_v2');
    expect(nativeToolName('서버', 'ask')).toBe('____ask');
  });

  it('keeps-a-name-of-exactly-64-characters', () => {
    const tool = 'x'.repeat(64 - 'srv__'.length);
    expect(nativeToolName('srv', tool)).toBe(`srv__${tool}`);
  });

  it('cuts-a-long-name-and-ends-it-with-a-hash', () => {
    const name = nativeToolName('server', 'a'.repeat(100));
    expect(name).toHaveLength(64);
    expect(name).toMatch(VALID);
    expect(name).toMatch(/^server__a+_[0-9a-f]{8}$/);
    // Two long names with the same first 55 characters stay different.
    expect(nativeToolName('server', `${'a'.repeat(100)}1`)).not.toBe(
      nativeToolName('server', `${'a'.repeat(100)}2`),
    );
    expect(nativeToolName('server', 'a'.repeat(100))).toBe(name);
  });
});

describe('createNativeToolNames', () => {
  it('maps-names-back-to-server-and-tool', () => {
    const names = createNativeToolNames([
      { server: 'context7', name: 'resolve-library-id' },
      { server: 'my.server', name: 'list' },
    ]);
    expect(names.toNative('my.server', 'list')).toBe('my_server__list');
    expect(names.fromNative('my_server__list')).toEqual({ server: 'my.server', name: 'list' });
    expect(names.fromNative('context7__resolve-library-id')).toEqual({
      server: 'context7',
      name: 'resolve-library-id',
    });
    expect(names.fromNative('nope')).toBeUndefined();
    expect(names.toNative('nope', 'x')).toBeUndefined();
  });

  it('tools-that-clean-up-to-the-same-name-get-distinct-names', () => {
    const names = createNativeToolNames([
      { server: 'a.b', name: 'x' },
      { server: 'a_b', name: 'x' },
      { server: 'a b', name: 'x' },
    ]);
    const natives = names.entries.map((e) => e.nativeName);
    expect(natives[0]).toBe('a_b__x');
    expect(new Set(natives).size).toBe(3);
    for (const n of natives) expect(n).toMatch(VALID);
    for (const e of names.entries)
      expect(names.fromNative(e.nativeName)).toEqual({ server: e.server, name: e.name });
  });

  it('long-names-that-share-a-prefix-map-back-to-their-own-tool', () => {
    const tools = [1, 2, 3].map((n) => ({
      server: 'documentation-server',
      name: `${'search_'.repeat(10)}${n}`,
    }));
    const names = createNativeToolNames(tools);
    for (const tool of tools) {
      const native = names.toNative(tool.server, tool.name);
      expect(native).toMatch(VALID);
      expect(names.fromNative(native ?? '')).toEqual(tool);
    }
  });

  it('prompt-mode-accepts-the-native-name-of-a-long-tool', () => {
    const tool = { server: 'documentation-server', name: 'search_'.repeat(12) };
    const native = nativeToolName(tool.server, tool.name);
    expect(parseFunctionCalls(`{"name": "${native}", "arguments": {}}`, [tool]).calls).toEqual([
      { type: 'call', ...tool, arguments: {} },
    ]);
  });
});
