import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openaiReply } from '../../fakes/openai-fake.js';
import type { CliHomeFiles } from '../../helpers/cli-home.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { useTempDir } from '../../helpers/temp-home.js';
import {
  launchChromium,
  NO_BROWSER,
  openWindow as openHacWindow,
  send,
  transcriptLines,
  waitForTranscript,
} from '../../helpers/web.js';

// The window's controls from outside, through `hac web` in Chromium: every pixel of a choice button takes the
// click, and Tab's candidates come as a popup that goes away, not as lists printed into the transcript.
const tempDir = useTempDir('hac-web-controls-');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.skipIf(NO_BROWSER)(`the window's controls${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const openWindow = (files: CliHomeFiles = {}) =>
    openHacWindow(browser, tempDir(), cleanups, files, { viewport: { width: 1000, height: 600 } });

  it('every-point-of-a-choice-button-is-the-button', async () => {
    const more = ['gpt-4o-mini', 'o3-mini-high', 'claude-sonnet', 'llama3.2:latest', 'qwen2.5-coder'];
    const { page, fake } = await openWindow({
      moreModels: more.map((name) => ({ name, provider: 'openai', apiKey: 'sk-test-0000' })),
    });
    // A full transcript: the question's line, and xterm's cursor, at its bottom row, just above the buttons.
    fake.reply(openaiReply.text([Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n')]));
    await send(page, 'fill');
    await waitForTranscript(page, /line 59/);
    await send(page, '/set-model');
    const buttons = page.locator('#choices button');
    await expect.poll(() => buttons.count()).toBeGreaterThan(5);
    // The window made shorter while the buttons show: xterm leaves its hidden input where the cursor was.
    await page.setViewportSize({ width: 1000, height: 570 });
    await page.waitForTimeout(200);
    const missed = await page.evaluate(() =>
      [...document.querySelectorAll('#choices button')].flatMap((button) => {
        const box = button.getBoundingClientRect();
        const misses: string[] = [];
        for (let x = box.left + 1; x < box.right - 1; x += 2)
          for (let y = box.top + 1; y < box.bottom - 1; y += 2) {
            const hit = document.elementFromPoint(x, y);
            if (!hit || !button.contains(hit))
              misses.push(`${button.textContent} at ${Math.round(x)},${Math.round(y)}: ${hit?.className}`);
          }
        return misses;
      }),
    );
    expect(missed.slice(0, 5)).toEqual([]);
  });

  it('tab-lists-candidates-in-a-popup-that-arrows-choose-from-and-that-goes-away', async () => {
    const { page } = await openWindow();
    const prompt = page.locator('#prompt');
    const list = page.locator('#completions');
    // What the transcript holds once the page's first events are drawn: Tab adds nothing to it.
    await expect.poll(() => page.locator('#status').innerText()).toContain('ready');
    const shown = () => transcriptLines(page).then((lines) => lines.join('\n').trimEnd());
    const before = await shown();
    await prompt.fill('/se');
    await page.keyboard.press('Tab');
    await expect.poll(() => list.isVisible()).toBe(true);
    if (process.env.HAC_SCREENSHOTS)
      await page.screenshot({ path: `${process.env.HAC_SCREENSHOTS}/desktop-completions.png` });
    const options = await list.getByRole('option').allInnerTexts();
    expect(options.length).toBeGreaterThan(2);
    expect(options.every((o) => o.startsWith('/se'))).toBe(true);
    // Pressed again and again: still one list, and nothing printed into the transcript.
    await page.keyboard.press('ArrowDown');
    expect(await list.getByRole('option', { selected: true }).innerText()).toBe(options[1]);
    expect(await prompt.getAttribute('aria-activedescendant')).toBe('completions-1');
    await page.keyboard.press('Enter');
    await expect.poll(() => prompt.inputValue()).toBe(`${options[1]} `);
    expect(await list.isHidden()).toBe(true);
    expect(await shown()).toBe(before);
    // Escape closes it and keeps what was typed; typing on closes it too; a click takes one.
    await prompt.fill('/se');
    await page.keyboard.press('Tab');
    await expect.poll(() => list.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await list.isHidden()).toBe(true);
    expect(await prompt.inputValue()).toBe('/se');
    await page.keyboard.press('Tab');
    await expect.poll(() => list.isVisible()).toBe(true);
    await page.keyboard.type('s');
    expect(await list.isHidden()).toBe(true);
    await prompt.fill('/se');
    await page.keyboard.press('Tab');
    await list.getByRole('option', { name: options[2] }).click();
    await expect.poll(() => prompt.inputValue()).toBe(`${options[2]} `);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('prompt');
    expect(await shown()).toBe(before);
  });

  it('the-message-of-a-turn-still-running-is-not-shown-as-taken-back', async () => {
    const { page, fake } = await openWindow({ servers: { tools: testServerEntry() } });
    fake.reply(
      openaiReply.toolCalls([{ id: 'call_1', name: 'tools__echo', arguments: { text: '안녕' } }]),
      openaiReply.text(['It said 안녕.']),
    );
    await send(page, 'echo 안녕');
    await waitForTranscript(page, /Call now\? \(Y\/N\): $/m);
    await page.evaluate(() => window.hacIdle!());
    await page.waitForTimeout(100);
    expect(await page.locator('.taken-back').count()).toBe(0);
    await send(page, 'y');
    await waitForTranscript(page, /It said 안녕\./);
    await page.evaluate(() => window.hacIdle!());
    expect(await page.locator('.taken-back').count()).toBe(0);
  });
});
