import { describe, expect, it } from 'vitest';
import { ANSI_STYLES, PLAIN_STYLES, stylesFor } from '../../../../core/transcript/styles.js';
import { TranscriptRenderer } from '../../../../core/transcript/transcript.js';
import type { HostEvent } from '../../../../core/types/host-event.js';

const renderAll = (events: HostEvent[], styles = PLAIN_STYLES) => {
  const r = new TranscriptRenderer(styles);
  return events.map((e) => r.render(e)).join('');
};

describe('transcript', () => {
  it('prints-waiting-first-then-streams-text-as-it-arrives', () => {
    expect(
      renderAll([
        { type: 'waiting' },
        { type: 'text-delta', text: 'Hel' },
        { type: 'text-delta', text: 'lo' },
        { type: 'turn-end', status: 'answered' },
      ]),
    ).toBe('Waiting for response...\nHello\n');
  });

  it('wraps-thinking-in-markers-adding-a-newline-only-when-needed', () => {
    const thinking = (text: string): HostEvent[] => [
      { type: 'thinking-start' },
      { type: 'thinking-delta', text },
      { type: 'thinking-end' },
      { type: 'text-delta', text: 'Answer' },
    ];
    expect(renderAll(thinking('  step 1\n\tstep 2'))).toBe(
      '<<< Thinking >>>\n  step 1\n\tstep 2\n<<< End Thinking >>>\nAnswer',
    );
    expect(renderAll(thinking('ends with newline\n'))).toBe(
      '<<< Thinking >>>\nends with newline\n<<< End Thinking >>>\nAnswer',
    );
  });

  it('styles-thinking-dim-tools-cyan-errors-red-only-with-ansi-styles', () => {
    const events: HostEvent[] = [
      { type: 'thinking-start' },
      { type: 'thinking-delta', text: 'hmm' },
      { type: 'thinking-end' },
      { type: 'tool-call', id: '1', server: 's', tool: 't', arguments: {}, needsConfirmation: false },
      { type: 'error', code: 'auth', message: 'bad key' },
    ];
    const coloured = renderAll(events, ANSI_STYLES);
    expect(coloured).toContain('\x1b[2mhmm\x1b[22m');
    expect(coloured).toContain('\x1b[36m\x1b[7mMCP server:\x1b[27m s');
    expect(coloured).toContain('\x1b[31mbad key\x1b[39m');
    expect(renderAll(events)).not.toContain('\x1b[');
    expect(stylesFor(true, {})).toBe(ANSI_STYLES);
    expect(stylesFor(true, { NO_COLOR: '1' })).toBe(PLAIN_STYLES);
    expect(stylesFor(false, {})).toBe(PLAIN_STYLES);
  });

  it('summarises-a-tool-call-with-every-argument-in-key-order-then-asks', () => {
    const text = renderAll([
      { type: 'text-delta', text: 'Let me look.' },
      {
        type: 'tool-call',
        id: '1',
        server: 'context7',
        serverDescription: 'Library docs',
        tool: 'resolve-library-id',
        toolDescription: 'Resolves a package name.',
        arguments: { zeta: 1, alpha: { nested: ['x'] } },
        needsConfirmation: true,
      },
      { type: 'confirmation-request', id: '1', callId: 'c1' },
      { type: 'prompt', kind: 'confirm', text: 'Call now? (Y/N): ' },
    ]);
    expect(text).toBe(
      'Let me look.\n-- end of answer --\nMCP server: context7 (Library docs)\nTool: resolve-library-id: Resolves a package name.\nArguments:\n  {\n    "zeta": 1,\n    "alpha": {\n      "nested": [\n        "x"\n      ]\n    }\n  }\nCall now? (Y/N): ',
    );
  });

  it('numbers-the-options-of-a-question', () => {
    expect(renderAll([{ type: 'question', id: 'q', question: 'Which one?', options: ['red', 'blue'] }])).toBe(
      'Which one?\n  1) red\n  2) blue\n',
    );
  });
});
