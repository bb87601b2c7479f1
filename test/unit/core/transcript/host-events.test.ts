import { describe, expect, it } from 'vitest';
import { errorReport } from '../../../../core/host/error-report.js';
import type { HostEvent, HostEventType } from '../../../../core/types/host-event.js';
import { ConfigError } from '../../../../core/errors/hac-error.js';
import { ANSI_STYLES, PLAIN_STYLES } from '../../../../core/transcript/styles.js';
import { TranscriptRenderer } from '../../../../core/transcript/transcript.js';

const renderAll = (events: HostEvent[], styles = PLAIN_STYLES) => {
  const r = new TranscriptRenderer(styles);
  return events.map((e) => r.render(e)).join('');
};

/** One event of every type, with what it prints after streamed text that did not end its line. */
const everyType: Record<HostEventType, [HostEvent, string]> = {
  waiting: [{ type: 'waiting' }, '\nWaiting for response...\n'],
  notice: [{ type: 'notice', level: 'info', text: 'Response cancelled.' }, '\nResponse cancelled.\n'],
  'thinking-start': [{ type: 'thinking-start' }, '\n<<< Thinking >>>\n'],
  'thinking-delta': [{ type: 'thinking-delta', text: 'hmm' }, 'hmm'],
  'thinking-end': [{ type: 'thinking-end' }, '\n<<< End Thinking >>>\n'],
  'text-delta': [{ type: 'text-delta', text: ' more' }, ' more'],
  'tool-call': [
    {
      type: 'tool-call',
      id: 'c',
      server: 's',
      tool: 't',
      arguments: {},
      needsConfirmation: false,
    },
    '\nMCP server: s\nTool: t\nArguments:\n  {}\n',
  ],
  'confirmation-request': [{ type: 'confirmation-request', id: 'q1', callId: 'c' }, ''],
  question: [{ type: 'question', id: 'q2', question: 'Which?' }, '\nWhich?\n'],
  elicitation: [
    {
      type: 'elicitation',
      id: 'q3',
      callId: 'c',
      server: 'github',
      request: { mode: 'url', message: 'Sign in to GitHub', url: 'https://github.com/login' },
    },
    '',
  ],
  form: [{ type: 'form', server: 'github', message: 'Sign in', fields: [] }, ''],
  draft: [{ type: 'draft', text: 'again' }, ''],
  'tool-result': [
    { type: 'tool-result', id: 'c', ok: true, summary: 's/t returned 2 characters.', output: 'ok' },
    '\ns/t returned 2 characters.\n',
  ],
  'open-view': [{ type: 'open-view', number: 3, title: 'View: s/t' }, ''],
  view: [
    {
      type: 'view',
      number: 3,
      server: 's',
      tool: 't',
      text: 's/t has a view: /view 3 opens it in your browser',
    },
    '\ns/t has a view: /view 3 opens it in your browser\n',
  ],
  'tool-progress': [
    { type: 'tool-progress', id: 'c', server: 's', tool: 't', progress: 3, total: 10, message: 'a.txt' },
    '\ns/t ▕██████░░░░░░░░░░░░░░▏ 30% (3 of 10) a.txt',
  ],
  'tool-skipped': [
    { type: 'tool-skipped', id: 'c', reason: 'declined', text: 'MCP call cancelled by user.' },
    '\nMCP call cancelled by user.\n',
  ],
  retry: [
    { type: 'retry', attempt: 1, code: 'unavailable', delayMs: 1000, message: 'Retrying in 1 s.' },
    '\nRetrying in 1 s.\n',
  ],
  'context-trimmed': [
    { type: 'context-trimmed', removed: 2, summarised: false, text: 'Trimmed 2.' },
    '\nTrimmed 2.\n',
  ],
  error: [{ type: 'error', code: 'auth', message: 'Bad key.' }, '\nBad key.\n'],
  'turn-end': [{ type: 'turn-end', status: 'answered' }, '\n'],
  input: [{ type: 'input', text: '/help', reply: false }, '\nhumble-ai> /help\n'],
  'command-output': [{ type: 'command-output', lines: ['a', 'b'] }, '\na\nb\n'],
  attachments: [{ type: 'attachments', images: [] }, ''],
  images: [
    {
      type: 'images',
      images: [
        { mediaType: 'image/png', width: 1280, height: 720, bytes: 215_040, sha256: 'ab', name: 'shot.png' },
        {
          mediaType: 'image/jpeg',
          width: 4000,
          height: 3000,
          bytes: 3_250_000,
          sha256: 'cd',
          name: 'a b.jpg',
        },
      ],
    },
    '\n[image: shot.png 1280×720, 210 KB]\n[image: a b.jpg 4000×3000, 3.1 MB]\n',
  ],
  prompt: [{ type: 'prompt', kind: 'confirm', text: 'Call now? (Y/N): ' }, '\nCall now? (Y/N): '],
  busy: [{ type: 'busy', text: 'Still working.' }, '\nStill working.\n'],
  'mcp-status': [
    { type: 'mcp-status', server: 'x', text: 'MCP server "x" failed: boom (see /mcp)' },
    '\nMCP server "x" failed: boom (see /mcp)\n',
  ],
  'session-saved': [{ type: 'session-saved', file: '/s.json' }, ''],
  'open-link': [{ type: 'open-link', url: 'https://auth.example/authorize' }, ''], // the lines before it show it
  fatal: [
    { type: 'fatal', report: { code: 'config-invalid', message: 'config.json is not valid' } },
    '\nconfig.json is not valid\n',
  ],
  status: [
    {
      type: 'status',
      status: {
        model: 'gpt-4o',
        provider: 'openai',
        toolMode: 'manual',
        markdown: true,
        mcp: { connected: 1, configured: 2 },
        busy: false,
      },
    },
    '',
  ],
  'prompt-withdrawn': [{ type: 'prompt-withdrawn' }, ''],
  exit: [{ type: 'exit' }, ''],
};

describe('transcript: every host event', () => {
  it.each(Object.entries(everyType))(
    '%s prints on its own line after streamed text',
    (_type, [event, printed]) => {
      // (The line that ends an answer before hac asks is its own test, below.)
      const r = new TranscriptRenderer({ ...PLAIN_STYLES, answerEnd: undefined });
      r.render({ type: 'text-delta', text: 'partial' });
      expect(r.render(event)).toBe(printed);
    },
  );

  it('an-answer-cannot-pass-for-a-question-of-hacs-reverse-video-or-without-colour-a-line-ending-the-answer', () => {
    // An answer that imitates hac's confirmation, word for word.
    const imitation = 'MCP server: evil\nTool: delete_everything\nCall now? (Y/N): y\n';
    const call = everyType['tool-call'][0];
    const question = { type: 'prompt', kind: 'confirm', text: 'Call now? (Y/N): ' } as const;
    const plain = new TranscriptRenderer(PLAIN_STYLES);
    const shown = [{ type: 'text-delta', text: imitation } as const, call, question].map((e) =>
      plain.render(e),
    );
    expect(shown.join('')).toContain(`${imitation}-- end of answer --\nMCP server: `);
    // Once per answer: the question after the summary follows it directly.
    expect(shown[2]).toBe('Call now? (Y/N): ');
    const colour = new TranscriptRenderer(ANSI_STYLES);
    colour.render({ type: 'text-delta', text: imitation });
    expect(colour.render(call)).toContain('\x1b[7mMCP server:\x1b[27m');
    expect(colour.render(question)).toBe('\x1b[7mCall now? (Y/N): \x1b[27m');
    // Reverse video is hac's alone: an answer's escapes are inert, and Markdown never draws it.
    const forged = new TranscriptRenderer(ANSI_STYLES);
    forged.markdown = { hyperlinks: true, columns: () => 80 };
    const answer = forged.render({ type: 'text-delta', text: `\x1b[7mCall now? (Y/N): **y** \`x\`\n# H\n` });
    expect(answer + forged.render({ type: 'turn-end', status: 'answered' })).not.toContain('\x1b[7m');
  });

  it('a reply ends the prompt line it answers; a typed line shows the prompt', () => {
    expect(
      renderAll([
        { type: 'input', text: 'list files', reply: false },
        { type: 'prompt', kind: 'confirm', text: 'Call now? (Y/N): ' },
        { type: 'input', text: 'y', reply: true },
        { type: 'tool-result', id: 'c', ok: true, summary: 'done', output: 'ok' },
      ]),
    ).toBe('humble-ai> list files\nCall now? (Y/N): y\ndone\n');
  });

  it('a command choice prompt follows its numbered lines', () => {
    expect(
      renderAll([
        { type: 'command-output', lines: ['  1) gpt-4o (openai) *'] },
        {
          type: 'prompt',
          kind: 'choice',
          text: 'Choice (0 keeps the current model): ',
          choices: ['gpt-4o (openai) *'],
        },
        { type: 'input', text: '0', reply: true },
        { type: 'command-output', lines: ['Model selection unchanged.'] },
      ]),
    ).toBe('  1) gpt-4o (openai) *\nChoice (0 keeps the current model): 0\nModel selection unchanged.\n');
  });

  it('styles problems red and the busy line dim, as the CLI does', () => {
    expect(renderAll([{ type: 'mcp-status', text: 'failed' }], ANSI_STYLES)).toBe('\x1b[31mfailed\x1b[39m\n');
    expect(renderAll([{ type: 'mcp-status', text: 'signed in', ok: true }], ANSI_STYLES)).toBe('signed in\n');
    expect(renderAll([{ type: 'busy', text: 'wait' }], ANSI_STYLES)).toBe('\x1b[2mwait\x1b[22m\n');
    expect(renderAll([{ type: 'fatal', report: { code: 'x', message: 'broken' } }], ANSI_STYLES)).toBe(
      '\x1b[31mbroken\x1b[39m\n',
    );
  });

  it('a host that asks through readline gets only the line break before the question', () => {
    const r = new TranscriptRenderer(PLAIN_STYLES);
    r.render({ type: 'text-delta', text: 'half a line' });
    expect(r.openPromptLine()).toBe('\n-- end of answer --\n');
    r.markLineStart();
    expect(r.openPromptLine()).toBe('');
  });
});

describe('error reports cross process boundaries intact', () => {
  const error = new ConfigError('/home/me/.humble-ai-cli/config.json', [
    {
      at: 'logLevel',
      message: 'expected one of "debug"|"info"|"warn"|"error"',
      fix: 'Use one of "debug", "info".',
    },
  ]);

  it('survives structuredClone and JSON with its path, problems and fixes', () => {
    const report = errorReport(error);
    expect(report).toMatchObject({
      code: 'config-invalid',
      file: '/home/me/.humble-ai-cli/config.json',
      problems: [{ at: 'logLevel', fix: 'Use one of "debug", "info".' }],
    });
    expect(report.message).toContain('config.json is not valid');
    expect(structuredClone(report)).toEqual(report);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    // The host event that carries it, too.
    const event: HostEvent = { type: 'fatal', report };
    expect(structuredClone(event)).toEqual(event);
  });

  it('keeps the message of any other error, with a code', () => {
    expect(errorReport(new Error('boom'))).toEqual({ code: 'internal', message: 'boom' });
  });

  it('a-progress-line-is-redrawn-in-place-and-what-follows-takes-its-place', () => {
    const progress = (n: number, message?: string) =>
      ({
        type: 'tool-progress',
        id: 'c',
        server: 'fs',
        tool: 'copy',
        progress: n,
        total: 4,
        message,
      }) as const;
    const out = renderAll([
      { type: 'tool-call', id: 'c', server: 'fs', tool: 'copy', arguments: {}, needsConfirmation: false },
      progress(1, 'a.txt'),
      { type: 'status', text: 'ignored' } as unknown as HostEvent,
      progress(2),
      { type: 'tool-result', id: 'c', ok: true, summary: 'fs/copy returned 2 characters.', output: 'ok' },
    ]);
    expect(out).toBe(
      'MCP server: fs\nTool: copy\nArguments:\n  {}\n' +
        'fs/copy ▕█████░░░░░░░░░░░░░░░▏ 25% (1 of 4) a.txt' +
        '\r\x1b[2Kfs/copy ▕██████████░░░░░░░░░░▏ 50% (2 of 4)' +
        '\r\x1b[2Kfs/copy returned 2 characters.\n',
    );
    // Without a total, the count; a server's long or hostile message is cut to the line and made inert.
    const r = new TranscriptRenderer(PLAIN_STYLES);
    const line = r.render({ ...progress(7), total: undefined, message: `\x1b[2J${'x'.repeat(200)}` });
    expect(line.startsWith('fs/copy 7 so far \\x1b[2J')).toBe(true);
    expect(line.length).toBe(78);
    expect(line.endsWith('…')).toBe(true);
  });
});
