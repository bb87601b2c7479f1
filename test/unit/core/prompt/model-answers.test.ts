import { describe, expect, it } from 'vitest';
import { createHoldBack, parseFunctionCalls, type ToolRef } from '../../../../core/prompt/index.js';
import { MODEL_ANSWERS } from '../../../fixtures/prompt/model-answers.js';

// Every realistic answer (test/fixtures/prompt/model-answers.ts) read whole and streamed in every chunk size from
// one character to the whole text: the same shown text and the same calls whatever the chunking, so no marker or
// key cut by a chunk boundary changes anything (R-PARSE-3, R-PARSE-5).

const tools: ToolRef[] = [
  { server: 'tools', name: 'echo' },
  { server: 'tools', name: 'fail' },
];

function streamed(text: string, size: number) {
  const holdBack = createHoldBack(tools);
  let shown = '';
  for (let at = 0; at < text.length; at += size) shown += holdBack.push(text.slice(at, at + size)).show;
  const end = holdBack.end();
  return { shown: shown + end.show, calls: end.calls, cutOff: end.cutOff ?? false };
}

describe('realistic model answers, whole and in every chunking', () => {
  for (const answer of MODEL_ANSWERS) {
    it(`${answer.family}: ${answer.what}`, () => {
      const whole = parseFunctionCalls(answer.text, tools);
      expect(whole.text).toBe(answer.shown);
      expect(whole.calls).toHaveLength(answer.results.length);
      expect(whole.cutOff ?? false).toBe(answer.cutOff ?? false);
      for (let size = 1; size <= answer.text.length; size++) {
        const part = streamed(answer.text, size);
        expect({ size, ...part }).toEqual({
          size,
          shown: whole.text,
          calls: whole.calls,
          cutOff: whole.cutOff ?? false,
        });
      }
    });
  }
});
