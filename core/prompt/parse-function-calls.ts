import type { FunctionCall } from './function-call.js';
import { splitText } from './hold-back.js';
import type { ToolRef } from './prompt-tools.js';
import { createToolResolver } from './tool-resolver.js';

/** A model message split into the text the user sees and the function calls it contains. */
export interface ParsedModelText {
  /** The message without its calls (what the hold-back shows). */
  text: string;
  calls: FunctionCall[];
  /** A call was cut off by the end of the message: left as text, never run. */
  cutOff?: boolean;
}

/**
 * Finds the function calls in a complete model message, given the tools available now.
 * Same result as streaming the message through `createHoldBack`; linear time; never throws.
 */
export function parseFunctionCalls(text: string, tools: readonly ToolRef[]): ParsedModelText {
  const result = splitText(text, createToolResolver(tools), true);
  return { text: result.text, calls: result.calls, ...(result.cutOff ? { cutOff: true } : {}) };
}
