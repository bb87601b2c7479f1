import { describe, expect, it } from 'vitest';
import { ANSI_STYLES } from '../../../../core/transcript/styles.js';
import { TranscriptRenderer } from '../../../../core/transcript/transcript.js';
import type { HostEvent } from '../../../../core/types/host-event.js';

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

/** The screen text of answers, each a turn of its own, as the transcript prints them styled. */
function turns(...answers: string[]): string {
  const transcript = new TranscriptRenderer(ANSI_STYLES);
  transcript.markdown = { hyperlinks: false };
  const events: HostEvent[] = answers.flatMap((answer, i): HostEvent[] => [
    { type: 'input', text: `question ${i + 1}`, reply: false },
    { type: 'text-delta', text: answer },
    { type: 'turn-end', status: 'answered' },
  ]);
  return events.map((e) => transcript.render(e)).join('');
}

describe('each answer starts and ends in a clean state (issue 29)', () => {
  it('an answer ending with a closing fence and no line break closes its block; the next is Markdown again', () => {
    const screen = turns('Run:\n```bash\nls -la\n```', '# Title\nSome **bold** text.\n```js\nx\n```\n');
    const text = plain(screen);
    expect(text).not.toContain('```');
    expect(text).not.toContain('**');
    expect(text).not.toContain('# Title');
    expect(text).toContain('humble-ai> question 2\nTitle\nSome bold text.');
    expect(screen).toContain('\x1b[1;4mTitle'); // drawn as a heading, not as code
  });

  it('an answer ending in plain text without a line break leaves the next heading a heading', () => {
    const text = plain(turns('The end, no newline', '# Title\nok'));
    expect(text).toContain('The end, no newline\nhumble-ai> question 2\nTitle\nok\n');
  });

  it('a block the model never closed is closed at the end of its answer', () => {
    const text = plain(turns('```python\nprint(1)', 'after **it**'));
    expect(text).toContain('print(1)\n───\n');
    expect(text).toContain('after it');
  });
});
