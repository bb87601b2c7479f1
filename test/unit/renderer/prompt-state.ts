import type { PromptState } from '../../../renderer/prompt-keys.js';

/** The prompt at rest: something typed, the caret on its only line, nothing selected, not a Mac. */
export const PROMPT_AT_REST: PromptState = {
  caretOnFirstLine: true,
  caretOnLastLine: true,
  hasSelection: false,
  mac: false,
  empty: false,
};
