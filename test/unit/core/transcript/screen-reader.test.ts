import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PLAIN_STYLES } from '../../../../core/transcript/styles.js';
import { TranscriptRenderer } from '../../../../core/transcript/transcript.js';
import type { HostEvent } from '../../../../core/types/host-event.js';

// For a screen reader (`--screen-reader`): every message labelled, read once, in order; nothing redrawn.
describe('the transcript for a screen reader', () => {
  const render = (events: HostEvent[]) => {
    const transcript = new TranscriptRenderer(PLAIN_STYLES, true);
    return events.map((event) => transcript.render(event)).join('');
  };

  it('labels-each-message-once-and-in-order', () => {
    const said = render([
      { type: 'input', text: '서울 날씨?', reply: false },
      { type: 'waiting' },
      { type: 'thinking-start' },
      { type: 'thinking-delta', text: 'The user asks ' },
      { type: 'thinking-delta', text: 'about Seoul.' },
      { type: 'thinking-end' },
      { type: 'text-delta', text: 'Let me ' },
      { type: 'text-delta', text: 'look.' },
      {
        type: 'tool-call',
        id: 'c1',
        server: 'weather',
        tool: 'forecast',
        toolDescription: 'Forecast for a city.',
        arguments: { city: '서울' },
        needsConfirmation: true,
      },
      { type: 'text-delta', text: 'Sunny, 21 °C.' },
      { type: 'turn-end', status: 'answered' },
    ]);
    expect(said).toBe(
      [
        'You: 서울 날씨?',
        'Waiting for response...',
        'Thinking:',
        'The user asks about Seoul.',
        'End of thinking.',
        'Answer:',
        'Let me look.',
        'Tool call:',
        'MCP server: weather',
        'Tool: forecast: Forecast for a city.',
        'Arguments:',
        '  {',
        '    "city": "서울"',
        '  }',
        'Answer:',
        'Sunny, 21 °C.',
        '',
      ].join('\n'),
    );
    expect(said).not.toMatch(/[\r\x1b]/);
  });

  it('says-progress-as-a-line-at-each-quarter-and-never-redraws-it', () => {
    const progress = (n: number): HostEvent => ({
      type: 'tool-progress',
      id: 'c1',
      server: 'fs',
      tool: 'copy',
      progress: n,
      total: 100,
    });
    const said = render([1, 10, 24, 25, 30, 49, 50, 99, 100].map(progress));
    expect(said.split('\n').filter(Boolean)).toEqual([
      'fs/copy 1% (1 of 100)',
      'fs/copy 25% (25 of 100)',
      'fs/copy 50% (50 of 100)',
      'fs/copy 99% (99 of 100)', // the first report past three quarters
      'fs/copy 100% (100 of 100)',
    ]);
    expect(said).not.toMatch(/[\r\x1b]/);
  });

  it('puts-question-before-what-hac-asks', () => {
    const said = render([
      { type: 'text-delta', text: 'Shall I?' },
      { type: 'prompt', kind: 'confirm', text: 'Call now? (Y/N): ' },
    ]);
    expect(said).toBe('Answer:\nShall I?\nQuestion:\nCall now? (Y/N): ');
  });
});

describe('an answer read in order', () => {
  const answer = [
    'Two cities:',
    '',
    '| 도시 | Weather | 気温 |',
    '|:---|---|---:|',
    '| 서울 | sunny | 21 |',
    '| 東京 | rain \\| wind | 18 |',
    '',
    '```python',
    'print("a | b")',
    '```',
    'Done | or not.',
  ].join('\n');
  const said = [
    'Answer:',
    'Two cities:',
    '',
    '도시: 서울',
    'Weather: sunny',
    '気温: 21',
    '',
    '도시: 東京',
    'Weather: rain | wind',
    '気温: 18',
    '',
    '',
    'Code (python):',
    'print("a | b")',
    'End of code.',
    'Done | or not.',
    '',
  ].join('\n');

  it('says-a-table-as-header-value-lines-and-code-between-labels-in-every-chunking', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 8 }), (positions) => {
        const cuts = [...new Set(positions.map((p) => p % (answer.length + 1)))].sort((a, b) => a - b);
        const pieces = [0, ...cuts, answer.length]
          .slice(1)
          .map((end, i, all) => answer.slice(i ? all[i - 1] : 0, end));
        const transcript = new TranscriptRenderer(PLAIN_STYLES, true);
        const out = [...pieces, ''].map((text) => transcript.render({ type: 'text-delta', text })).join('');
        expect(out + transcript.render({ type: 'turn-end', status: 'answered' })).toBe(said);
      }),
    );
  });
});
