import { describe, expect, it } from 'vitest';
import { parsePythonCalls } from '../../../../../core/prompt/formats/python-calls.js';

// The Python-style calls of Gemma's tool_code, Llama's pythonic lists and <|python_tag|> built-ins.

describe('parsePythonCalls', () => {
  it('reads-a-list-of-calls-with-keyword-literals', () => {
    expect(
      parsePythonCalls(
        "[f(a=1, b=-2.5e3, c='x', d=\"y\\n\", e=True, g=None, h=[1, (2, 3)], i={'k': False})]",
      ),
    ).toEqual([
      {
        name: 'f',
        arguments: { a: 1, b: -2500, c: 'x', d: 'y\n', e: true, g: null, h: [1, [2, 3]], i: { k: false } },
      },
    ]);
  });

  it('unwraps-print-and-takes-the-last-part-of-a-dotted-name', () => {
    expect(parsePythonCalls('print(default_api.search(q="x"))')).toEqual([
      { name: 'search', arguments: { q: 'x' } },
    ]);
    expect(parsePythonCalls('brave_search.call(query="x")')).toEqual([
      { name: 'brave_search', arguments: { query: 'x' } },
    ]);
  });

  it('reads-one-call-per-line-or-separated-by-semicolons', () => {
    expect(parsePythonCalls('f(a=1)\ng(b=2); h()')?.map((c) => c.name)).toEqual(['f', 'g', 'h']);
  });

  it('reads-triple-quoted-strings-across-lines', () => {
    expect(parsePythonCalls('f(code="""a\nb""")')).toEqual([{ name: 'f', arguments: { code: 'a\nb' } }]);
  });

  it('is-null-for-anything-more-than-calls', () => {
    for (const text of [
      'f(1)', // positional argument
      'x = f(a=1)',
      'f(a=1) + 2',
      'f(a=',
      '[f(a=1)',
      'f(a=b)', // a name, not a literal
      '',
      'Hello there',
      `f(a=${'['.repeat(100)}`,
    ])
      expect(parsePythonCalls(text)).toBeNull();
  });
});
