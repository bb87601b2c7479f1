import type { Logger } from '../logging/logger.js';
import type { FunctionCall, ToolRef } from '../prompt/index.js';
import { createHoldBack } from '../prompt/index.js';
import type { ChatModel, ChatRequest } from '../providers/chat-model.js';
import { streamWithRetries } from '../providers/retry.js';
import { isStalledStream, type StalledStreamError } from '../providers/timeouts.js';
import type { EngineEvent } from '../types/engine-event.js';
import type { Message, NativeToolCall, Usage } from '../types/message.js';
import { coalesceDeltas } from './coalesce-deltas.js';
import { CUT_OFF } from './resolve-calls.js';

/** One LLM call's outcome, after its events were yielded. */
export interface ModelCallResult {
  /** The model's whole answer text, calls included (the assistant message kept within the turn). */
  content: string;
  /** The text the user saw: in prompt mode, without the calls. */
  visibleText: string;
  /** Calls found in the text (prompt mode). */
  promptCalls: FunctionCall[];
  /** Calls from the API (native mode). */
  nativeCalls: NativeToolCall[];
  /** The model's thinking during this call. */
  reasoning: string;
  /** What the provider wants back on this message within the turn (ChatStreamPart `replay`). */
  replay?: unknown[];
  usage?: Usage;
  /** Set when the idle timeout cut the answer: what arrived is kept. */
  stalled?: StalledStreamError;
}

export interface ModelCallOptions {
  model: ChatModel;
  request: ChatRequest;
  /** Prompt mode: the tools the text may call; hold back and parse. Undefined: show all text (native mode). */
  promptTools?: readonly ToolRef[];
  logger: Logger;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** How long streamed text collects before it is handed on (see coalesceDeltas). */
  batchMs?: number;
}

/**
 * Streams one answer as engine events: thinking between its markers, text as it
 * arrives, call JSON held back; retries show as one line each. ProviderErrors are rethrown after the
 * thinking block is closed.
 */
export async function* callModel(
  options: ModelCallOptions,
  signal: AbortSignal,
): AsyncGenerator<EngineEvent, ModelCallResult> {
  const holdBack = options.promptTools ? createHoldBack(options.promptTools) : undefined;
  const result: ModelCallResult = {
    content: '',
    visibleText: '',
    promptCalls: [],
    nativeCalls: [],
    reasoning: '',
  };
  let thinking = false;
  const endThinking = function* (): Generator<EngineEvent> {
    if (thinking) {
      thinking = false;
      yield { type: 'thinking-end' };
    }
  };
  try {
    const parts = coalesceDeltas(
      streamWithRetries(options.model, options.request, signal, {
        logger: options.logger,
        sleep: options.sleep,
      }),
      options.batchMs,
    );
    for await (const part of parts) {
      switch (part.type) {
        case 'reasoning-delta':
          if (!part.text) break;
          if (!thinking) {
            thinking = true;
            yield { type: 'thinking-start' };
          }
          result.reasoning += part.text;
          yield { type: 'thinking-delta', text: part.text };
          break;
        case 'text-delta': {
          if (!part.text) break;
          result.content += part.text;
          const show = holdBack ? holdBack.push(part.text).show : part.text;
          if (show) {
            yield* endThinking();
            yield { type: 'text-delta', text: show };
          }
          break;
        }
        case 'tool-call':
          yield* endThinking();
          result.nativeCalls.push(part.call);
          break;
        case 'usage':
          result.usage = part.usage;
          break;
        case 'replay':
          result.replay = part.blocks;
          break;
        case 'notice':
          yield { type: 'notice', level: 'dim', text: part.text };
          break;
        case 'retry':
          yield {
            type: 'retry',
            attempt: part.attempt,
            code: part.code,
            delayMs: part.delayMs,
            message: part.notice,
          };
          break;
        case 'finish':
          break;
      }
    }
  } catch (error) {
    yield* endThinking();
    if (!isStalledStream(error)) throw error;
    result.stalled = error;
  }
  yield* endThinking();
  if (holdBack) {
    const end = holdBack.end();
    if (end.show) yield { type: 'text-delta', text: end.show };
    if (end.cutOff) yield { type: 'notice', level: 'dim', text: CUT_OFF };
    result.visibleText = end.text;
    result.promptCalls = end.calls;
  } else {
    result.visibleText = result.content;
  }
  return result;
}

/** A model's whole answer as one text, for calls nobody watches (a summary). */
export async function answerText(chat: ChatModel, messages: Message[], signal: AbortSignal): Promise<string> {
  let out = '';
  for await (const part of chat.stream({ messages }, signal)) {
    if (part.type === 'text-delta') out += part.text;
  }
  return out.trim();
}
