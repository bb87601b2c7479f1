import { describe, expect, it } from 'vitest';
import { functionCallTag, toolCallTag } from '../../../../../core/prompt/formats/call-tags.js';
import type { CallFormat } from '../../../../../core/prompt/formats/call-format.js';
import { deepseekToolCalls } from '../../../../../core/prompt/formats/deepseek.js';
import { endOfTurnToken } from '../../../../../core/prompt/formats/end-of-turn.js';
import { harmonyCall } from '../../../../../core/prompt/formats/harmony.js';
import { llamaPythonTag } from '../../../../../core/prompt/formats/llama-python-tag.js';
import { mistralToolCalls } from '../../../../../core/prompt/formats/mistral.js';
import { phiFunctools } from '../../../../../core/prompt/formats/phi-functools.js';
import { pythonicList } from '../../../../../core/prompt/formats/pythonic-list.js';
import { createToolResolver } from '../../../../../core/prompt/tool-resolver.js';

// Each reader of the call-format table (core/prompt/formats/) on its own: where a call's text ends, how soon text
// that is not this format is let go (the hold-back shows it then), and what the decision reads.

const resolver = createToolResolver([
  { server: 'tools', name: 'echo' },
  { server: 'web', name: 'search' },
]);

/** Feeds `text` to a fresh reader: where it said 'end' or 'reject', or 'more' at the end of the text. */
function read(format: CallFormat, text: string): { step: string; at: number } {
  const reader = format.read();
  for (let at = 0; at < text.length; at++) {
    const step = reader.feed(text.charAt(at));
    if (step !== 'more') return { step, at };
  }
  return { step: 'more', at: text.length };
}

const echo = (text: string) => [{ type: 'call', server: 'tools', name: 'echo', arguments: { text } }];

interface Case {
  format: CallFormat;
  call: string;
  calls: unknown;
  /** Text with the format's first characters that is not a call, and where the reader lets it go. */
  notCall: string;
  rejectAt: number;
}

const CASES: Case[] = [
  {
    format: toolCallTag,
    call: '<tool_call>{"name": "echo", "arguments": {"text": "a"}}</tool_call>',
    calls: echo('a'),
    notCall: '<tool_calls> are plural',
    rejectAt: 10,
  },
  {
    format: functionCallTag,
    call: '<function_call name="echo" server="tools">{"text": "b"}</function_call>',
    calls: echo('b'),
    notCall: '<function_call> tags are one way',
    rejectAt: 16,
  },
  {
    format: mistralToolCalls,
    call: '[TOOL_CALLS]echo[CALL_ID]x9[ARGS]{"text": "c"}',
    calls: echo('c'),
    notCall: '[TOOL_CALLS] comes first',
    rejectAt: 18,
  },
  {
    format: llamaPythonTag,
    call: '<|python_tag|>{"name": "echo", "parameters": {"text": "d"}}',
    calls: echo('d'),
    notCall: '<|python_tag|> is a token',
    rejectAt: 17,
  },
  {
    format: pythonicList,
    call: '[echo(text="e, ]"), search(q=1)]',
    calls: [...echo('e, ]'), { type: 'call', server: 'web', name: 'search', arguments: { q: 1 } }],
    notCall: '[link](https://example.com)',
    rejectAt: 5,
  },
  {
    format: deepseekToolCalls,
    call: '<｜tool▁call▁begin｜>echo<｜tool▁sep｜>{"text": "f"}<｜tool▁call▁end｜>',
    calls: echo('f'),
    notCall: '<｜tool▁output▁begin｜>',
    rejectAt: 7,
  },
  {
    format: harmonyCall,
    call: '<|start|>assistant<|channel|>commentary to=functions.echo<|message|>{"text": "g"}<|call|>',
    calls: echo('g'),
    notCall: '<|channel|>final<|message|>Hello',
    rejectAt: 26,
  },
  {
    format: phiFunctools,
    call: 'functools[{"name": "echo", "arguments": {"text": "h"}}]',
    calls: echo('h'),
    notCall: 'functools.partial',
    rejectAt: 9,
  },
];

describe('each call format reader', () => {
  for (const c of CASES) {
    describe(c.format.name, () => {
      it('ends-exactly-at-the-last-character-of-the-call', () => {
        expect(read(c.format, `${c.call} and more`)).toEqual({ step: 'end', at: c.call.length - 1 });
      });

      it('reads-the-call', () => {
        expect(c.format.decide(c.call, true, resolver)).toEqual(c.calls);
      });

      it('lets-go-of-text-that-is-not-this-format-early', () => {
        expect(read(c.format, c.notCall)).toEqual({ step: 'reject', at: c.rejectAt });
      });

      it('never-runs-a-call-cut-off-by-the-end-of-the-message', () => {
        const cut = c.call.slice(0, c.call.indexOf('"', c.call.indexOf('text') + 6) + 2);
        expect(c.format.decide(cut, false, resolver)).not.toEqual(
          expect.arrayContaining([expect.anything()]),
        );
      });
    });
  }
});

describe('decisions that need a closer look', () => {
  it('a-pythonic-list-naming-an-unknown-tool-is-text', () => {
    expect(pythonicList.decide('[get_weather(city="x")]', true, resolver)).toBeNull();
  });

  it('an-unknown-tool-after-a-marker-is-an-error-for-the-model', () => {
    expect(mistralToolCalls.decide('[TOOL_CALLS]nope[ARGS]{}', true, resolver)).toEqual([
      expect.objectContaining({ type: 'attempted-call-error', name: 'nope' }),
    ]);
  });

  it('qwen3-coder-xml-values-keep-their-text-and-read-json-objects', () => {
    const text =
      '<tool_call>\n<function=echo>\n<parameter=text>\n  two\n  lines\n</parameter>\n<parameter=extra>\n{"a": [1]}\n</parameter>\n</function>\n</tool_call>';
    expect(toolCallTag.decide(text, true, resolver)).toEqual([
      {
        type: 'call',
        server: 'tools',
        name: 'echo',
        arguments: { text: '  two\n  lines', extra: { a: [1] } },
      },
    ]);
  });

  it('a-harmony-message-without-a-recipient-is-not-a-call', () => {
    expect(
      harmonyCall.decide('<|channel|>analysis<|message|>{"text": "x"}<|end|>', true, resolver),
    ).toBeNull();
  });

  it('deepseek-v3-reads-the-json-fence-after-the-name', () => {
    const text =
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>echo\n```json\n{"text": "v3"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>';
    expect(read(deepseekToolCalls, text)).toEqual({ step: 'end', at: text.length - 1 });
    expect(deepseekToolCalls.decide(text, true, resolver)).toEqual(echo('v3'));
  });

  it('an-end-of-turn-token-is-read-whole-and-dropped', () => {
    expect(read(endOfTurnToken, '<|eom_id|>')).toEqual({ step: 'end', at: 9 });
    expect(endOfTurnToken.decide('<|eom_id|>', true, resolver)).toEqual([]);
    expect(read(endOfTurnToken, '<b>').step).toBe('reject');
  });
});
