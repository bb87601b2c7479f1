import type { DiscoveredModel } from './discovered-model.js';
import type { JsonChange } from './json-edit.js';
import { DEFAULT_BASE_URL } from './load-config.js';

/** A model to make active: one already in `models[]`, or a discovered one to add. */
export type ActiveModelChoice = { index: number } | { add: DiscoveredModel };

/**
 * The edits of config.json that make one model active: the chosen entry gets `"active": true`,
 * every other active one `false`; nothing else changes. Works on the file as read right before writing.
 */
export function activeModelChanges(current: unknown, choice: ActiveModelChoice): JsonChange[] {
  const models = (current as { models?: unknown } | null)?.models;
  const list = Array.isArray(models) ? (models as unknown[]) : undefined;
  const isActive = (entry: unknown) => (entry as { active?: unknown } | null)?.active === true;
  const turnOff = (list ?? []).flatMap((entry, i) =>
    isActive(entry) && !('index' in choice && i === choice.index)
      ? [{ path: ['models', i, 'active'], value: false }]
      : [],
  );
  if ('index' in choice) {
    return isActive(list?.[choice.index])
      ? turnOff
      : [...turnOff, { path: ['models', choice.index, 'active'], value: true }];
  }
  const { name, provider, baseUrl, apiKey, contextWindow } = choice.add;
  // An Ollama entry always names its server; the others only a proxy, and carry the key reference they were found with.
  const entry = {
    name,
    provider,
    ...(provider === 'ollama' || baseUrl !== DEFAULT_BASE_URL[provider] ? { baseUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(contextWindow ? { contextWindow } : {}),
    active: true,
  };
  return list
    ? [...turnOff, { path: ['models', list.length], value: entry }]
    : [{ path: ['models'], value: [entry] }];
}
