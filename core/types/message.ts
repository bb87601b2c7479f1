/** A tool call requested by a model in native mode: the API's id, the API's tool name, parsed arguments. */
export interface NativeToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** The arguments were cut off by the end of the stream: the call is never run. */
  cutOff?: boolean;
  /** The arguments are not JSON (complete, just broken): the call is never run. */
  invalidArguments?: boolean;
}

/** A picture sent with a message: the bytes as they go to the model (already scaled to fit), in base64. */
export interface MessageImage {
  mediaType: 'image/png' | 'image/jpeg';
  /** Base64 of the bytes; absent in a session file, which names the asset by `sha256` instead. */
  data?: string;
  width: number;
  height: number;
  /** Size of the bytes. */
  bytes: number;
  /** Hex SHA-256 of the bytes: the name of its copy beside the session. */
  sha256: string;
  /** What the user knows it as: a file name, `pasted image`, or `<server>/<tool>`. */
  name: string;
}

/** One message of a conversation, as kept in the context. Plain JSON, browser-safe. */
export type Message =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; images?: MessageImage[] }
  /**
   * `reasoning`: the thinking behind a message that made tool calls, sent back within the same turn to the
   * servers that require it (DeepSeek); never kept in the context of later turns or the session.
   */
  | {
      role: 'assistant';
      content: string;
      toolCalls?: NativeToolCall[];
      reasoning?: string;
      /** Provider blocks sent back unchanged within the turn (Anthropic's signed thinking); never saved. */
      replay?: unknown[];
      /** The turn ended without an answer: the content says what happened (never sent as a field). */
      unanswered?: Unanswered;
    }
  | { role: 'tool'; content: string; toolCallId?: string; toolName?: string; images?: MessageImage[] };

/** How a turn ended without an answer; its question stays in the conversation all the same. */
export type Unanswered = 'declined' | 'cancelled' | 'failed';

/** Token counts of one LLM call. `estimated` when the provider reported none. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  estimated?: boolean;
}
