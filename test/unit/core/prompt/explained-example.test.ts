import { describe, expect, it } from 'vitest';
import { createHoldBack, type ToolRef } from '../../../../core/prompt/index.js';

const tools: ToolRef[] = [{ server: 'context7', name: 'resolve-library-id' }];

const CALL = '{"server": "context7", "name": "resolve-library-id", "arguments": {"libraryName": "java"}}';

/** The same answer streamed in pieces of every size given: what was shown and which calls were found. */
function split(text: string, sizes = [1, 2, 3, 7, 16, text.length]) {
  return sizes.map((size) => {
    const holdBack = createHoldBack(tools);
    let shown = '';
    for (let i = 0; i < text.length; i += size) shown += holdBack.push(text.slice(i, i + size)).show;
    const end = holdBack.end();
    return { shown: shown + end.show, calls: end.calls.length };
  });
}

/** Every chunking gives one result: that result. */
function only(text: string) {
  const [first, ...rest] = split(text);
  for (const other of rest) expect(other).toEqual(first);
  return first!;
}

describe('a call format explained is shown, never run', () => {
  it('the-template-filled-with-example-values-in-a-fence-after-for-example', () => {
    const answer = `For example, a call looks like this:\n\n\`\`\`json\n${CALL}\n\`\`\`\n\nThat is the whole format.`;
    expect(only(answer)).toEqual({ shown: answer, calls: 0 });
  });

  it('the-openai-json-shape-while-explaining-it', () => {
    const shape =
      '{"type": "function", "function": {"name": "resolve-library-id", "arguments": "{\\"libraryName\\": \\"java\\"}"}}';
    const answer = `In the OpenAI API the format is the same, e.g.:\n${shape}\nThe arguments are a JSON string.`;
    expect(only(answer)).toEqual({ shown: answer, calls: 0 });
  });

  it('an-example-after-prose-on-the-same-line', () => {
    const answer = `You would write, for example: ${CALL} and hac runs it.`;
    expect(only(answer)).toEqual({ shown: answer, calls: 0 });
  });

  it('a-tag-format-example-is-shown-whole', () => {
    const answer =
      'The tag format looks like this:\n<tool_call>\n{"name": "resolve-library-id", "arguments": {"libraryName": "java"}}\n</tool_call>\nDone.';
    expect(only(answer)).toEqual({ shown: answer, calls: 0 });
  });

  it('korean-japanese-and-chinese-explanations', () => {
    for (const words of ['예를 들어 이렇게 씁니다:', '例えば、次のように書きます:', '例如，这样写：']) {
      const answer = `${words}\n${CALL}\n`;
      expect(only(answer)).toEqual({ shown: answer, calls: 0 });
    }
  });

  it('a-real-call-after-the-explanation-runs-and-only-it', () => {
    const example = `For example:\n\`\`\`json\n${CALL}\n\`\`\`\n`;
    const result = only(`${example}Now I will look it up for you.\n${CALL}\n`);
    expect(result.calls).toBe(1);
    expect(result.shown).toBe(`${example}Now I will look it up for you.\n`);
  });

  it('calls-whose-words-only-look-like-cues-still-run', () => {
    for (const words of [
      'Let me look that up on example.com:',
      'Looks like the file is missing, let me check:',
      'I will use the tool now.',
      '확인해 보겠습니다.',
    ]) {
      expect(only(`${words}\n${CALL}\n`)).toEqual({ shown: `${words}\n`, calls: 1 });
    }
  });
});
