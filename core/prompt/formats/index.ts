import type { CallFormat } from './call-format.js';
import { functionCallTag, toolCallTag } from './call-tags.js';
import { deepseekToolCalls } from './deepseek.js';
import { gemma4Call } from './gemma4.js';
import { harmonyCall } from './harmony.js';
import { llamaPythonTag } from './llama-python-tag.js';
import { mistralToolCalls } from './mistral.js';
import { phiFunctools } from './phi-functools.js';
import { pythonicList } from './pythonic-list.js';

export type { CallFormat, CallReader, FormatDecision, ReadStep } from './call-format.js';
export { readToolCode } from './pythonic-list.js';

/**
 * The call formats with markers, tried side by side from a candidate's first character.
 * Bare JSON calls and fenced blocks are read by the hold-back itself; a line-start `[` that none of these
 * takes is tried as a JSON array.
 */
export const CALL_FORMATS: readonly CallFormat[] = [
  toolCallTag,
  functionCallTag,
  mistralToolCalls,
  llamaPythonTag,
  pythonicList,
  deepseekToolCalls,
  harmonyCall,
  phiFunctools,
  gemma4Call,
];
