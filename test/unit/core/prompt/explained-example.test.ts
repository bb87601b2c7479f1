import { describe, expect, it } from 'vitest';
import { createHoldBack, type ToolRef } from '../../../../core/prompt/index.js';

const tools: ToolRef[] = [
  { server: 'context7', name: 'resolve-library-id' },
  { server: 'docs', name: 'search' },
];

const CALL = '{"server": "context7", "name": "resolve-library-id", "arguments": {"libraryName": "java"}}';
/** A call of a tool hac does not offer: shown while explained, reported as an attempt otherwise. */
const UNKNOWN = '{"name": "get_weather", "arguments": {"city": "Seoul"}}';

/** The same answer streamed in pieces of every size given: what was shown and which calls were found. */
function split(text: string, sizes = [1, 2, 3, 7, 16, text.length], offered = tools) {
  return sizes.map((size) => {
    const holdBack = createHoldBack(offered);
    let shown = '';
    for (let i = 0; i < text.length; i += size) shown += holdBack.push(text.slice(i, i + size)).show;
    const end = holdBack.end();
    return { shown: shown + end.show, calls: end.calls.map((c) => (c.type === 'call' ? c.name : c.type)) };
  });
}

/** Every chunking (every piece size from 1 to the whole) gives one result: that result. */
function only(text: string, offered = tools) {
  const [first, ...rest] = split(
    text,
    Array.from({ length: text.length }, (_, i) => i + 1),
    offered,
  );
  for (const other of rest) expect(other).toEqual(first);
  return first!;
}

describe('a call explained as advice runs when its tool exists; an example of a tool not offered is text', () => {
  it('qwen-words-a-real-call-as-advice-with-a-sentence-after-it-and-the-call-runs', () => {
    const answer =
      'To search the documentation you can use the docs__search tool. The call looks like this:\n\n' +
      '```json\n{"name": "docs__search", "arguments": {"query": "retry policy"}}\n```\n\n' +
      'This will return the matching pages.';
    const result = only(answer);
    expect(result.calls).toEqual(['search']);
    expect(result.shown).not.toContain('docs__search", "arguments"');
    expect(result.shown).toContain('This will return the matching pages.');
  });

  it('the-template-of-an-existing-tool-after-for-example-runs-too', () => {
    const answer = `For example, a call looks like this:\n\n\`\`\`json\n${CALL}\n\`\`\`\n\nThat is the whole format.`;
    expect(only(answer).calls).toEqual(['resolve-library-id']);
  });

  it('an-example-of-a-tool-not-offered-is-shown-whole-not-reported', () => {
    for (const answer of [
      `For example, a call looks like this:\n\n\`\`\`json\n${UNKNOWN}\n\`\`\`\n\nThat is the whole format.`,
      `You would write, for example: ${UNKNOWN} and the client runs it.`,
      `The tag format looks like this:\n<tool_call>\n${UNKNOWN}\n</tool_call>\nDone.`,
    ])
      expect(only(answer)).toEqual({ shown: answer, calls: [] });
  });

  it('korean-japanese-and-chinese-explanations-of-a-tool-not-offered', () => {
    for (const words of ['예를 들어 이렇게 씁니다:', '例えば、次のように書きます:', '例如，这样写：']) {
      const answer = `${words}\n${UNKNOWN}\n`;
      expect(only(answer)).toEqual({ shown: answer, calls: [] });
    }
  });

  it('without-a-cue-a-call-of-a-tool-not-offered-is-reported-as-an-attempt', () => {
    expect(only(`Let me check.\n${UNKNOWN}\n`)).toEqual({
      shown: 'Let me check.\n',
      calls: ['attempted-call-error'],
    });
  });

  it('calls-whose-words-only-look-like-cues-still-run', () => {
    for (const words of [
      'Let me look that up on example.com:',
      'Looks like the file is missing, let me check:',
      'I will use the tool now.',
      '확인해 보겠습니다.',
    ]) {
      expect(only(`${words}\n${CALL}\n`)).toEqual({ shown: `${words}\n`, calls: ['resolve-library-id'] });
    }
  });

  it('an-example-naming-a-server-hac-does-not-have-is-shown-even-when-a-tool-of-that-name-exists-elsewhere', () => {
    // qwen2.5, asked "Show me an example of how you call a tool.": context7 is not connected; docs has a tool
    // of the same name. Framed as an example, the block is the answer, not a call.
    const offered: ToolRef[] = [{ server: 'docs', name: 'resolve-library-id' }];
    const answer =
      'Sure. For example, to look up the Java library the call would be:\n\n```json\n' +
      `${CALL}\n\`\`\`\n\nI only send a block like this when I actually need the tool.`;
    expect(only(answer, offered)).toEqual({ shown: answer, calls: [] });
    // Not framed as an example, the same block is the model's call of the tool it has by that name.
    const call = `Let me look that up.\n${CALL}\n`;
    expect(only(call, offered).calls).toEqual(['resolve-library-id']);
  });

  it('an-openai-format-example-explained-to-the-user-is-shown-not-reported', () => {
    const answer =
      'The model returns the function name and its arguments, like this:\n\n```json\n' +
      '{"name": "get_weather", "arguments": {...}}\n```\n\nYour code then runs get_weather and sends the result back.';
    expect(only(answer)).toEqual({ shown: answer, calls: [] });
  });
});
