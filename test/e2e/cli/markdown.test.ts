import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { HacPty } from '../../helpers/pty.js';
import { cellsOf, replay, rowsOf } from '../../helpers/screen.js';
import { useTempDir } from '../../helpers/temp-home.js';

// Issue 21 in a real terminal: an answer streamed in small pieces is shown as styled Markdown (markers gone, bold
// cells bold); raw with "markdown": false and with NO_COLOR.

const tempDir = useTempDir();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const ANSWER =
  '# Plan\n\nUse **bold** and `code`, *not* 2*3*4.\n\n- first\n- 서울 **사무소**\n\n```python\nimport os\n```\nDone.';

async function ask(config: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  writeCliHome(home, fake.baseUrl, { config });
  const hac = new HacPty(home, [], env);
  cleanups.push(() => hac.kill());
  await hac.waitFor('humble-ai> ');
  // Pieces of 3 characters: every marker is cut somewhere.
  fake.reply(openaiReply.text(ANSWER.match(/[\s\S]{1,3}/g) ?? []));
  hac.write('plan?\r');
  const from = await hac.waitFor('Done.');
  await hac.waitFor('humble-ai> ', { from });
  const term = await replay(hac.output);
  cleanups.push(() => Promise.resolve(term.dispose()));
  const rows = rowsOf(term);
  return { rows: rows.slice(rows.indexOf('humble-ai> plan?') + 2, -1), term };
}

describe('answers as Markdown in the terminal (issue 21)', () => {
  it('shows-headings-emphasis-lists-and-code-styled-without-their-markers', async () => {
    const { rows, term } = await ask();
    expect(rows).toEqual([
      'Plan',
      '',
      'Use bold and code, not 2*3*4.',
      '',
      '• first',
      '• 서울 사무소',
      '',
      '─── python',
      'import os',
      '───',
      'Done.',
    ]);
    expect(cellsOf(term, 'bold')?.every((c) => c.bold)).toBe(true);
    expect(cellsOf(term, 'Use ')?.some((c) => c.bold)).toBe(false);
    expect(cellsOf(term, 'not')?.every((c) => c.italic)).toBe(true);
    expect(cellsOf(term, 'Plan')?.every((c) => c.bold && c.underline)).toBe(true);
    expect(cellsOf(term, 'code')?.every((c) => c.colour !== 'default')).toBe(true);
    // Wide characters keep their two columns: the bold Korean word sits where its width puts it.
    expect(cellsOf(term, '사무소')?.[0]?.bold).toBe(true);
  });

  it.each([
    ['"markdown": false', { markdown: false }, {}],
    ['NO_COLOR', {}, { NO_COLOR: '1' }],
  ])('with %s the answer is shown as written', async (_name, config, env) => {
    const { rows } = await ask(config, env);
    expect(rows.join('\n')).toBe(ANSWER);
  });
});

/** A REPL on a fresh home whose model is the OpenAI fake. */
async function startRepl() {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  writeCliHome(home, fake.baseUrl);
  const hac = new HacPty(home);
  cleanups.push(() => hac.kill());
  return { fake, hac };
}

describe('each answer starts and ends in a clean state (issue 29)', () => {
  it('an-answer-ending-with-a-fence-and-no-line-break-leaves-the-next-answers-markdown', async () => {
    const { fake, hac } = await startRepl();
    let mark = await hac.waitFor('humble-ai> ');
    fake.reply(
      openaiReply.text(['Run:\n```bash\nls', ' -la\n``', '`']),
      openaiReply.text(['# Ti', 'tle\nSome **bo', 'ld** text.']),
      openaiReply.text(['## Again\nplain']),
    );
    for (const [question, last] of [
      ['one', 'ls -la'],
      ['two', 'text.'],
      ['three', 'plain'],
    ] as const) {
      hac.write(`${question}\r`);
      mark = await hac.waitFor('humble-ai> ', { from: await hac.waitFor(last, { from: mark }) });
    }
    const term = await replay(hac.output);
    cleanups.push(() => Promise.resolve(term.dispose()));
    const rows = rowsOf(term);
    expect(rows.slice(rows.indexOf('humble-ai> one'), rows.indexOf('humble-ai> three') + 4)).toEqual([
      'humble-ai> one',
      'Waiting for response...',
      'Run:',
      '─── bash',
      'ls -la',
      '───',
      'humble-ai> two',
      'Waiting for response...',
      'Title',
      'Some bold text.',
      'humble-ai> three',
      'Waiting for response...',
      'Again',
      'plain',
    ]);
    expect(cellsOf(term, 'Title')?.every((c) => c.bold && c.underline)).toBe(true);
    expect(cellsOf(term, 'plain')?.every((c) => c.colour === 'default')).toBe(true);
  });
});

describe('tables in the terminal (issue 29)', () => {
  it('a-table-is-drawn-with-box-lines-its-korean-columns-lined-up', async () => {
    const { fake, hac } = await startRepl();
    await hac.waitFor('humble-ai> ');
    const table = '| 도시 | 기온 |\n|---|--:|\n| 서울 | 3 |\n| Tokyo | 12 |\nDone.';
    fake.reply(openaiReply.text(table.match(/[\s\S]{1,4}/g) ?? []));
    hac.write('weather\r');
    await hac.waitFor('Done.');
    const term = await replay(hac.output);
    cleanups.push(() => Promise.resolve(term.dispose()));
    const rows = rowsOf(term);
    const top = rows.findIndex((row) => row.startsWith('┌'));
    expect(rows.slice(top, top + 7)).toEqual([
      '┌───────┬──────┐',
      '│ 도시  │ 기온 │',
      '├───────┼──────┤',
      '│ 서울  │    3 │',
      '│ Tokyo │   12 │',
      '└───────┴──────┘',
      'Done.',
    ]);
    expect(cellsOf(term, '도시')?.every((c) => c.bold)).toBe(true);
  });
});

describe('prose in the terminal breaks between words', () => {
  it('korean-words-stay-whole-and-no-line-starts-with-a-space-or-ends-with-an-opening-bracket', async () => {
    const { fake, hac } = await startRepl();
    await hac.waitFor('humble-ai> ');
    const korean = '서울은 한국의 수도이고 첫째로 큰 도시입니다 (인구 약 940만 명). '.repeat(6).trim();
    const japanese = '日本語の文は空白がありません。句読点、行頭に来ない。「括弧」の前後も同じです。'.repeat(
      4,
    );
    fake.reply(openaiReply.text([...(`${korean}\n\n${japanese}\nDone.`.match(/[\s\S]{1,5}/g) ?? [])]));
    hac.write('wrap\r');
    await hac.waitFor('Done.');
    const term = await replay(hac.output);
    cleanups.push(() => Promise.resolve(term.dispose()));
    const rows = rowsOf(term);
    const first = rows.findIndex((row) => row.startsWith('서울은'));
    const koreanRows = rows.slice(
      first,
      rows.findIndex((row, i) => i > first && row === ''),
    );
    expect(koreanRows.length).toBeGreaterThan(3); // the terminal is 100 columns wide
    expect(koreanRows.map((row) => row.trimEnd()).join(' ')).toBe(korean);
    const japaneseRows = rows.slice(
      rows.findIndex((row) => row.startsWith('日本語')),
      rows.indexOf('Done.'),
    );
    expect(japaneseRows.join('')).toBe(japanese);
    for (const row of [...koreanRows, ...japaneseRows]) {
      expect(row).not.toMatch(/^[ 、。」）]/);
      expect(row.trimEnd()).not.toMatch(/[(「（]$/);
    }
  });
});
