import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertMessages } from '../../../../core/providers/convert-messages.js';
import {
  harmonyAsWritten,
  ThinkTagSplitter,
  type ContentPiece,
} from '../../../../core/providers/think-tags.js';

function split(chunks: string[]): { reasoning: string; text: string; pieces: ContentPiece[] } {
  const splitter = new ThinkTagSplitter();
  const pieces = [...chunks.flatMap((c) => splitter.push(c)), ...splitter.flush()];
  const join = (kind: ContentPiece['kind']) =>
    pieces
      .filter((p) => p.kind === kind)
      .map((p) => p.text)
      .join('');
  return { reasoning: join('reasoning'), text: join('text'), pieces };
}

/** Cuts a string at the given positions. */
function cut(text: string, positions: number[]): string[] {
  const sorted = [...new Set(positions.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let last = 0;
  for (const p of sorted) {
    chunks.push(text.slice(last, p));
    last = p;
  }
  chunks.push(text.slice(last));
  return chunks;
}

describe('ThinkTagSplitter (R-PARSE-4)', () => {
  it.each([
    ['<think>a b\n</think>\n\nAnswer', '\n\nAnswer', 'a b\n'],
    ['<thinking>x</thinking>y', 'y', 'x'],
    ['<reasoning> r </reasoning>t', 't', ' r '],
    ['  \n<think>x</think>y', 'y', 'x'],
    ['plain answer', 'plain answer', ''],
    ['  plain', '  plain', ''],
    ['<b>bold</b>', '<b>bold</b>', ''],
    ['<think>never closed', '', 'never closed'],
    ['<thin', '<thin', ''],
    ['<think></think>', '', ''],
    ['Answer with <think>inside</think> stays text', 'Answer with <think>inside</think> stays text', ''],
    ['```\n<think>x</think>\n```', '```\n<think>x</think>\n```', ''],
    ['<think>a</thinking>b</think>c', 'c', 'a</thinking>b'],
  ])('splits %j', (input, text, reasoning) => {
    expect(split([input])).toMatchObject({ text, reasoning });
  });

  it('releases-reasoning-before-the-closing-tag-arrives', () => {
    const splitter = new ThinkTagSplitter();
    expect(splitter.push('<think>step one')).toEqual([{ kind: 'reasoning', text: 'step one' }]);
    expect(splitter.push(' and </thi')).toEqual([{ kind: 'reasoning', text: ' and ' }]);
    expect(splitter.push('nk>done')).toEqual([{ kind: 'text', text: 'done' }]);
  });

  it('passes-text-through-untouched-once-decided', () => {
    const splitter = new ThinkTagSplitter();
    expect(splitter.push('Hi')).toEqual([{ kind: 'text', text: 'Hi' }]);
    expect(splitter.push('<think>')).toEqual([{ kind: 'text', text: '<think>' }]);
  });

  it('any-chunking-gives-the-same-result-as-one-chunk', () => {
    const pieces = fc.constantFrom(
      '<think>',
      '</think>',
      '<thinking>',
      '</thinking>',
      '<reasoning>',
      '</reasoning>',
      '<',
      '>',
      '/',
      ' ',
      '\n',
      'a',
      '한',
      'think',
      '`',
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (parts, positions) => {
          const whole = parts.join('');
          const once = split([whole]);
          const chunked = split(cut(whole, positions));
          expect(chunked.text).toBe(once.text);
          expect(chunked.reasoning).toBe(once.reasoning);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('gpt-oss harmony channels written as text', () => {
  const message =
    '<|channel|>analysis<|message|>The user wants 2+3. Simple.<|end|><|start|>assistant<|channel|>final<|message|>It is **5**.<|return|>';

  it('the-analysis-channel-is-thinking-and-the-final-channel-is-the-answer-without-its-markers', () => {
    expect(split([message])).toMatchObject({
      reasoning: 'The user wants 2+3. Simple.',
      text: 'It is **5**.',
    });
  });

  it('the-same-in-every-chunking', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 8 }), (positions) => {
        const { reasoning, text } = split(cut(message, positions));
        expect({ reasoning, text }).toEqual({
          reasoning: 'The user wants 2+3. Simple.',
          text: 'It is **5**.',
        });
      }),
    );
  });

  it('a-call-in-harmony-tokens-goes-back-within-its-turn-as-the-model-wrote-it-in-every-chunking', () => {
    const written =
      '<|channel|>analysis<|message|>User wants 64 minus 16. Use calc sub.<|end|><|start|>assistant<|channel|>commentary to=functions.sub <|constrain|>json<|message|>{"a":64,"b":16}<|call|>';
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 8 }), (positions) => {
        const { reasoning, text } = split(cut(written, positions));
        expect(harmonyAsWritten(reasoning, text)).toBe(written);
        // As a follow-up request sends it: whole, with no thinking field beside it, for any vendor's shape.
        const [sent] = convertMessages([{ role: 'assistant', content: text, reasoning }], {
          userWithImages: () => ({}),
          assistantWithCalls: () => ({}),
          toolResult: () => ({}),
          assistantWithReasoning: () => ({ thinking: 'separately' }),
        });
        expect(sent).toEqual({ role: 'assistant', content: written });
      }),
    );
    // Any other message keeps its thinking apart (a final answer, a call in JSON).
    expect(harmonyAsWritten('why', 'It is 48.')).toBeUndefined();
    expect(harmonyAsWritten('why', '{"name": "sub", "arguments": {}}')).toBeUndefined();
  });

  it('a-call-on-the-commentary-channel-after-the-analysis-is-left-for-the-call-parser', () => {
    const call = '<|start|>assistant<|channel|>commentary to=functions.echo <|message|>{"text":"x"}<|call|>';
    expect(split([`<|channel|>analysis<|message|>Call echo.<|end|>${call}`])).toMatchObject({
      reasoning: 'Call echo.',
      text: call,
    });
  });
});
