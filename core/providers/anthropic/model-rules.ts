import type { ThinkSetting } from '../../config/load-config.js';

/** How a Claude model takes thinking. */
export type ThinkingStyle = 'adaptive' | 'budget';

/**
 * Adaptive thinking (`{type: "adaptive"}` + an effort) is the way of Opus 4.6 and later, Sonnet 4.6 and later and the
 * Claude 5 families, which reject token budgets; older models (Haiku 4.5 and before) take `budget_tokens`. An id we
 * do not recognise is tried the adaptive way first (the adapter falls back once on a 400 naming the type).
 */
export function thinkingStyle(modelId: string): ThinkingStyle {
  const id = modelId.toLowerCase();
  if (id.includes('claude-3')) return 'budget';
  // `claude-opus-4-6`, `claude-sonnet-4-5-20250929`, `claude-opus-4-20250514` (a date is not a minor version).
  const version = /claude-(opus|sonnet|haiku)-(\d+)(?:-(\d)(?!\d))?/.exec(id);
  if (!version) return 'adaptive';
  const [, family, major, minor = '0'] = version;
  if (Number(major) >= 5) return 'adaptive';
  return Number(major) === 4 && Number(minor) >= 6 && family !== 'haiku' ? 'adaptive' : 'budget';
}

/** `budget_tokens` for a level: at least 1024 (the API's minimum). */
export function thinkingBudget(think: Exclude<ThinkSetting, false>): number {
  return { low: 4_096, medium: 10_000, high: 20_000 }[think === true ? 'medium' : think];
}

/** `max_tokens` when the model entry sets none: the family's output limit, kept modest for old models. */
export function defaultMaxTokens(modelId: string): number {
  const id = modelId.toLowerCase();
  if (/claude-3-(?:opus|sonnet|haiku)/.test(id)) return 4_096;
  if (/claude-3-5/.test(id)) return 8_192;
  return 16_384;
}
