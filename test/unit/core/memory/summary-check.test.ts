import { describe, expect, it } from 'vitest';
import { memorySummaryProblem } from '../../../../core/memory/summary-check.js';

const original = Array.from({ length: 100 }, (_, i) => `- fact ${i} about the user's work`).join('\n');

describe('memory summary check', () => {
  it('accepts-a-summary-of-dash-lines-between-a-sixth-and-a-half', () => {
    const summary = Array.from({ length: 25 }, (_, i) => `- facts ${i * 4} to ${i * 4 + 3} about work`).join(
      '\n',
    );
    expect(memorySummaryProblem(original, summary)).toBeUndefined();
  });

  it.each([
    ['', 'it is empty'],
    ['Sure! Here is the summary.', 'not every line is a "- …" line'],
    ["- I'm sorry, I can't do that.", 'a refusal or an error'],
    ['죄송하지만 요약할 수 없습니다.', 'a refusal or an error'],
    ['- Error: rate limit exceeded', 'a refusal or an error'],
    ['- one fact left', 'keeps too little'],
    [original, 'not at most half'],
  ])('refuses %j', (summary, why) => {
    expect(memorySummaryProblem(original, summary)).toContain(why);
  });
});

describe('memory summary check: the floor between a collapse and a summary', () => {
  /** A summary of `- …` lines of about `share` of the original's characters. */
  const summaryOf = (share: number) => {
    const line = '- facts about the user and the work';
    const lines = Math.round((original.length * share) / (line.length + 1));
    return Array.from({ length: lines }, () => line).join('\n');
  };

  it.each([
    [0.15, 'keeps too little'],
    [0.1, 'keeps too little'],
    [0.05, 'keeps too little'],
  ])('refuses a summary at %f of the original', (share, why) => {
    expect(memorySummaryProblem(original, summaryOf(share))).toContain(why);
  });

  it.each([0.18, 0.3, 0.49])('accepts a summary at %f of the original', (share) => {
    expect(memorySummaryProblem(original, summaryOf(share))).toBeUndefined();
  });
});
