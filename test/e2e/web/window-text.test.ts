import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome, type CliHomeFiles } from '../../helpers/cli-home.js';
import { useTempDir } from '../../helpers/temp-home.js';
import {
  HacWeb,
  launchChromium,
  NO_BROWSER,
  openWindow as openHacWindow,
  send,
  waitForTranscript,
} from '../../helpers/web.js';

// How the window draws text, checked on the pixels of screenshots (what a reader sees, not what the DOM says).
const tempDir = useTempDir('hac-web-');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The pixels of the transcript row whose text starts with `start`, and the 3 px below it, as raw RGBA. */
async function rowPixels(page: Page, start: string): Promise<Buffer> {
  const box = await page.evaluate((text) => {
    const row = [...document.querySelectorAll('.xterm-rows > div')].find((r) =>
      r.textContent?.startsWith(text),
    );
    const rect = row!.getBoundingClientRect();
    // A descender may hang a pixel or two below its row's box: that is where an underscore is drawn.
    return { x: rect.x, y: rect.y, width: 400, height: rect.height + 3 };
  }, start);
  const png = await page.screenshot({ clip: box });
  return sharp(png).raw().ensureAlpha().toBuffer();
}

describe.skipIf(NO_BROWSER)(
  `the window's text on screen${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`,
  () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    /** `hac web` on a fresh home with the fake model, and a page of it open and ready. */
    const openWindow = (files: CliHomeFiles, options: Parameters<Browser['newPage']>[0]) =>
      openHacWindow(browser, tempDir(), cleanups, files, options);

    it.each(['dark', 'light'] as const)(
      'underscores-are-drawn-at-100-percent-in-the-%s-theme',
      async (scheme) => {
        const { fake, page } = await openWindow(
          { config: { markdown: false } },
          { viewport: { width: 1100, height: 500 }, colorScheme: scheme },
        );
        // The same text twice, once with underscores and once with spaces where they were: only they differ.
        fake.reply(openaiReply.text(['snake_case_name $OPENAI_API_KEY\nsnake case name $OPENAI API KEY']));
        await send(page, 'names');
        await waitForTranscript(page, /snake case name/);
        await page.evaluate(() => window.hacIdle!());
        const withUnderscores = await rowPixels(page, 'snake_');
        const withSpaces = await rowPixels(page, 'snake ');
        let differing = 0;
        for (let i = 0; i < withUnderscores.length; i += 4) {
          const delta = [0, 1, 2].reduce(
            (sum, c) => sum + Math.abs(withUnderscores[i + c]! - withSpaces[i + c]!),
            0,
          );
          if (delta > 60) differing++;
        }
        // Four underscores of about 7 px each, at least a pixel high each: their ink is what differs.
        expect(differing).toBeGreaterThan(20);
      },
    );

    it('code-keeps-its-colours-when-the-conversation-is-drawn-again-after-a-reload', async () => {
      const { fake, page } = await openWindow({}, { viewport: { width: 1100, height: 500 } });
      fake.reply(openaiReply.text(['Here:\n\n```js\nconst answer = 42;\n```\n']));
      await send(page, 'code please');
      await waitForTranscript(page, /const answer = 42;/);
      /** The colours of the word `const` on screen (c: not the default colour). */
      const constColours = () =>
        page.evaluate(async () => {
          await window.hacIdle!();
          const lines = window.hacTranscript!.lines();
          const row = lines.findIndex((line) => line.includes('const answer'));
          return window.hacTranscript!.styles(row).slice(0, 5).join(' ');
        });
      await expect.poll(constColours).toMatch(/^c:\S*c\S* o:\S*c/);
      const coloured = await constColours();
      await page.reload();
      await page.waitForFunction(() => document.activeElement?.id === 'prompt');
      await waitForTranscript(page, /const answer = 42;/);
      await expect.poll(constColours).toBe(coloured);
    });

    it.each([
      [480, 1],
      [1100, 1.5],
    ])('the-status-line-at-%i-px-and-%s-zoom-always-shows-what-hac-is-doing', async (width, zoom) => {
      const fake = await startOpenAIFake();
      cleanups.push(() => fake.close());
      const home = tempDir();
      writeCliHome(home, fake.baseUrl);
      const web = await HacWeb.start(home);
      cleanups.push(() => web.stop());
      const context = await browser.newContext({ viewport: { width, height: 600 }, deviceScaleFactor: zoom });
      cleanups.push(() => context.close());
      const page = await context.newPage();
      await page.goto(web.url);
      await page.waitForFunction(() => document.activeElement?.id === 'prompt');
      // Zoomed as a user zooms (Ctrl+plus): the page's CSS pixels shrink.
      if (zoom !== 1) await page.evaluate((z) => (document.documentElement.style.zoom = String(z)), zoom);
      fake.reply(openaiReply.text(['ok']));
      await send(page, 'a question long enough to fill the context gauge and the token count');
      await waitForTranscript(page, /ok/);
      const state = page.locator('#status .status-state');
      await expect.poll(() => state.innerText()).toBe('ready');
      const [line, shown] = [await page.locator('#status').boundingBox(), await state.boundingBox()];
      expect(shown!.x + shown!.width).toBeLessThanOrEqual(line!.x + line!.width + 0.5);
      // The line fits: nothing of it is cut off with an ellipsis.
      expect(await page.locator('#status').evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    });

    it('the-message-menu-is-drawn-in-the-pages-font', async () => {
      const { fake, page } = await openWindow({}, { viewport: { width: 1100, height: 500 } });
      fake.reply(openaiReply.text(['ok']));
      await send(page, 'hello');
      await waitForTranscript(page, /ok/);
      await page.locator('.message-menu').click();
      const fonts = await page.evaluate(() => ({
        item: getComputedStyle(document.querySelector('.message-menu-popup button')!).fontFamily,
        prompt: getComputedStyle(document.querySelector('#prompt')!).fontFamily,
      }));
      expect(fonts.item).toBe(fonts.prompt);
    });

    it('an-emoji-with-a-variation-selector-takes-the-cells-it-is-drawn-in', async () => {
      const { fake, page } = await openWindow(
        { config: { markdown: false } },
        { viewport: { width: 1100, height: 500 } },
      );
      fake.reply(openaiReply.text(['⚠️X careful']));
      await send(page, 'warn me');
      await waitForTranscript(page, /X careful/);
      const drawn = await page.evaluate(async () => {
        await document.fonts.ready;
        const lines = window.hacTranscript!.lines();
        const y = lines.findIndex((line) => line.includes('X careful'));
        const row = [...document.querySelectorAll('.xterm-rows > div')].find((r) =>
          r.textContent?.includes('X careful'),
        )!;
        const style = getComputedStyle(row.querySelector('span') ?? row);
        const canvas = document.createElement('canvas').getContext('2d')!;
        canvas.font = `${style.fontSize} ${style.fontFamily}`;
        const symbol = lines[y]!.split('X')[0]!;
        await Promise.allSettled(
          style.fontFamily.split(',').map((f) => document.fonts.load(`${style.fontSize} ${f}`, `${symbol}M`)),
        );
        return {
          widths: window.hacTranscript!.widths(y).slice(0, 2),
          glyph: canvas.measureText(symbol).width,
          cell: canvas.measureText('M').width,
        };
      });
      // One cell in xterm's buffer, and a glyph one cell wide: the X after it is not drawn over.
      expect(drawn.widths).toEqual([1, 1]);
      expect(drawn.glyph).toBeLessThan(drawn.cell * 1.2);
    });

    it('the-first-view-points-to-the-question-that-sets-up-a-model', async () => {
      const home = tempDir(); // no config.json: a first run, with a key in the environment
      const web = await HacWeb.start(home, [], { OPENAI_API_KEY: 'sk-first-run-123456' });
      cleanups.push(() => web.stop());
      const page = await browser.newPage({ viewport: { width: 1100, height: 500 } });
      cleanups.push(() => page.close());
      await page.goto(web.url);
      await waitForTranscript(page, /config\.json/);
      await expect
        .poll(() => page.locator('#welcome').innerText())
        .toContain('No model yet: answer the question above to set one up');
    });
  },
);
