import { describe, expect, it } from 'vitest';
import { CODE_MARK_OSC, MarkdownStream } from '../../../../core/transcript/markdown-stream.js';

const answer = 'Code:\n```py\nprint("한국")\n' + 'x'.repeat(2500) + '\n```\nafter\n```sh\nls';
function show(codeMarks: boolean, size: number): string {
  const md = new MarkdownStream({ hyperlinks: false, codeMarks });
  let out = '';
  for (let i = 0; i < answer.length; i += size) out += md.push(answer.slice(i, i + size));
  return out + md.finish();
}

describe('code block marks for a Copy button', () => {
  it.each([1, 7, 100])('carry each block as written, however the stream is cut (%i)', (size) => {
    const marks = [
      ...show(true, size).matchAll(new RegExp(`\\x1b\\]${CODE_MARK_OSC};([^\\x07]*)\\x07`, 'g')),
    ];
    expect(marks.map((m) => (m[1]!.startsWith('end;') ? decodeURIComponent(m[1]!.slice(4)) : m[1]))).toEqual([
      'start',
      `print("한국")\n${'x'.repeat(2500)}`, // a line too long to hold is still copied whole
      'start',
      'ls', // a block the answer left open
    ]);
  });

  it('are never written for a terminal', () => {
    expect(show(false, 3)).not.toContain(']7717');
  });
});
