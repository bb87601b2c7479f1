import { describe, expect, it } from 'vitest';
import { budgetRatio, measureRequest, messageChars } from '../../../../../core/engine/context/measure.js';
import { loadTokenCounter } from '../../../../../core/engine/context/token-estimate.js';
import type { Message } from '../../../../../core/types/message.js';

describe('measure', () => {
  it('counts-system-and-message-characters', () => {
    const messages: Message[] = [
      { role: 'user', content: 'abc' },
      { role: 'assistant', content: 'de' },
      { role: 'tool', content: 'fgh', toolName: 'x' },
    ];
    expect(measureRequest('12345', messages)).toEqual({ chars: 5 + 3 + 2 + 3 });
  });

  it('counts-native-tool-calls-as-json', () => {
    const calls = [{ id: 'c1', name: 'fs__read', arguments: { path: 'a.txt' } }];
    const message: Message = { role: 'assistant', content: '', toolCalls: calls };
    expect(messageChars(message)).toBe(JSON.stringify(calls).length);
  });

  it('counts-korean-in-tokens-above-chars-over-4', async () => {
    const counter = await loadTokenCounter();
    const text = '서울의 오늘 날씨와 내일 일정을 정리해서 알려 주세요. '.repeat(20);
    const size = measureRequest('', [{ role: 'user', content: text }], counter);
    expect(size.chars).toBe(text.length);
    expect(size.tokens).toBeGreaterThan(text.length / 4);
  });

  it('reports-the-fuller-of-characters-and-tokens', () => {
    expect(budgetRatio({ chars: 50, tokens: 90 }, { maxChars: 100, maxTokens: 100 })).toBe(0.9);
    expect(budgetRatio({ chars: 50, tokens: 90 }, { maxChars: 100 })).toBe(0.5);
  });
});
