import { describe, expect, it } from 'vitest';
import { budgetWarning, trimNotice } from '../../../../../core/engine/context/budget-warning.js';

describe('budget warning', () => {
  it('shows-the-real-percentage-rounded-down', () => {
    expect(budgetWarning(0.8249, false, true)).toBe(
      'Context is 82% full; older messages will be summarised.',
    );
    expect(budgetWarning(0.8, false, true)).toBe('Context is 80% full; older messages will be summarised.');
  });

  it('stays-quiet-below-80-at-100-or-once-shown', () => {
    expect(budgetWarning(0.7999, false, true)).toBeUndefined();
    expect(budgetWarning(1, false, true)).toBeUndefined();
    expect(budgetWarning(0.9, true, true)).toBeUndefined();
  });

  it('says-dropped-when-summaries-are-off', () => {
    expect(budgetWarning(0.85, false, false)).toBe('Context is 85% full; older messages will be dropped.');
  });

  it('says-what-was-trimmed', () => {
    expect(trimNotice(1, 0)).toBe('Context full: dropped 1 older message to stay within the limit.');
    expect(trimNotice(12, 12)).toBe('Context full: summarised 12 older messages into one.');
    expect(trimNotice(12, 10)).toBe(
      'Context full: summarised 10 older messages into one and dropped 2 more.',
    );
    expect(trimNotice(3, 0, 1.304)).toBe(
      'Context full: dropped 3 older messages to stay within the limit. The request is still 130% of the limit.',
    );
  });
});
