import { describe, expect, it } from 'vitest';
import { createHoldBack, parseFunctionCalls, type ToolRef } from '../../../../core/prompt/index.js';

const tools: ToolRef[] = [
  { server: 'context7', name: 'resolve-library-id' },
  { server: 'hac', name: 'ask_user' },
];

const CALL =
  '{\n\t"server": "context7",\n\t"name": "resolve-library-id",\n\t"arguments": {\n\t  "libraryName": "java",\n\t}\n}';

/** Streams `text` in pieces of `size` characters; returns each push's output and the end result. */
function stream(text: string, size: number) {
  const holdBack = createHoldBack(tools);
  const pushes: { delta: string; show: string; holding: boolean }[] = [];
  for (let i = 0; i < text.length; i += size) {
    const delta = text.slice(i, i + size);
    pushes.push({ delta, ...holdBack.push(delta) });
  }
  const end = holdBack.end();
  const shown = pushes.map((p) => p.show).join('') + end.show;
  return { pushes, end, shown };
}

describe('createHoldBack', () => {
  it('call-split-across-one-character-deltas-is-never-shown', () => {
    const { pushes, end, shown } = stream(`Let me check.\n${CALL}\nDone.`, 1);
    expect(shown).toBe('Let me check.\nDone.');
    expect(end.text).toBe(shown);
    expect(end.calls).toEqual([
      { type: 'call', server: 'context7', name: 'resolve-library-id', arguments: { libraryName: 'java' } },
    ]);
    for (const p of pushes) expect(p.show).not.toMatch(/[{}"]|server|arguments/);
  });

  it('prose-before-a-call-is-shown-as-it-arrives', () => {
    const holdBack = createHoldBack(tools);
    expect(holdBack.push('Let me ').show).toBe('Let me ');
    expect(holdBack.push('check.\n').show).toBe('check.\n');
    expect(holdBack.push('{"server": "cont')).toEqual({ show: '', holding: true });
    expect(holdBack.push('ext7", "name": "resolve-library-id", "arguments": {}}')).toEqual({
      show: '',
      holding: false,
    });
    expect(holdBack.push('\nI will wait.').show).toBe('I will wait.');
    expect(holdBack.end()).toMatchObject({ show: '', text: 'Let me check.\nI will wait.' });
  });

  it('indented-call-takes-its-indentation-with-it', () => {
    const { shown, end } = stream(
      'Steps:\n    {"name": "ask_user", "arguments": {"question": "Q"}}\n  - next\n',
      1,
    );
    expect(shown).toBe('Steps:\n  - next\n');
    expect(end.calls).toHaveLength(1);
  });

  it('indentation-before-text-is-shown-with-the-text', () => {
    const holdBack = createHoldBack(tools);
    expect(holdBack.push('a\n  ').show).toBe('a\n');
    expect(holdBack.push('  b').show).toBe('    b');
    expect(holdBack.push('\n ').show).toBe('\n');
    expect(holdBack.end()).toEqual({ show: ' ', text: 'a\n    b\n ', calls: [] });
  });

  it('data-object-is-released-as-soon-as-it-closes', () => {
    const holdBack = createHoldBack(tools);
    expect(holdBack.push('Record:\n{"name": "Alice",').show).toBe('Record:\n');
    expect(holdBack.push(' "age": 3}')).toEqual({ show: '{"name": "Alice", "age": 3}', holding: false });
    expect(holdBack.end()).toEqual({ show: '', text: 'Record:\n{"name": "Alice", "age": 3}', calls: [] });
  });

  it('fake-fenced-non-call-is-released-as-text', () => {
    const text =
      'Your package.json:\n```json\n{\n  "name": "my-package",\n  "version": "1.0.0"\n}\n```\nThat is all.';
    const { pushes, end, shown } = stream(text, 2);
    expect(shown).toBe(text);
    expect(end.calls).toEqual([]);
    // Held until the fence closed, then released in one piece.
    const release = pushes.findIndex((p) => p.show.includes('"my-package"'));
    expect(pushes[release]?.show).toContain('```json\n{\n  "name": "my-package"');
    expect(pushes.slice(0, release).every((p) => !p.show.includes('```'))).toBe(true);
  });

  it('fenced-call-is-hidden-with-its-fence', () => {
    const { end, shown } = stream(
      'Checking.\n```json\n{"name": "ask_user", "arguments": {"question": "Which?"}}\n```\n',
      3,
    );
    expect(shown).toBe('Checking.\n');
    expect(end.calls).toEqual([
      { type: 'call', server: 'hac', name: 'ask_user', arguments: { question: 'Which?' } },
    ]);
  });

  it('code-block-in-another-language-is-shown-while-it-streams', () => {
    const holdBack = createHoldBack(tools);
    expect(holdBack.push('```pyth').show).toBe('');
    expect(holdBack.push('on\nx = {"a": 1}\n')).toEqual({
      show: '```python\nx = {"a": 1}\n',
      holding: false,
    });
    expect(holdBack.push('```\n{"name": "x"').show).toBe('```\n');
  });

  it('tag-split-across-deltas-is-hidden', () => {
    const { end, shown } = stream(
      'Sure. <tool_call>{"name": "ask_user", "arguments": {"question": "Why?"}}</tool_call> Thanks.',
      4,
    );
    expect(shown).toBe('Sure. Thanks.');
    expect(end.calls).toHaveLength(1);
  });

  it('angle-bracket-in-prose-is-shown-at-once', () => {
    const holdBack = createHoldBack(tools);
    expect(holdBack.push('a < b and <b>bold</b>, <tool').show).toBe('a < b and <b>bold</b>, ');
    expect(holdBack.push('s>').show).toBe('<tools>');
  });

  it('two-calls-on-one-line-are-both-hidden', () => {
    const text =
      '{"name": "ask_user", "arguments": {"question": "A?"}} {"name": "ask_user", "arguments": {"question": "B?"}}\nok';
    const { end, shown } = stream(text, 5);
    expect(shown).toBe('ok');
    expect(end.calls).toHaveLength(2);
  });

  it('unclosed-brace-is-released-at-the-next-blank-line', () => {
    const holdBack = createHoldBack(tools);
    expect(holdBack.push('Start:\n{"note": "unclosed\nstill').show).toBe('Start:\n');
    expect(holdBack.push(' held\n\nNext paragraph.')).toEqual({
      show: '{"note": "unclosed\nstill held\n\nNext paragraph.',
      holding: false,
    });
    expect(holdBack.end().calls).toEqual([]);
  });

  it('call-after-an-unclosed-brace-in-the-same-paragraph-is-still-found', () => {
    const text = '{ stray: [\n{"name": "ask_user", "arguments": {"question": "Q"}}\n\nAfter.';
    const { end, shown } = stream(text, 3);
    expect(shown).toBe('{ stray: [\n\nAfter.');
    expect(end.calls).toEqual([
      { type: 'call', server: 'hac', name: 'ask_user', arguments: { question: 'Q' } },
    ]);
  });

  it('unbalanced-brace-holds-until-the-end-then-shows-the-text', () => {
    const text = 'Start:\n{"note": "unclosed\nand more text';
    const { end, shown, pushes } = stream(text, 4);
    expect(pushes.at(-1)?.holding).toBe(true);
    expect(shown).toBe(text);
    expect(end.calls).toEqual([]);
  });

  it('same-result-as-parse-function-calls-for-any-piece-size', () => {
    const text = `Intro [1]\n${CALL}\n\`\`\`\nplain\n\`\`\`\n<function_call name="ask_user">{"question": "Q"}</function_call>\n{"name":"Alice"}\nEnd`;
    const whole = parseFunctionCalls(text, tools);
    for (const size of [1, 2, 3, 7, 16, 1000]) {
      const { end, shown } = stream(text, size);
      expect({ text: shown, calls: end.calls }).toEqual(whole);
    }
  });

  it('push-after-end-is-ignored', () => {
    const holdBack = createHoldBack(tools);
    holdBack.push('Hello');
    expect(holdBack.end().text).toBe('Hello');
    expect(holdBack.push(' again')).toEqual({ show: '', holding: false });
    expect(holdBack.end()).toEqual({ show: '', text: 'Hello', calls: [] });
  });
});
