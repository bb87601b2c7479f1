import type { Message } from '../../types/message.js';
import { imageTokens } from '../../images/image-limits.js';

/** Counts tokens with a real BPE tokenizer; per-message counts are cached by message object. */
export interface TokenCounter {
  /** Tokens of plain text (special-token strings such as `<|endoftext|>` count as ordinary text). */
  text(text: string): number;
  /** Tokens of one chat message: content, native tool calls, and the chat format's per-message overhead. */
  message(message: Message): number;
  /** Tokens of the system message (with its overhead; 0 when empty). The last few prompts are cached. */
  system(system: string): number;
}

/** Tokens the chat format adds around each message (`<|im_start|>role … <|im_end|>`), as OpenAI counts it. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens the chat format adds once per request to prime the reply. */
export const REPLY_PRIMING_TOKENS = 3;

const SYSTEM_CACHE_SIZE = 4;

type CountTokens = (text: string, options: { disallowedSpecial: Set<string> }) => number;

let loading: Promise<TokenCounter> | undefined;

/**
 * The o200k_base tokenizer, imported on first use: loading its tables costs hundreds of milliseconds,
 * which a plain chat with no `contextWindow` never pays. Call it early (without awaiting) to warm it up.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then(
    (mod) => createTokenCounter(mod.countTokens as CountTokens),
    (error: unknown) => {
      loading = undefined; // a failed import may be retried by the next call
      throw error;
    },
  );
  return loading;
}

/** A counter over any `countTokens` function; the cache lives as long as the message objects do. */
export function createTokenCounter(countTokens: CountTokens): TokenCounter {
  // An empty disallowed set: user text that contains `<|endoftext|>` is counted, not thrown on.
  const options = { disallowedSpecial: new Set<string>() };
  const cache = new WeakMap<Message, number>();
  const text = (value: string): number => (value === '' ? 0 : countTokens(value, options));
  // The system prompt changes rarely (the date line, once a day); remembering a few avoids re-tokenizing it per call.
  const systems = new Map<string, number>();
  return {
    text,
    system(system) {
      if (system === '') return 0;
      let tokens = systems.get(system);
      if (tokens === undefined) {
        tokens = MESSAGE_OVERHEAD_TOKENS + text(system);
        if (systems.size >= SYSTEM_CACHE_SIZE) systems.clear();
        systems.set(system, tokens);
      }
      return tokens;
    },
    message(message) {
      let tokens = cache.get(message);
      if (tokens === undefined) {
        tokens = MESSAGE_OVERHEAD_TOKENS + text(message.content);
        if (message.role === 'assistant' && message.toolCalls?.length)
          tokens += text(JSON.stringify(message.toolCalls));
        if ((message.role === 'user' || message.role === 'tool') && message.images)
          for (const image of message.images) tokens += imageTokens(image);
        cache.set(message, tokens);
      }
      return tokens;
    },
  };
}
