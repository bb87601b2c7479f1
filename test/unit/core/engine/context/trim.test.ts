import { describe, expect, it } from 'vitest';
import { trimToBudget, type TrimInput } from '../../../../../core/engine/context/trim.js';
import type { Message } from '../../../../../core/types/message.js';

const user = (content: string): Message => ({ role: 'user', content });
const answer = (content: string): Message => ({ role: 'assistant', content });
const tool = (content: string, toolName = 'read'): Message => ({ role: 'tool', content, toolName });
const nativeCall = (content: string, ids: string[]): Message => ({
  role: 'assistant',
  content,
  toolCalls: ids.map((id) => ({ id, name: 'fs__read', arguments: { id } })),
});
const nativeResult = (id: string, content: string): Message => ({ role: 'tool', content, toolCallId: id });

/** `n` user/answer pairs of 100 characters each. */
function pairs(n: number): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < n; i++) out.push(user(`q${i}`.padEnd(100, '.')), answer(`a${i}`.padEnd(100, '.')));
  return out;
}

function trim(overrides: Partial<TrimInput> & Pick<TrimInput, 'history' | 'turn'>) {
  return trimToBudget({ system: '', budget: { maxChars: 1000 }, minRecentMessages: 5, ...overrides });
}

describe('stage 1 trimming', () => {
  it('keeps-everything-under-budget', () => {
    const history = pairs(2);
    const turn = [user('now')];
    const result = trim({ history, turn, system: 'sys' });
    expect(result.messages).toEqual([...history, ...turn]);
    expect(result.droppedHistory).toBe(0);
    expect(result.size.chars).toBe(3 + 400 + 3);
    expect(result.overBudget).toBe(false);
  });

  it('drops-oldest-first-to-fit', () => {
    const history = pairs(10); // 2000 characters
    const turn = [user('now')];
    const result = trim({ history, turn });
    expect(result.messages.at(-1)).toBe(turn[0]);
    // 9 history messages (900) + 3 fit in 1000; the kept part is the newest, contiguous.
    expect(result.messages).toEqual([...history.slice(11), turn[0]]);
    expect(result.droppedHistory).toBe(11);
    expect(result.size.chars).toBeLessThanOrEqual(1000);
  });

  it('keeps-at-least-five-recent-messages-over-budget', () => {
    const history = pairs(10);
    const turn = [user('now')];
    const result = trim({ history, turn, budget: { maxChars: 50 } });
    expect(result.messages).toEqual([...history.slice(-4), turn[0]]);
    expect(result.overBudget).toBe(true);
  });

  it('honours-a-configured-min-recent-count', () => {
    const history = pairs(10);
    const result = trim({ history, turn: [user('now')], budget: { maxChars: 50 }, minRecentMessages: 8 });
    expect(result.messages).toHaveLength(8);
  });

  it('keeps-a-native-chain-whole-when-the-fifth-recent-message-is-inside-it', () => {
    const history = pairs(5);
    const turn = [
      user('now'),
      nativeCall('', ['c1', 'c2', 'c3']),
      nativeResult('c1', 'r1'),
      nativeResult('c2', 'r2'),
      nativeResult('c3', 'r3'),
      nativeCall('', ['c4']),
      nativeResult('c4', 'r4'),
    ];
    // The 5 newest are r2, r3, call c4, r4 … and r1: r1's chain reaches back to its assistant message.
    const result = trim({ history, turn, budget: { maxChars: 10 } });
    expect(result.messages).toEqual(turn.slice(1));
    expect(result.lastUserQuery).toBe('now');
  });

  it('drops-a-prompt-mode-chain-whole-never-its-results-alone', () => {
    const big = 'x'.repeat(300);
    const turn = [
      user('question'),
      answer('{"name":"read","arguments":{}}'),
      tool(big),
      tool(big),
      answer('{"name":"read","arguments":{"p":1}}'),
      tool('small'),
      answer('{"name":"read","arguments":{"p":2}}'),
      tool('small'),
    ];
    const result = trim({ history: [], turn, budget: { maxChars: 400 }, minRecentMessages: 3 });
    // The first chain (assistant + two 300-character results) does not fit: it goes whole.
    expect(result.messages).toEqual(turn.slice(4));
    expect(result.messages.some((m) => m.content === big)).toBe(false);
    expect(result.droppedTurn).toBe(3);
  });

  it('moves-the-user-message-to-last-user-query-under-a-chain-of-five-tool-calls', () => {
    const history = pairs(3);
    const turn: Message[] = [user('Which of my files mention Seoul?')];
    for (let i = 0; i < 5; i++)
      turn.push(answer(`{"name":"read","arguments":{"file":${i}}}`), tool('y'.repeat(150)));
    const result = trim({ history, turn, budget: { maxChars: 700 } });
    expect(result.lastUserQuery).toBe('Which of my files mention Seoul?');
    expect(result.messages).not.toContain(turn[0]);
    // Every kept result still follows its own call.
    for (let i = 0; i < result.messages.length; i++) {
      if (result.messages[i]?.role === 'tool') expect(result.messages[i - 1]?.role).toMatch(/assistant|tool/);
    }
    expect(result.messages[0]?.role).toBe('assistant');
    expect(result.droppedHistory).toBe(6);
    expect(result.droppedTurn).toBe(4);
    expect(result.size.chars).toBeLessThanOrEqual(700);
  });

  it('keeps-one-native-chain-of-five-calls-whole-and-yields-last-user-query', () => {
    const ids = ['c1', 'c2', 'c3', 'c4', 'c5'];
    const turn: Message[] = [
      user('Summarise the five reports'),
      nativeCall('', ids),
      ...ids.map((id) => nativeResult(id, 'z'.repeat(200))),
    ];
    const result = trim({ history: pairs(4), turn, budget: { maxChars: 500 } });
    expect(result.messages).toEqual(turn.slice(1));
    expect(result.lastUserQuery).toBe('Summarise the five reports');
    expect(result.overBudget).toBe(true);
  });

  it('keeps-the-current-user-message-when-it-alone-overflows', () => {
    const huge = user('h'.repeat(5000));
    const result = trim({
      history: pairs(3),
      turn: [huge],
      budget: { maxChars: 1000 },
      minRecentMessages: 0,
    });
    expect(result.messages).toEqual([huge]);
    expect(result.lastUserQuery).toBeUndefined();
    expect(result.overBudget).toBe(true);
  });

  it('counts-last-user-query-against-the-budget', () => {
    const turn: Message[] = [
      user('q'.repeat(100)),
      answer('call'),
      tool('r'.repeat(100)),
      answer('call'),
      tool('r'.repeat(100)),
    ];
    const result = trim({ history: [], turn, budget: { maxChars: 250 }, minRecentMessages: 2 });
    expect(result.lastUserQuery).toBe('q'.repeat(100));
    // system '' + "\n\nLast user query: " (19) + 100 + newest chain (104)
    expect(result.size.chars).toBe(19 + 100 + 104);
  });

  it('keeps-a-summary-ahead-of-older-messages-when-it-fits', () => {
    const summary: Message = { role: 'system', content: 'Summary of earlier conversation: - x' };
    const history = pairs(10);
    const result = trim({ history, turn: [user('now')], summary, budget: { maxChars: 1000 } });
    expect(result.messages[0]).toBe(summary);
    expect(result.summaryKept).toBe(true);
    expect(result.size.chars).toBeLessThanOrEqual(1000);
  });

  it('drops-the-summary-when-only-the-recent-messages-fit', () => {
    const summary: Message = { role: 'system', content: 's'.repeat(500) };
    const result = trim({ history: pairs(10), turn: [user('now')], summary, budget: { maxChars: 600 } });
    expect(result.summaryKept).toBe(false);
    expect(result.messages).not.toContain(summary);
  });

  it('stops-at-the-token-budget-when-characters-still-fit', () => {
    // A fake counter: 10 tokens per message, so 5 messages + the 3 priming tokens fit in 60.
    const counter = { text: () => 10, message: () => 10, system: () => 0 };
    const result = trim({
      history: pairs(10),
      turn: [user('now')],
      budget: { maxChars: 100_000, maxTokens: 60 },
      counter,
    });
    expect(result.messages).toHaveLength(5);
    expect(result.size.tokens).toBe(53);
  });
});
