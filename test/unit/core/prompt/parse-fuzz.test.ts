import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHoldBack, parseFunctionCalls, type ToolRef } from '../../../../core/prompt/index.js';

const tools: ToolRef[] = [
  { server: 'context7', name: 'resolve-library-id' },
  { server: 'web', name: 'search' },
  { server: 'files', name: 'search' },
  { server: 'hac', name: 'ask_user' },
];

// Pieces that drive the splitter into every state, mixed with arbitrary text.
const pieces = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '\n',
    '\n\n',
    '{',
    '}',
    '[',
    ']',
    '"',
    "'",
    '\\',
    '`',
    '```',
    '```json\n',
    '```python\n',
    '\n```\n',
    '<',
    '>',
    '/',
    '//',
    '/*',
    '*/',
    '<tool_call>',
    '</tool_call>',
    '<function_call name="ask_user">',
    '</function_call>',
    '<function_call',
    ' name="search"',
    '{"server": "context7", "name": "resolve-library-id", "arguments": {"libraryName": "java"}}',
    '{"name": "search", "arguments": {}}',
    '{"name": "nope", "arguments": "{bad"}',
    '{"name":"Alice","age":3}',
    '[{"tool": "ask_user", "parameters": {"question": "q"}}]',
    'key: ',
    ',',
    ':',
    ' ',
    '\t',
    '\r\n',
    '{"name": "ask_user", "arguments": {"question": "raw\nline break"}}',
    '```',
    // R-PARSE-6/7: the formats of core/prompt/formats/ and strict JSON with blank lines.
    '[TOOL_CALLS]',
    '[ARGS]',
    '[CALL_ID]',
    'ask_user',
    '<|python_tag|>',
    '```tool_code\n',
    'print(',
    'ask_user(question="q")',
    '[ask_user(question="q"), search(q=1)]',
    '<｜tool▁calls▁begin｜>',
    '<｜tool▁call▁begin｜>',
    '<|tool_call_begin|>',
    '<｜tool▁sep｜>',
    '<｜tool▁call▁end｜>',
    '<｜tool▁calls▁end｜>',
    '<|start|>assistant',
    '<|channel|>commentary to=functions.ask_user',
    '<|channel|>analysis',
    '<|message|>',
    '<|call|>',
    '<|eom_id|>',
    'functools[',
    '<function=ask_user>',
    '<parameter=question>',
    '</parameter>',
    '</function>',
    '{"tool_calls": [',
    '"question": "v",',
    '\n\n  ',
  ),
);
const modelText = fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join(''));

function streamed(text: string, cuts: number[]) {
  const holdBack = createHoldBack(tools);
  let shown = '';
  let last = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    shown += holdBack.push(text.slice(last, cut)).show;
    last = cut;
  }
  shown += holdBack.push(text.slice(last)).show;
  const end = holdBack.end();
  return { shown: shown + end.show, end };
}

describe('parser fuzz (R-PARSE-5)', () => {
  it('never-throws-and-streaming-matches-the-whole-text-parse', () => {
    fc.assert(
      fc.property(
        modelText.chain((text) =>
          fc.tuple(fc.constant(text), fc.array(fc.nat({ max: text.length }), { maxLength: 12 })),
        ),
        ([text, cuts]) => {
          const whole = parseFunctionCalls(text, tools);
          const { shown, end } = streamed(text, cuts);
          expect(shown).toBe(end.text);
          expect({ text: end.text, calls: end.calls, ...(end.cutOff ? { cutOff: true } : {}) }).toEqual(
            whole,
          );
          // Shown text is the model text with parts taken out, never with text added.
          expect(whole.text.length).toBeLessThanOrEqual(text.length);
          if (whole.calls.length === 0) expect(whole.text).toBe(text);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('never-throws-on-arbitrary-unicode', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const result = parseFunctionCalls(text, tools);
        expect(typeof result.text).toBe('string');
      }),
      { numRuns: 150 },
    );
  });

  it('a-canonical-call-in-prose-is-always-found-and-never-shown', () => {
    const prose = fc.stringMatching(/^[A-Za-z .,!?]{0,40}$/);
    fc.assert(
      fc.property(prose, prose, fc.string({ maxLength: 20 }), (before, after, value) => {
        const call = JSON.stringify({ server: 'hac', name: 'ask_user', arguments: { question: value } });
        const result = parseFunctionCalls(`${before}\n${call}\n${after}`, tools);
        expect(result.calls).toEqual([
          { type: 'call', server: 'hac', name: 'ask_user', arguments: { question: value } },
        ]);
        expect(result.text).toBe(`${before}\n${after}`);
      }),
      { numRuns: 200 },
    );
  });
});

describe('parser time is linear in the input size', () => {
  // Model-like text: prose, data objects, code fences, a call, and unbalanced openers that force rescans.
  const block = [
    'Here is what I found about the library.\n',
    '{"name": "Alice", "age": 3, "tags": ["a", "b"]}\n',
    '```python\nprint({"x": 1})\n```\n',
    '[link](https://example.com) and a < b\n',
    '{"server": "context7", "name": "resolve-library-id", "arguments": {"libraryName": "java"}}\n',
    '{ "unclosed": "brace\n',
    '<tool_call> not json\n',
  ].join('');
  const textOf = (bytes: number): string => block.repeat(Math.ceil(bytes / block.length)).slice(0, bytes);

  function time(text: string): number {
    const start = performance.now();
    parseFunctionCalls(text, tools);
    return performance.now() - start;
  }

  /**
   * How much longer the large text takes than the small one: the best of five runs each, taken in turns, so that a
   * shared machine's pauses, and a stretch where it is busier, reach both sizes alike. The large text is 16 times the
   * small one: linear is 16x, quadratic 256x, so the limit of 64x leaves room for caches a loaded machine shares
   * (a 4x step with a limit of 10 failed at 12.9x on a loaded machine) and still catches a rescan.
   */
  function ratio(small: string, large: string): number {
    let [t1, t4] = [Infinity, Infinity];
    for (let run = 0; run < 5; run++) {
      t1 = Math.min(t1, time(small));
      t4 = Math.min(t4, time(large));
    }
    return t4 / t1;
  }

  it('sixteen-times-the-text-takes-less-than-four-times-linear', () => {
    const small = textOf(1 << 18);
    const large = textOf(4 << 20);
    time(small); // warm up the JIT
    expect(ratio(small, large)).toBeLessThan(64);
  });

  it('unbalanced-format-markers-and-blank-lines-stay-linear', () => {
    const nasty = (bytes: number): string =>
      '[TOOL_CALLS][{\n<|python_tag|>{\n<｜tool▁calls▁begin｜>x\n<|channel|>commentary to=functions.x<|message|>{\nfunctools[{\n[a(\n{\n\n"k": [\n\n'.repeat(
        bytes / 128,
      );
    time(nasty(1 << 16));
    expect(ratio(nasty(1 << 16), nasty(1 << 20))).toBeLessThan(64);
  });

  it('unbalanced-openers-stay-linear', () => {
    const nasty = (bytes: number): string => '{"a": "b\n[{\n<tool_call>{\n```json\n{'.repeat(bytes / 32);
    time(nasty(1 << 16));
    expect(ratio(nasty(1 << 16), nasty(1 << 20))).toBeLessThan(64);
  });
});
