import { describe, expect, it } from 'vitest';
import {
  createTokenCounter,
  loadTokenCounter,
  MESSAGE_OVERHEAD_TOKENS,
} from '../../../../../core/engine/context/token-estimate.js';
import type { Message } from '../../../../../core/types/message.js';

describe('token estimate', () => {
  it('counts-korean-above-the-chars-over-4-guess', async () => {
    const counter = await loadTokenCounter();
    const korean = '안녕하세요. 오늘 날씨가 정말 좋네요. 이 폴더의 파일 목록을 보여 주세요.';
    expect(counter.text(korean)).toBeGreaterThan(korean.length / 4);
    // English is close to the guess, so the tokenizer is really measuring, not scaling.
    const english = 'The quick brown fox jumps over the lazy dog near the river bank.';
    expect(counter.text(english)).toBeLessThan(english.length / 3);
  });

  it('counts-special-token-text-without-throwing', async () => {
    const counter = await loadTokenCounter();
    expect(counter.text('before <|endoftext|> after <|im_start|>')).toBeGreaterThan(4);
  });

  it('adds-overhead-and-native-tool-calls-to-a-message', async () => {
    const counter = await loadTokenCounter();
    const plain: Message = { role: 'assistant', content: 'Listing files.' };
    const withCalls: Message = {
      role: 'assistant',
      content: 'Listing files.',
      toolCalls: [{ id: 'c1', name: 'fs__list', arguments: { path: '/tmp' } }],
    };
    expect(counter.message(plain)).toBe(MESSAGE_OVERHEAD_TOKENS + counter.text('Listing files.'));
    expect(counter.message(withCalls)).toBeGreaterThan(counter.message(plain) + 5);
  });

  it('tokenizes-each-message-object-once', () => {
    const seen: string[] = [];
    const counter = createTokenCounter((text) => {
      seen.push(text);
      return text.length;
    });
    const message: Message = { role: 'user', content: 'hello' };
    counter.message(message);
    counter.message(message);
    counter.system('system prompt');
    counter.system('system prompt');
    expect(seen).toEqual(['hello', 'system prompt']);
    // An equal but different object is counted again: the cache follows object identity.
    counter.message({ role: 'user', content: 'hello' });
    expect(seen).toHaveLength(3);
  });

  it('loads-the-tokenizer-once', async () => {
    expect(await loadTokenCounter()).toBe(await loadTokenCounter());
  });
});
