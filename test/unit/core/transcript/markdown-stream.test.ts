import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadHighlighter, tokensToSgr } from '../../../../core/transcript/highlight.js';
import { MarkdownStream, type Highlighter } from '../../../../core/transcript/markdown-stream.js';
import { TranscriptRenderer } from '../../../../core/transcript/transcript.js';
import { ANSI_STYLES } from '../../../../core/transcript/styles.js';
import { MARKDOWN_ANSWERS } from '../../../fixtures/markdown/answers.js';
import { LONG_ANSWERS } from '../../../fixtures/markdown/long-answers.js';

// Issue 21: answers rendered as Markdown while they stream. Each answer of the corpus is fed in every chunk size:
// the output never depends on the chunking (what was printed is never redrawn), markers of closed constructs are
// gone, and no text is lost or doubled (the letters and digits are the same, in order).

const SGR = /\x1b\[[0-9;]*m/g;
const OSC8 = /\x1b\]8;;[^\x1b]*\x1b\\/g;
const visible = (s: string) => s.replace(OSC8, '').replace(SGR, '');
const letters = (s: string) => s.replace(/[^\p{L}\p{N}]/gu, '');

function render(text: string, size = text.length, hyperlinks = false): string {
  const md = new MarkdownStream({ hyperlinks });
  let out = '';
  for (let at = 0; at < text.length; at += Math.max(size, 1)) out += md.push(text.slice(at, at + size));
  return out + md.flush();
}

describe('Markdown answers in every chunking', () => {
  for (const answer of MARKDOWN_ANSWERS) {
    it(answer.what, () => {
      const whole = render(answer.text);
      for (let size = 1; size < Math.min(answer.text.length, 48); size++)
        expect(render(answer.text, size)).toBe(whole);
      const shown = visible(whole);
      for (const text of answer.shows) expect(shown).toContain(text);
      for (const text of answer.hides) expect(shown).not.toContain(text);
      expect(letters(shown)).toBe(letters(answer.text));
    });
  }
});

describe('whole answers as models write them, cut anywhere', () => {
  /** Renders `text` cut at `cuts` (positions in it), with the highlighter when given. */
  function renderCut(text: string, cuts: number[], highlight?: Highlighter): string {
    const md = new MarkdownStream({ hyperlinks: false, highlight });
    const points = [...new Set(cuts)].sort((a, b) => a - b);
    let out = '';
    let from = 0;
    for (const at of [...points, text.length]) {
      out += md.push(text.slice(from, at));
      from = at;
    }
    return out + md.flush();
  }

  it('prints-the-same-styled-text-whatever-the-chunking', async () => {
    const highlight = await loadHighlighter();
    for (const text of LONG_ANSWERS) {
      const whole = renderCut(text, [], highlight);
      const shown = visible(whole);
      expect(letters(shown)).toBe(letters(text));
      for (const marker of ['**', '```', '## ']) expect(shown).not.toContain(marker);
      fc.assert(
        fc.property(fc.array(fc.nat({ max: text.length }), { maxLength: 400 }), (cuts) => {
          expect(renderCut(text, cuts, highlight)).toBe(whole);
        }),
        { numRuns: 40 },
      );
    }
  });
});

describe('styles', () => {
  it('bold-italic-strike-and-code-have-their-own-on-and-off-codes', () => {
    expect(render('a **b** *c* ~~d~~ `e`\n')).toBe(
      'a \x1b[1mb\x1b[22m \x1b[3mc\x1b[23m \x1b[9md\x1b[29m \x1b[33me\x1b[39m\n',
    );
  });

  it('a-heading-is-bold-and-keeps-its-bold-after-a-bold-span', () => {
    expect(render('## A **b** c\n')).toBe('\x1b[1;4mA \x1b[1mb\x1b[22m\x1b[1m c\x1b[22;24m\n');
  });

  it('links-are-osc-8-hyperlinks-where-the-terminal-supports-them', () => {
    expect(render('[docs](https://x.io/a)\n', 5, true)).toBe(
      '\x1b[4;34m\x1b]8;;https://x.io/a\x1b\\docs\x1b]8;;\x1b\\\x1b[24;39m\n',
    );
    expect(visible(render('[docs](https://x.io/a)\n', 5, false))).toBe('docs (https://x.io/a)\n');
  });

  it('styles-never-run-past-the-end-of-a-line', () => {
    const out = render('**open\n`open\nplain\n');
    const lines = out.split('\n');
    expect(lines[2]).toBe('plain');
    expect(lines[0]).toMatch(/\x1b\[22m$/);
    expect(lines[1]).toMatch(/\x1b\[39m$/);
  });

  it('holds-back-no-more-than-an-unfinished-marker', () => {
    const md = new MarkdownStream({ hyperlinks: false });
    expect(visible(md.push('Hello wor'))).toBe('Hello wor');
    expect(visible(md.push('ld and **bo'))).toBe('ld and bo');
    expect(md.push('\n-')).toBe('\x1b[22m\n');
    expect(visible(md.push(' x'))).toBe('• x');
  });

  it('a-list-number-alone-on-its-line-keeps-the-line-break', () => {
    expect(visible(render('1.\nnext\n'))).toBe('1. \nnext\n');
  });

  it('a-very-long-code-line-is-not-held-whole', () => {
    const md = new MarkdownStream({ hyperlinks: false });
    md.push('```js\n');
    const printed = md.push('x'.repeat(5000));
    expect(printed.length).toBeGreaterThan(1000);
  });
});

describe('code highlighting', () => {
  it('colours-python-keywords-strings-and-comments', async () => {
    const highlight = await loadHighlighter();
    const line = highlight('def f(): return "x"  # note', 'python') ?? '';
    expect(visible(line)).toBe('def f(): return "x"  # note');
    expect(line).toContain('\x1b[35mdef');
    expect(line).toContain('\x1b[32m"x"');
    expect(line).toContain('\x1b[2m# note');
    expect(highlight('x', 'no-such-language')).toBeUndefined();
  });

  it('knows-the-languages-models-write-most-by-their-usual-names', async () => {
    const highlight = await loadHighlighter();
    const samples: [string, string][] = [
      ['bash', 'echo "x"'],
      ['sh', 'ls -la'],
      ['c', 'int x = 1;'],
      ['cpp', 'int x = 1;'],
      ['csharp', 'var x = 1;'],
      ['go', 'func f() {}'],
      ['java', 'class A {}'],
      ['js', 'const a = 1;'],
      ['json', '{"a": 1}'],
      ['kotlin', 'fun f() {}'],
      ['lua', 'local x = 1'],
      ['php', '<?php echo 1; ?>'],
      ['python', 'def f(): pass'],
      ['ruby', 'def f; end'],
      ['rust', 'fn f() {}'],
      ['sql', 'SELECT 1'],
      ['swift', 'func f() {}'],
      ['ts', 'let x: number = 1'],
      ['tsx', 'const a = <b>x</b>;'],
      ['yaml', 'a: 1'],
      ['toml', 'a = 1'],
      ['Dockerfile', 'FROM node'],
      ['html', '<b>x</b>'],
      ['css', 'a { color: red }'],
      ['scss', '$a: 1;'],
      ['powershell', 'Get-Item -Path x'],
      ['r', 'x <- 1'],
      ['perl', 'my $x = 1;'],
      ['objc', '@interface A @end'],
      ['makefile', 'all: x'],
      ['graphql', 'query { a }'],
      ['ini', '[a]'],
      ['diff', '+a'],
      ['markdown', '# a'],
    ];
    const plain = samples.filter(([language, code]) => !/\x1b\[\d/.test(highlight(code, language) ?? ''));
    expect(plain).toEqual([]);
  });

  it('restores-the-outer-colour-after-a-nested-token', async () => {
    const highlight = await loadHighlighter();
    // An f-string (speed-highlight): the expression in braces has its own colour, the string's comes back after
    // it; a Prism token nested in a comment likewise.
    expect(highlight('x = f"a{1}b"', 'py')).toBe('x = \x1b[32mf"a\x1b[33m{1}\x1b[32mb"\x1b[39m');
    expect(
      tokensToSgr([
        'a',
        { type: 'comment', content: ['b', { type: 'keyword', content: 'c' } as never] } as never,
      ]),
    ).toBe('a\x1b[2mb\x1b[22;35mc\x1b[39m');
  });

  it('never-runs-a-colour-past-the-end-of-a-line', async () => {
    const highlight = await loadHighlighter();
    expect(highlight('-old\n+new', 'diff')).toBe('\x1b[31m-old\x1b[39m\n\x1b[32m+new\x1b[39m');
    expect(highlight('/* a\nb */ x', 'c++')).toBe('\x1b[2m/* a\x1b[22m\n\x1b[2mb */\x1b[22m x');
  });

  it('a-comment-or-string-over-several-lines-is-coloured-alike-however-the-stream-is-cut', async () => {
    const highlight = await loadHighlighter();
    const answers = [
      '```c\n/* one\n   two */\nint x = 1;\n```\n',
      '```python\ndef f():\n    \"\"\"Docs\n\n    more docs\n    \"\"\"\n    return 1\n```\n',
      '```csharp\n/* a\n b */ var x = 1;\n```\n', // Prism's path
    ];
    for (const text of answers) {
      const cut = (size: number) => {
        const md = new MarkdownStream({ hyperlinks: false, highlight });
        let out = '';
        for (let at = 0; at < text.length; at += size) out += md.push(text.slice(at, at + size));
        return out + md.flush();
      };
      const whole = cut(text.length);
      for (let size = 1; size < text.length; size++) expect(cut(size)).toBe(whole);
      expect(visible(whole)).toBe(visible(cut(1)));
    }
    // The inner line is coloured as the comment or string it is part of, even when it arrives alone.
    const c = new MarkdownStream({ hyperlinks: false, highlight });
    const lines = ['```c\n', '/* one\n', '   two */\n', 'int x;\n', '```\n'].map((part) => c.push(part));
    expect(lines[2]).toBe('\x1b[2m   two */\x1b[22m\n');
  });

  it('fenced-code-uses-the-highlighter-line-by-line', async () => {
    const md = new MarkdownStream({ hyperlinks: false, highlight: await loadHighlighter() });
    const out = md.push('```python\nimport os\n```\n') + md.flush();
    expect(out).toContain('\x1b[35mimport');
    expect(visible(out)).toBe('─── python\nimport os\n───\n');
  });
});

describe('the transcript with Markdown on', () => {
  it('flushes-what-is-held-before-another-event-and-keeps-lines-apart', () => {
    const t = new TranscriptRenderer(ANSI_STYLES);
    t.markdown = { hyperlinks: false };
    let out = t.render({ type: 'text-delta', text: 'Calling **it' });
    out += t.render({ type: 'error', code: 'auth', message: 'boom' });
    expect(visible(out)).toBe('Calling it\nboom\n');
  });

  it('is-off-unless-the-host-turns-it-on', () => {
    const t = new TranscriptRenderer(ANSI_STYLES);
    expect(t.render({ type: 'text-delta', text: '**raw**' })).toBe('**raw**');
  });
});
