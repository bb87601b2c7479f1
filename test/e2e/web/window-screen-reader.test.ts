import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openaiReply } from '../../fakes/openai-fake.js';
import { useTempDir } from '../../helpers/temp-home.js';
import { launchChromium, NO_BROWSER, openWindow, send, waitForTranscript } from '../../helpers/web.js';

// The transcript's rows are hidden from assistive technology (a grid of fragments); what a screen reader reads is
// the message log: one labelled article per finished message, in a polite live region. Read here through
// Chromium's accessibility tree (roles and accessible names), as a reader would find them.
const tempDir = useTempDir('hac-web-');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.skipIf(NO_BROWSER)(
  `the window for a screen reader${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`,
  () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('a-finished-answer-is-in-the-accessibility-tree-as-one-message-and-never-token-by-token', async () => {
      const { fake, page } = await openWindow(browser, tempDir(), cleanups, { config: { markdown: true } });
      const log = page.getByRole('log', { name: 'Messages' });
      await expect.poll(() => log.getAttribute('aria-live')).toBe('polite');
      fake.reply(
        openaiReply.thinking(
          ['The user asks ', 'about Korea.'],
          ['The capital of ', '**Korea** is ', 'Seoul.'],
        ),
      );
      // Every change a reader would hear: whole articles added, never text growing inside one.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { logChanges: string[] }).logChanges = seen;
        new MutationObserver((records) => {
          for (const record of records)
            seen.push(record.type === 'childList' ? `added ${record.addedNodes.length}` : record.type);
        }).observe(document.getElementById('messages')!, {
          childList: true,
          subtree: true,
          characterData: true,
        });
      });
      await send(page, 'What is the capital of Korea?');
      await waitForTranscript(page, /Seoul\./);
      const answer = log.getByRole('article', { name: 'Answer' });
      await expect.poll(() => answer.innerText()).toBe('The capital of **Korea** is Seoul.');
      expect(await log.getByRole('article', { name: 'You' }).innerText()).toBe(
        'What is the capital of Korea?',
      );
      expect(await log.getByRole('article', { name: 'Thinking' }).innerText()).toBe(
        'The user asks about Korea.',
      );
      // One article per message, in order; the grid of rows is not what a reader gets.
      expect(
        await log.getByRole('article').evaluateAll((all) => all.map((a) => a.getAttribute('aria-label'))),
      ).toEqual(['You', 'Thinking', 'Answer']);
      expect(await page.evaluate(() => (window as unknown as { logChanges: string[] }).logChanges)).toEqual([
        'added 1',
        'added 1',
        'added 1',
      ]);
      expect(await page.locator('.xterm-rows').getAttribute('aria-hidden')).toBe('true');
      // The message's menu button is named in words, not by its glyph.
      await expect.poll(() => page.getByRole('button', { name: 'Message actions' }).count()).toBe(1);
      // Not drawn on screen: it takes no room and covers nothing.
      const box = await log.boundingBox();
      expect((box?.width ?? 0) * (box?.height ?? 0)).toBeLessThanOrEqual(1);
    });

    it('a-reload-rebuilds-the-log-without-announcing-it-again', async () => {
      const { fake, page } = await openWindow(browser, tempDir(), cleanups, { config: { markdown: false } });
      fake.reply(openaiReply.text(['First answer.']));
      await send(page, 'one');
      await waitForTranscript(page, /First answer\./);
      await page.reload();
      await page.waitForFunction(() => document.activeElement?.id === 'prompt');
      const log = page.getByRole('log', { name: 'Messages' });
      await expect.poll(() => log.getByRole('article', { name: 'Answer' }).count()).toBe(1);
      await expect.poll(() => log.getAttribute('aria-live')).toBe('polite');
      expect(await log.getByRole('article', { name: 'Answer' }).innerText()).toBe('First answer.');
    });
  },
);
