import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { useTempDir } from '../../helpers/temp-home.js';
import { HacWeb, launchChromium, NO_BROWSER, send, waitForTranscript } from '../../helpers/web.js';

// Pictures in the window, from outside: `hac web` in Chromium against the OpenAI fake. A clipboard paste and a
// drop (DataTransfer with a PNG, as the browser builds them) become chips, a chip can be removed, and what is
// left reaches the request and shows in the transcript.

const tempDir = useTempDir('hac-window-images-');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const png = async (background: string, width = 900, height = 600) =>
  (
    await sharp({ create: { width, height, channels: 3, background } })
      .composite([
        {
          input: Buffer.from(
            `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#ffd166"/></svg>`,
          ),
        },
      ])
      .png()
      .toBuffer()
  ).toString('base64');

/** Hands the page a PNG the way the browser would: a File in a DataTransfer, on a paste or a drop. */
async function give(page: Page, how: 'paste' | 'drop', name: string, base64: string): Promise<void> {
  await page.evaluate(
    ({ how, name, base64 }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], name, { type: 'image/png' }));
      if (how === 'paste') {
        const prompt = document.getElementById('prompt')!;
        prompt.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
        );
      } else {
        document.dispatchEvent(
          new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }),
        );
        document.dispatchEvent(
          new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }),
        );
      }
    },
    { how, name, base64 },
  );
}

describe.skipIf(NO_BROWSER)(`pictures in the window${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a-pasted-and-a-dropped-png-become-chips-one-is-removed-and-the-other-reaches-the-request-and-the-transcript', async () => {
    const fake = await startOpenAIFake();
    cleanups.push(() => fake.close());
    const home = tempDir();
    writeCliHome(home, fake.baseUrl);
    const web = await HacWeb.start(home);
    cleanups.push(() => web.stop());
    const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    cleanups.push(() => context.close());
    const page = await context.newPage();
    await page.goto(web.url);
    await expect.poll(() => page.locator('#status').innerText()).toContain('ready');

    await give(page, 'paste', 'clip.png', await png('#264653'));
    await expect.poll(() => page.locator('#attachments .attachment').count()).toBe(1);
    await give(page, 'drop', 'dropped.png', await png('#e76f51', 1200, 800));
    await expect.poll(() => page.locator('#attachments .attachment').count()).toBe(2);
    expect(await page.locator('#attachments').innerText()).toContain('dropped.png 1152×768');
    expect(await page.locator('#attachments img').first().getAttribute('src')).toMatch(
      /^data:image\/png;base64,/,
    );

    await page.getByRole('button', { name: 'Remove clip.png' }).click({ timeout: 5000 });
    await expect.poll(() => page.locator('#attachments .attachment').count()).toBe(1);
    // The transcript said it was attached: it says it was removed, too.
    await waitForTranscript(page, /Removed \[image: clip\.png [^\]]*\] from your next message\./);

    fake.reply(openaiReply.text(['An orange picture with a yellow circle.']));
    await send(page, 'what is this?');
    await waitForTranscript(page, /An orange picture/);
    const transcript = await waitForTranscript(page, /\[image: dropped\.png 1152×768/);
    expect(transcript.split('humble-ai> what is this?')[1]).not.toContain('clip.png');
    expect(await page.locator('#attachments').isHidden()).toBe(true);
    const user = fake.requests[0]!.body.messages.at(-1) as { content: { type: string }[] };
    expect(user.content.map((p) => p.type)).toEqual(['text', 'image_url']);
    // The picture itself is in the transcript below its line; a click opens it larger.
    const picture = page.locator('#transcript img.transcript-picture');
    await expect.poll(() => picture.count()).toBe(1);
    expect(await picture.getAttribute('alt')).toBe('dropped.png');
    await picture.click();
    await expect.poll(() => page.locator('dialog.picture-dialog[open] img').count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('dialog.picture-dialog').count()).toBe(0);
    // Drawn again at a new width (the transcript re-wraps), the picture comes back under its line.
    await page.setViewportSize({ width: 640, height: 700 });
    await page.waitForTimeout(400);
    await expect.poll(() => picture.count()).toBe(1);
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.waitForTimeout(400);
    if (process.env.HAC_SCREENSHOTS) {
      await give(page, 'paste', 'screenshot.png', await png('#2a9d8f', 1280, 720));
      await expect.poll(() => page.locator('#attachments .attachment').count()).toBe(1);
      await page.locator('#prompt').fill('and this one?');
      await page.screenshot({ path: `${process.env.HAC_SCREENSHOTS}/desktop-image.png` });
    }
  });
});

describe.skipIf(NO_BROWSER)(
  `a picture scrolling away${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`,
  () => {
    it('leaves-the-screen-row-by-row-as-text-does', async () => {
      const fake = await startOpenAIFake();
      cleanups.push(() => fake.close());
      const home = tempDir();
      writeCliHome(home, fake.baseUrl, { config: { markdown: false } });
      const web = await HacWeb.start(home);
      cleanups.push(() => web.stop());
      const browser = await launchChromium();
      cleanups.push(() => browser.close());
      const page = await browser.newPage({ viewport: { width: 900, height: 460 } });
      await page.goto(web.url);
      await expect.poll(() => page.locator('#status').innerText()).toContain('ready');
      await give(page, 'paste', 'red.png', await png('#ff0000', 600, 400));
      await expect.poll(() => page.locator('#attachments .attachment').count()).toBe(1);
      const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n');
      fake.reply(openaiReply.text([lines]));
      await send(page, 'look');
      await waitForTranscript(page, /^line 40$/m);
      await page.evaluate(() => window.hacIdle!());
      // Scrolled up until some of the picture's rows are above the screen and the rest on it: the rows on screen
      // above the line after the picture are the picture's.
      const onScreenNow = () =>
        page.evaluate(() => window.hacTranscript!.visible().indexOf('Waiting for response...'));
      await page.mouse.move(400, 200);
      for (let i = 0; i < 200 && (await onScreenNow()) < 6; i++) {
        await page.mouse.wheel(0, -15);
        await page.waitForTimeout(20);
      }
      await page.waitForTimeout(200); // the screen is drawn on the next frames
      const onScreen = await onScreenNow();
      expect(onScreen).toBeGreaterThan(3);
      expect(onScreen).toBeLessThan(12);
      expect((await page.evaluate(() => window.hacTranscript!.visible())).join('\n')).not.toContain(
        '[image:',
      );
      // Those rows show the picture: red pixels in each of them, at the transcript's left.
      const rows = await page.evaluate(() => {
        const rect = document.querySelector('.xterm-rows > div')!.getBoundingClientRect();
        return { x: rect.x, y: rect.y, height: rect.height };
      });
      for (let row = 0; row < onScreen; row++) {
        const shot = await page.screenshot({
          clip: { x: rows.x + 10, y: rows.y + row * rows.height + 1, width: 40, height: rows.height - 2 },
        });
        const data = await sharp(shot).raw().ensureAlpha().toBuffer();
        const red = [...Array(data.length / 4).keys()].filter(
          (p) => data[p * 4]! > 200 && data[p * 4 + 1]! < 60 && data[p * 4 + 2]! < 60,
        ).length;
        expect(red, `picture row ${row + 12 - onScreen} on screen row ${row}`).toBeGreaterThan(100);
      }
    });
  },
);
