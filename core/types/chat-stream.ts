import type { NativeToolCall, Usage } from './message.js';

/** What a ChatModel yields while streaming one answer. Plain JSON with kebab-case `type`s. */
export type ChatStreamPart =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call'; call: NativeToolCall }
  | { type: 'usage'; usage: Usage }
  /** Blocks the provider wants back unchanged on this assistant message within the turn (Anthropic's signed thinking). */
  | { type: 'replay'; blocks: unknown[] }
  /** Something the user should know about this call (shown dim), e.g. a setting the model refused. */
  | { type: 'notice'; text: string }
  | { type: 'finish'; reason: 'stop' | 'length' | 'tool-calls' | 'other' };
