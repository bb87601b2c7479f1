import { Terminal } from '@xterm/headless';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WordWrap } from '../../../../core/transcript/word-wrap.js';
import { cellsOf, rowsOf } from '../../../helpers/screen.js';

/** `chunks` through a WordWrap of `cols` into a terminal of that width (as the window's transcript is set up). */
async function screen(chunks: string[], cols = 30): Promise<Terminal> {
  const term = new Terminal({ cols, rows: 20, allowProposedApi: true, convertEol: true });
  const wrap = new WordWrap(() => cols);
  for (const chunk of chunks) await new Promise<void>((resolve) => term.write(wrap.push(chunk), resolve));
  return term;
}

const PROSE =
  'The quick brown fox jumps over the lazy dog, then naps beside the riverbank until the evening comes.';

describe('word wrap for the window transcript', () => {
  it('breaks prose between words, never inside one, and loses no word', async () => {
    const rows = rowsOf(await screen([PROSE]));
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(30);
    // Every word is whole on one row: the rows joined by spaces are the text again.
    expect(rows.map((r) => r.trimEnd()).join(' ')).toBe(PROSE);
    // A plain terminal would have cut a word: this is what the wrap is for.
    const plain = rowsOf(
      await new Promise<Terminal>((resolve) => {
        const term = new Terminal({ cols: 30, rows: 20, allowProposedApi: true });
        term.write(PROSE, () => resolve(term));
      }),
    );
    expect(plain.join(' ')).not.toBe(PROSE);
  });

  it('draws the same screen however the text is cut into chunks', async () => {
    const whole = rowsOf(await screen([PROSE]));
    expect(rowsOf(await screen([...PROSE]))).toEqual(whole);
    expect(rowsOf(await screen(PROSE.match(/.{1,7}/g)!))).toEqual(whole);
  });

  it('leaves text that fits exactly as it was', () => {
    const wrap = new WordWrap(() => 80);
    const text = '\x1b[1mhumble-ai> 안녕하세요\x1b[22m\nshort line\n';
    expect(wrap.push(text)).toBe(text);
  });

  it('leaves a word longer than a line to the terminal to wrap, so it stays one link', async () => {
    const url = 'https://example.com/' + 'a'.repeat(70);
    const term = await screen([`see ${url} ok`]);
    const rows = rowsOf(term);
    expect(term.buffer.active.getLine(2)!.isWrapped).toBe(true); // a soft wrap: xterm joins it back
    // As a browser does: the long word goes to a line of its own, then is cut where each line ends.
    expect(rows[0]!.trimEnd()).toBe('see');
    expect(rows[1]).toBe(url.slice(0, 30));
    expect(rows[2]).toBe(url.slice(30, 60));
    expect(rows.slice(1).join('').replace(/ /g, '')).toBe(`${url}ok`);
  });

  it('breaks Japanese between characters, never before closing punctuation, within the width', async () => {
    const text = '日本語の文は空白がありません。句読点、行頭に来ない。「括弧」や（丸括弧）も同じです。';
    const rows = rowsOf(await screen([text], 20));
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) expect(row.trimStart()).not.toMatch(/^[、。」）]/);
    expect(rows.join('').replace(/ /g, '')).toBe(text);
  });

  it('keeps Korean words whole, breaking at the spaces between them', async () => {
    const text =
      '서울은 한국의 수도이고 첫째로 큰 도시입니다. 부산은 둘째로 큰 도시이며 바다(해운대)가 유명합니다.';
    for (const cols of [16, 17, 20, 23, 31]) {
      const rows = rowsOf(await screen([text], cols)).filter((r) => r.trim() !== '');
      expect(rows.map((r) => r.trimEnd()).join(' ')).toBe(text);
    }
  });

  it('never leaves an opening bracket at the end of a line, nor starts one with a space', async () => {
    const word = fc.oneof(
      fc.constantFrom(
        'the',
        'wrap',
        'function',
        '서울은',
        '첫째',
        '도시입니다.',
        '日本語',
        'です。',
        '(note)',
      ),
      fc.constantFrom('（丸括弧）', '「括弧」', '(서울)', '[link]', '『本』の', '“quoted”'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(word, { minLength: 4, maxLength: 30 }),
        fc.integer({ min: 10, max: 40 }),
        async (words, cols) => {
          const text = words.join(' ');
          const rows = rowsOf(await screen([text], cols)).filter((r) => r.trim() !== '');
          for (const row of rows) {
            expect(row).not.toMatch(/^ /);
            expect(row.trimEnd()).not.toMatch(/[([{（「『“]$/);
          }
          expect(rows.join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps a latin or korean word inside japanese text whole, with the bracket that opens it', async () => {
    // Japanese runs on without spaces, so Latin and Korean words sit right against it, often in brackets:
    // `（internationalization）` broke inside the word, `「대|시보드」` inside the Korean one.
    const piece = fc.constantFrom(
      '多言語対応',
      'の設定を確認してください。',
      'この関数は',
      'を返します',
      '（internationalization）',
      '「대시보드」',
      'snake_case',
      'docs',
      '『設定』',
    );
    const words = /[A-Za-z_]+|[가-힣]+/g;
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { minLength: 3, maxLength: 12 }),
        fc.integer({ min: 12, max: 48 }),
        async (pieces, cols) => {
          const text = pieces.join('');
          const rows = rowsOf(await screen([text], cols)).filter((r) => r.trim() !== '');
          expect(rows.join('')).toBe(text);
          // Every word that fits on a row (with the bracket that opens it) is on one row.
          for (const [word] of text.matchAll(words)) {
            const opened = text.includes(`（${word}`) || text.includes(`「${word}`) ? 2 : 0;
            if (word.length * (/[가-힣]/.test(word) ? 2 : 1) + opened + 2 > cols) continue;
            expect(
              rows.some((row) => row.includes(word)),
              `${word} at ${cols} columns:\n${rows.join('\n')}`,
            ).toBe(true);
          }
          for (const row of rows) expect(row).not.toMatch(/[（「『]$/);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps a korean particle with the bracket that closes the word before it', async () => {
    const text = '설정에서 「대시보드」를 열고 「설정 파일」을 확인하세요.';
    for (let cols = 16; cols <= 40; cols++) {
      const rows = rowsOf(await screen([text], cols)).filter((r) => r.trim() !== '');
      expect(
        rows.some((row) => row.includes('「대시보드」를')),
        `${cols}:\n${rows.join('\n')}`,
      ).toBe(true);
      expect(
        rows.some((row) => row.includes('파일」을')),
        `${cols}:\n${rows.join('\n')}`,
      ).toBe(true);
    }
  });

  it('starts continuation lines of a list item, a quote and the user message under their text', async () => {
    const rows = rowsOf(
      await screen(
        [
          '  • one two three four five six seven eight\n',
          '\x1b[2m│\x1b[22m alpha beta gamma delta epsilon zeta eta\n',
          'humble-ai> please explain this long question\n',
        ],
        24,
      ),
    );
    const item = rows.findIndex((r) => r.startsWith('  • '));
    expect(rows[item + 1]).toMatch(/^ {4}\S/);
    const quote = rows.findIndex((r) => r.startsWith('│ alpha'));
    expect(rows[quote + 1]).toMatch(/^│ \S/);
    const asked = rows.findIndex((r) => r.startsWith('humble-ai> '));
    expect(rows[asked + 1]).toMatch(/^ {11}\S/);
  });

  it('carries styles over a break, and the indent is not styled', async () => {
    const term = await screen(['  • plain words then \x1b[1mbold words that wrap over\x1b[22m end'], 24);
    const rows = rowsOf(term);
    const second = rows[1]!;
    expect(second).toMatch(/^ {4}/);
    const word = second.trim().split(' ')[0]!;
    expect(cellsOf(term, word)!.every((c) => c.bold)).toBe(true);
    const line = term.buffer.active.getLine(1)!;
    expect(line.getCell(0)!.isBold()).toBe(0);
  });
});
