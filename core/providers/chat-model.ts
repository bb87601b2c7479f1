import type { Provider } from '../config/load-config.js';
import type { ChatStreamPart } from '../types/chat-stream.js';
import type { Message } from '../types/message.js';

/** A tool offered to a native-mode model: the API name (`<server>__<tool>`) and its JSON schema. */
export interface NativeToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One LLM call. The system message, if any, is the first of `messages`. */
export interface ChatRequest {
  messages: Message[];
  /** Native-mode tools; never set for prompt-mode models. */
  tools?: NativeToolSpec[];
}

/**
 * The provider seam: stream one answer. Throws ProviderError with a normalised code.
 * Aborting `signal` closes the HTTP request at once.
 */
export interface ChatModel {
  readonly provider: Provider;
  /** The model id sent to the API. */
  readonly modelId: string;
  /** The most native tools one request may carry; absent when the API sets none. */
  readonly maxTools?: number;
  stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatStreamPart>;
}
