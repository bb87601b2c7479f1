import type { JsonChange } from './json-edit.js';

/** A model to make active: one already in `models[]`, or an installed Ollama model to add (R-CMD-3). */
export type ActiveModelChoice = { index: number } | { add: { name: string; baseUrl: string } };

/**
 * The edits of config.json that make one model active (R-CFG-2, R-CFG-7): the chosen entry gets `"active": true`,
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
  const entry = { name: choice.add.name, provider: 'ollama', baseUrl: choice.add.baseUrl, active: true };
  return list
    ? [...turnOff, { path: ['models', list.length], value: entry }]
    : [{ path: ['models'], value: [entry] }];
}
