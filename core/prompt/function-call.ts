/** A call the model asked for that names an available tool; run it. */
export interface ToolCallRequest {
  type: 'call';
  server: string;
  name: string;
  arguments: Record<string, unknown>;
  /** The model's optional `"reason"` field. */
  reason?: string;
  /**
   * The server the model named, where it is not the tool's (one hac does not have: the tool was found by its name
   * elsewhere). Run as the model's call, unless the words before it introduce it as an example.
   */
  otherServer?: string;
}

/**
 * Something shaped as a call that cannot run: an unknown tool, a name two servers share, arguments that are
 * not an object, a call tag that cannot be read. `message` is the text to send back as the tool error (the
 * engine adds `Error: `); it counts as a round like any call.
 */
export interface AttemptedCallError {
  type: 'attempted-call-error';
  /** The server and tool as the model wrote them, when it did. */
  server?: string;
  name?: string;
  message: string;
}

/** One function call found in model text, in the order written. */
export type FunctionCall = ToolCallRequest | AttemptedCallError;
