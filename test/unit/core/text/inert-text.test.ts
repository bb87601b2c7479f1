import { describe, expect, it } from 'vitest';
import { approvalText, inertLine, inertText, inertValue } from '../../../../core/text/inert-text.js';
import { pageAddress, PUNYCODE_WARNING } from '../../../../core/text/page-address.js';
import { foldedText, PastedText, PasteFolds } from '../../../../core/text/pasted-text.js';

/** Every control character a terminal acts on (tab and newline are text). */
const ACTIVE_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

describe('inertText', () => {
  it.each([
    ['clear screen and home', 'Reads a file.\x1b[2J\x1b[H', 'Reads a file.\\x1b[2J\\x1b[H'],
    ['OSC 52 clipboard write', 'x\x1b]52;c;cm0gLXJmIH4K\x07y', 'x\\x1b]52;c;cm0gLXJmIH4K\\x07y'],
    ['C1 CSI (one code point)', 'a\u009b2Jb', 'a\\x9b2Jb'],
    ['backspace, bell, NUL, DEL', 'a\b\x07\x00\x7fb', 'a\\x08\\x07\\x00\\x7fb'],
    ['a lone carriage return and a Windows line end', 'one\rtwo\r\nthree', 'onetwo\nthree'],
  ])('%s is shown, not obeyed', (_name, text, shown) => {
    expect(inertText(text)).toBe(shown);
    expect(inertText(text)).not.toMatch(ACTIVE_CONTROL);
  });

  it('shows-a-one-cell-symbol-asked-for-as-emoji-as-the-symbol-so-it-keeps-its-one-cell', () => {
    expect(inertText('⚠️ careful ❤️ ✔️ done')).toBe('⚠ careful ❤ ✔ done');
    expect(inertText('1️⃣ 😀 ✅')).toBe('1️⃣ 😀 ✅'); // a keycap and emoji that are two cells anyway
  });

  it('keeps-text-without-controls-exactly-as-it-was', () => {
    const text = 'Plain\ttext\n한국어 日本語 ✅ e\u0301 \u2028';
    expect(inertText(text)).toBe(text);
  });

  it('makes-a-sequence-split-across-streamed-pieces-inert-too', () => {
    const pieces = ['before \x1b', ']52;c;', 'aGk=\x07 after'];
    expect(pieces.map(inertText).join('')).not.toMatch(ACTIVE_CONTROL);
  });

  it('walks-objects-and-arrays-and-returns-the-same-object-when-nothing-changes', () => {
    const clean = { type: 'command-output', lines: ['a', 'b'], nested: { n: 1 } };
    expect(inertValue(clean)).toBe(clean);
    const hostile = { type: 'command-output', lines: ['a', '\x1b[2Jb'], nested: { t: '\x07' } };
    expect(inertValue(hostile)).toEqual({
      type: 'command-output',
      lines: ['a', '\\x1b[2Jb'],
      nested: { t: '\\x07' },
    });
    expect(hostile.lines[1]).toBe('\x1b[2Jb'); // the event itself is left as it came
  });

  it('names-bidi-overrides-and-isolates-everywhere-and-keeps-arabic-and-hebrew-prose-and-its-marks', () => {
    // "Trojan Source": RLO makes `exe.txt` read as `txt.exe`; isolates reorder what an approval shows.
    expect(inertText('invoice\u202etxt.exe')).toBe('invoice\\u202etxt.exe');
    expect(inertText('a\u2066b\u2067c\u2068d\u2069e\u202af\u202bg\u202ch\u202di')).toBe(
      'a\\u2066b\\u2067c\\u2068d\\u2069e\\u202af\\u202bg\\u202ch\\u202di',
    );
    const prose = 'مرحبا بالعالم \u200f שלום עולם 👨\u200d👩\u200d👧 a\u200bb';
    expect(inertText(prose)).toBe(prose);
  });

  it('names-invisible-characters-too-in-what-the-user-approves', () => {
    expect(approvalText('rm\u200b -rf\u200c\u200d\u200e\u200f\u2060\ufeff')).toBe(
      'rm\\u200b -rf\\u200c\\u200d\\u200e\\u200f\\u2060\\ufeff',
    );
    expect(approvalText('x\u202e\x1b[2J')).toBe('x\\u202e\\x1b[2J');
    expect(inertLine('delete\u200b_everything')).toBe('delete\\u200b_everything');
  });

  it.each([
    ['a plain page', 'https://accounts.example.com/a?b=1', 'accounts.example.com', false, true],
    ['a look-alike host', 'https://\u0430pple.com/login', 'xn--pple-43d.com', true, true],
    ['a user name that looks like a host', 'https://apple.com@evil.example/', 'evil.example', false, true],
    ['not a web page', 'javascript:alert(1)', '', false, false],
    ['not an address', 'see \u202eevil', '', false, false],
  ])('a server page: %s', (_name, raw, host, warned, openable) => {
    const address = pageAddress(raw);
    expect(address.host).toBe(host);
    expect(address.warning).toBe(warned ? PUNYCODE_WARNING : undefined);
    expect(address.openable).toBe(openable);
    expect(address.href).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b-\u200f]/);
  });

  it('keeps-a-label-value-on-its-own-line-and-cuts-it', () => {
    expect(inertLine('read_file\nCall now? (Y/N): y')).toBe('read_file Call now? (Y/N): y');
    expect(inertLine('x'.repeat(500), 20)).toBe(`${'x'.repeat(19)}…`);
  });
});

describe('PastedText', () => {
  const paste = (...pieces: string[]) => {
    const pasted = new PastedText();
    return pieces.map((p) => pasted.push(p)).join('');
  };

  it.each([
    ['Ctrl+C in the middle', ['hello\x03world'], 'helloworld'],
    ['an arrow, Ctrl+U and Backspace', ['AAA\x1b[ABBB\x15CCC\x7fDDD'], 'AAABBBCCCDDD'],
    ['a coloured log line', ['\x1b[1;31mERROR\x1b[0m disk full'], 'ERROR disk full'],
    ['an OSC title and clipboard write', ['a\x1b]0;title\x07b\x1b]52;c;aGk=\x1b\\c'], 'abc'],
    ['C1 CSI and OSC', ['a\u009b2Jb\u009d0;t\u009cc'], 'abc'],
    ['line ends of every kind', ['one\r\ntwo\rthree\nfour\tend'], 'one\ntwo\nthree\nfour\tend'],
    ['a sequence split across reads', ['x\x1b', '[3', '1my\x1b', ']0;t', '\x07z'], 'xyz'],
    ['CRLF split across reads', ['a\r', '\nb'], 'a\nb'],
    ['an OSC left open ends at the line break', ['a\x1b]0;never closed\nnext line'], 'a\nnext line'],
    ['Korean and emoji', ['안녕하세요 ✅'], '안녕하세요 ✅'],
  ])('%s stays text', (_name, pieces, text) => {
    expect(paste(...pieces)).toBe(text);
  });

  it('leaves-no-control-in-400-random-bytes', () => {
    let seed = 7;
    for (let round = 0; round < 50; round++) {
      const bytes = Buffer.alloc(400);
      for (let i = 0; i < bytes.length; i++)
        bytes[i] = (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
      const text = paste(bytes.toString('latin1'), bytes.toString('utf8'));
      expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    }
  });
});

describe('PasteFolds', () => {
  it('stands-a-long-paste-in-the-line-as-its-size-and-sends-it-whole', () => {
    const folds = new PasteFolds();
    const log = 'x'.repeat(3000);
    const other = 'y'.repeat(3000);
    const a = folds.fold(log);
    const b = folds.fold(other);
    expect(a).toBe('[Pasted text: 1 line, 3 KB]');
    expect(b).toBe('[Pasted text #2: 1 line, 3 KB]');
    expect(folds.fold('short')).toBe('short');
    expect(folds.expand(`see ${a} and ${b}`)).toBe(`see ${log} and ${other}`);
    expect(foldedText(`first line\n${log}`)).toBe('first line… [Pasted text: 2 lines, 3 KB]');
  });
});
