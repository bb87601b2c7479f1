import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openaiReply } from '../../fakes/openai-fake.js';
import { useTempDir } from '../../helpers/temp-home.js';
import {
  launchChromium,
  NO_BROWSER,
  openWindow as openHacWindow,
  send,
  waitForTranscript,
} from '../../helpers/web.js';

// Korean and Japanese in the window, checked on the pixels of screenshots: every character fills its two cells
// (no gap between syllables wider than the font's own) and no row is drawn past the terminal's right edge.
const tempDir = useTempDir('hac-web-');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** For each pixel column of `box` on screen: whether anything but the background is drawn in it. */
async function inkColumns(page: Page, box: Box): Promise<boolean[]> {
  const png = await page.screenshot({ clip: box });
  const { data, info } = await sharp(png).raw().ensureAlpha().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => (y * info.width + x) * 4;
  const background = [0, 1, 2].map((c) => data[at(0, 0) + c]!);
  return Array.from({ length: info.width }, (_, x) =>
    Array.from({ length: info.height }, (_, y) => y).some(
      (y) => [0, 1, 2].reduce((sum, c) => sum + Math.abs(data[at(x, y) + c]! - background[c]!), 0) > 90,
    ),
  );
}

/** The widest run of empty columns between the first and the last inked column. */
function widestGap(ink: boolean[]): number {
  const first = ink.indexOf(true);
  const last = ink.lastIndexOf(true);
  let widest = 0;
  let run = 0;
  for (let x = first; x <= last; x++) {
    run = ink[x] ? 0 : run + 1;
    widest = Math.max(widest, run);
  }
  return widest;
}

/** The box of the transcript row whose text starts with `start`. */
function rowBox(page: Page, start: string): Promise<Box> {
  return page.evaluate((text) => {
    const row = [...document.querySelectorAll('.xterm-rows > div')].find((r) =>
      r.textContent?.startsWith(text),
    )!;
    const rect = row.getBoundingClientRect();
    const width = Math.min(rect.width, document.documentElement.clientWidth - rect.x);
    return { x: rect.x, y: rect.y, width, height: rect.height };
  }, start);
}

/** `text` in a plain span of the transcript's font, outside xterm: the font's own spacing. Returns its box. */
function plainSpan(page: Page, text: string): Promise<Box> {
  return page.evaluate((content) => {
    const span = document.createElement('span');
    const style = getComputedStyle(document.querySelector('.xterm-rows')!);
    Object.assign(span.style, {
      position: 'fixed',
      left: '20px',
      top: '20px',
      font: `${style.fontSize} ${style.fontFamily}`,
      color: style.color,
      background: getComputedStyle(document.body).backgroundColor,
      whiteSpace: 'pre',
      zIndex: '10',
    });
    span.textContent = content;
    document.body.append(span);
    const rect = span.getBoundingClientRect();
    return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
  }, text);
}

describe.skipIf(NO_BROWSER)(
  `Korean and Japanese in the window's cells${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`,
  () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    async function openWindow(answer: string, options: Parameters<Browser['newPage']>[0]) {
      const { fake, page } = await openHacWindow(
        browser,
        tempDir(),
        cleanups,
        { config: { markdown: false } },
        options,
      );
      fake.reply(openaiReply.text([answer]));
      await send(page, 'go');
      await waitForTranscript(page, /끝$/m);
      await page.evaluate(async () => {
        await window.hacIdle!();
        await document.fonts.ready;
      });
      await page.waitForTimeout(100); // a redraw after the last font slice came
      return page;
    }

    it.each([
      ['dark', '앨리스의이름은', 'ko-KR'],
      ['light', '앨리스의이름은', 'en-US'],
      ['dark', 'ひらがなカタカナ', 'ja-JP'],
      ['light', 'ひらがなカタカナ', 'en-US'],
    ] as const)(
      'in-the-%s-theme-%s-has-no-gap-between-characters-wider-than-its-fonts-own-%s',
      async (scheme, text, locale) => {
        const page = await openWindow(`${text}\n끝`, {
          viewport: { width: 1100, height: 500 },
          colorScheme: scheme,
          locale,
        });
        const box = await rowBox(page, text);
        const inCells = widestGap(await inkColumns(page, { ...box, width: box.width / 2 }));
        const plain = widestGap(await inkColumns(page, await plainSpan(page, text)));
        expect(inCells).toBeLessThanOrEqual(plain + 1);
      },
    );

    it.each([
      [480, 'light'],
      [1100, 'dark'],
      [1920, 'light'],
      [1100, 'light'],
    ] as const)(
      'japanese-punctuation-keeps-every-row-inside-the-terminal-at-%i-px-in-the-%s-theme',
      async (width, scheme) => {
        const sentence = '日本語の文章、句読点。全角句読点、「括弧」のような地名。';
        const page = await openWindow(`${sentence.repeat(12)}\n끝`, {
          viewport: { width, height: 700 },
          colorScheme: scheme,
          locale: 'ja-JP',
        });
        const rows = await page.evaluate(() => {
          const screen = document.querySelector('.xterm-screen')!.getBoundingClientRect();
          return [...document.querySelectorAll('.xterm-rows > div')]
            .filter((row) => /[、。]/.test(row.textContent ?? ''))
            .map((row) => {
              const rect = row.getBoundingClientRect();
              const spans = [...row.querySelectorAll('span')];
              const last = spans.at(-1)!.getBoundingClientRect();
              return { y: rect.y, height: rect.height, end: last.right, right: screen.right };
            });
        });
        expect(rows.length).toBeGreaterThan(2);
        for (const row of rows) {
          expect(row.end).toBeLessThanOrEqual(row.right + 0.5);
          // On screen: no ink in the 60 px after the terminal's right edge (the page's margin there is empty).
          const room = Math.min(60, width - Math.ceil(row.right));
          if (room < 2) continue;
          const after = await inkColumns(page, {
            x: Math.ceil(row.right),
            y: row.y,
            width: room,
            height: row.height,
          });
          expect(after.includes(true)).toBe(false);
        }
      },
    );
  },
);
