import { describe, expect, it } from 'vitest';
import { activeModelChanges } from '../../../../core/config/active-model-changes.js';

describe('activeModelChanges', () => {
  const models = { models: [{ name: 'a', active: true }, { name: 'b' }, { name: 'c', active: false }] };

  it('moves-the-active-flag-and-touches-nothing-else', () => {
    expect(activeModelChanges(models, { index: 1 })).toEqual([
      { path: ['models', 0, 'active'], value: false },
      { path: ['models', 1, 'active'], value: true },
    ]);
  });

  it('changes-nothing-when-the-chosen-model-is-already-the-only-active-one', () => {
    expect(activeModelChanges(models, { index: 0 })).toEqual([]);
  });

  it('adds-a-discovered-ollama-model-as-the-active-one', () => {
    expect(
      activeModelChanges(models, {
        add: { name: 'qwen3:8b', provider: 'ollama', baseUrl: 'http://h:11434' },
      }),
    ).toEqual([
      { path: ['models', 0, 'active'], value: false },
      {
        path: ['models', 3],
        value: { name: 'qwen3:8b', provider: 'ollama', baseUrl: 'http://h:11434', active: true },
      },
    ]);
    expect(activeModelChanges({}, { add: { name: 'x', provider: 'ollama', baseUrl: 'http://h' } })).toEqual([
      { path: ['models'], value: [{ name: 'x', provider: 'ollama', baseUrl: 'http://h', active: true }] },
    ]);
  });

  it('adds-a-discovered-claude-model-with-the-key-reference-it-was-found-with', () => {
    const add = {
      name: 'claude-opus-4-7',
      provider: 'anthropic' as const,
      baseUrl: 'https://api.anthropic.com',
      apiKey: '${ANTHROPIC_API_KEY}',
    };
    expect(activeModelChanges({ models: [] }, { add })).toEqual([
      {
        path: ['models', 0],
        value: {
          name: 'claude-opus-4-7',
          provider: 'anthropic',
          apiKey: '${ANTHROPIC_API_KEY}',
          active: true,
        },
      },
    ]);
    expect(
      activeModelChanges({ models: [] }, { add: { ...add, baseUrl: 'http://proxy:4000' } })[0]!.value,
    ).toMatchObject({
      baseUrl: 'http://proxy:4000',
    });
  });
});
