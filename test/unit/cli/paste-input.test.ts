import { describe, expect, it } from 'vitest';
import {
  asInputLine,
  PASTED_NEWLINE,
  PASTED_TAB,
  PasteAwareInput,
  restorePastedText,
} from '../../../cli/paste-input.js';

/** Feeds chunks through the filter and returns what readline would read. */
async function filter(chunks: string[]): Promise<string> {
  const input = new PasteAwareInput(process.stdin);
  const out: Buffer[] = [];
  input.on('data', (d: Buffer) => out.push(d));
  for (const chunk of chunks) input.write(Buffer.from(chunk));
  input.end();
  await new Promise((r) => input.on('end', r));
  return Buffer.concat(out).toString('utf8');
}

describe('bracketed paste', () => {
  it('keeps-typed-enter-but-marks-line-breaks-inside-a-paste', async () => {
    expect(await filter(['hi\r', '\x1b[200~one\ntwo\r\nthree\x1b[201~', '\r'])).toBe(
      `hi\rone${PASTED_NEWLINE}two${PASTED_NEWLINE}three\r`,
    );
  });

  it('handles-markers-and-crlf-split-across-reads', async () => {
    expect(await filter(['a\x1b[20', '0~x\r', '\ny\x1b[2', '01~\r'])).toBe(`ax${PASTED_NEWLINE}y\r`);
  });

  it('keeps-wide-characters-intact', async () => {
    const korean = Buffer.from('\x1b[200~안녕\n하세요\x1b[201~');
    const parts = [korean.subarray(0, 8), korean.subarray(8, 13), korean.subarray(13)];
    const input = new PasteAwareInput(process.stdin);
    const out: Buffer[] = [];
    input.on('data', (d: Buffer) => out.push(d));
    for (const p of parts) input.write(p);
    input.end();
    await new Promise((r) => input.on('end', r));
    expect(restorePastedText(Buffer.concat(out).toString('utf8'))).toBe('안녕\n하세요');
  });

  it('passes-a-lone-escape-on-once-no-marker-follows-it', async () => {
    const input = new PasteAwareInput(process.stdin);
    const out: string[] = [];
    input.on('data', (d: Buffer) => out.push(d.toString('utf8')));
    input.write(Buffer.from('\x1b'));
    await expect.poll(() => out.join('')).toBe('\x1b');
    input.write(Buffer.from('\x1b[200~a\nb\x1b[201~'));
    await expect.poll(() => out.join('')).toBe(`\x1ba${PASTED_NEWLINE}b`);
  });

  it('passes-no-key-from-inside-a-paste-but-keeps-keys-typed-outside-it', async () => {
    const typed = await filter([
      '\x1b[A', // a typed Up arrow recalls history as always
      '\x1b[200~hello\x03world AAA\x1b[ABBB\x15CCC\x7fDDD\tcol\x1b[201~',
      '\x03', // a typed Ctrl+C still cancels
    ]);
    expect(typed).toBe(`\x1b[Ahelloworld AAABBBCCCDDD${PASTED_TAB}col\x03`);
    expect(restorePastedText(typed.slice(3, -1))).toBe('helloworld AAABBBCCCDDD\tcol');
  });

  it('ends-a-sequence-left-open-at-the-paste-end-so-typing-after-it-works', async () => {
    expect(await filter(['\x1b[200~a\x1b]0;open', '\x1b[201~', 'typed\r'])).toBe('atyped\r');
  });

  it('puts-history-and-drafts-into-the-line-as-text', () => {
    expect(asInputLine('one\ntwo\tthree\x03\x1b[2J')).toBe(`one${PASTED_NEWLINE}two${PASTED_TAB}three`);
  });

  it('alt-enter-ctrl-j-and-a-backslash-before-enter-insert-a-line-break-enter-sends', async () => {
    const N = PASTED_NEWLINE;
    expect(await filter(['one', '\x1b\r', 'two', '\n', 'three\\', '\r', 'four\r'])).toBe(
      `one${N}two${N}three\\\x7f${N}four\r`,
    );
    // Alt+Enter split across reads, as a slow terminal may send it.
    expect(await filter(['a\x1b', '\rb\r'])).toBe(`a${N}b\r`);
    // Keys typed before raw mode come as one cooked line: its LF is Enter, not Ctrl+J.
    expect(await filter(['\x1b[A\x1b[A\n'])).toBe('\x1b[A\x1b[A\n');
    // A backslash that is not the last key typed before Enter stays: the line is sent.
    expect(await filter(['x\\', '\x1b[D', '\r'])).toBe('x\\\x1b[D\r');
  });
});
