import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { commit, compose, run, syllable } from '../../helpers/ime.js';
import { HacWeb, launchChromium, NO_BROWSER, send, waitForTranscript } from '../../helpers/web.js';

// The window's session list, in Chromium through `hac web`: Ctrl+K, search as you type (Korean through the IME
// path), rename, export (a download), delete (to the trash) and open; the files on disk show what happened.
describe.skipIf(NO_BROWSER)(
  `the session list in the window${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`,
  () => {
    let fake: OpenAIFake;
    let web: HacWeb;
    let browser: Browser;
    let page: Page;
    let home: string;
    let sessions: string;

    const session = (first: string, answer: string) =>
      JSON.stringify({
        version: 1,
        startedAt: '2026-11-20T10:00:00+09:00',
        model: 'gpt-test',
        messages: [
          { role: 'user', content: first },
          { role: 'assistant', content: answer },
        ],
      });

    beforeAll(async () => {
      fake = await startOpenAIFake();
      // One home for the whole file (the tests go on from each other).
      home = mkdtempSync(path.join(os.tmpdir(), 'hac-sessions-'));
      const hacHome = writeCliHome(home, fake.baseUrl);
      sessions = path.join(hacHome, 'sessions');
      mkdirSync(sessions, { recursive: true });
      writeFileSync(
        path.join(sessions, '20261120_100000_서울_날씨.json'),
        session('서울 날씨 알려줘', '오늘은 맑아요.'),
      );
      writeFileSync(
        path.join(sessions, '20261121_100000_Deploy.json'),
        session('Deploy to staging', 'Deployed.'),
      );
      writeFileSync(
        path.join(sessions, '20261122_100000_Review.json'),
        session('Review the query', 'Looks fine.'),
      );
      web = await HacWeb.start(home);
      browser = await launchChromium();
      page = await browser.newPage({
        viewport: { width: 960, height: 600 },
        colorScheme: 'dark',
        locale: 'ko-KR',
      });
      await page.goto(web.url);
      await page.waitForFunction(() => document.activeElement?.id === 'prompt');
    });
    afterAll(async () => {
      await browser?.close();
      await web?.stop();
      await fake?.close();
      rmSync(home, { recursive: true, force: true });
    });

    const items = () => page.locator('#sessions li');
    /** A session's action, from its ⋯ menu: every action's name holds the session's title. */
    const choose = async (row: ReturnType<typeof items>, action: string | RegExp) => {
      await row.getByRole('button', { name: /^Actions for “/ }).click();
      await page.getByRole('menuitem', { name: action }).click();
    };

    it('ctrl-k-opens-the-list-and-korean-typed-through-the-ime-searches-as-you-type', async () => {
      await page.keyboard.press('Control+KeyK');
      await expect.poll(() => items().count()).toBe(3);
      const cdp = await page.context().newCDPSession(page);
      await run(
        cdp,
        [...syllable(['ㅅ', '서']), compose('ㅇ'), compose('우'), compose('울'), commit('울')],
        'awaited',
      );
      await expect.poll(() => items().count()).toBe(1);
      await expect.poll(() => items().first().textContent()).toContain('서울 날씨 알려줘');
      expect(await page.locator('#sessions .session-match').textContent()).toBe('서울 날씨 알려줘');
      if (process.env.HAC_SCREENSHOTS) {
        await page.locator('#sessions input[type=search]').fill('');
        await expect.poll(() => items().count()).toBe(3);
        await page.screenshot({ path: `${process.env.HAC_SCREENSHOTS}/desktop-sessions.png` });
        await page.locator('#sessions input[type=search]').fill('서울');
        await expect.poll(() => items().count()).toBe(1);
      }
    });

    it('a-rename-begun-before-the-search-answers-keeps-its-field', async () => {
      // The search asks 120 ms after the last key; its answer used to redraw the list and drop the field.
      await page.locator('#sessions input[type=search]').fill('서울');
      await choose(items().first(), /^Rename /);
      await page.waitForTimeout(600); // well past the pause and the answer
      expect(await page.getByLabel('New title').count()).toBe(1);
      await page.getByLabel('New title').press('Escape');
      await expect.poll(() => page.getByLabel('New title').count()).toBe(0);
      expect(await page.locator('#sessions').evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    });

    it('the-list-is-one-tab-stop-and-the-menu-key-offers-the-rest-each-named-with-the-title', async () => {
      await page.locator('#sessions input[type=search]').fill('');
      await expect.poll(() => items().count()).toBe(3);
      await page.locator('#sessions input[type=search]').focus();
      const stops: string[] = [];
      for (let i = 0; i < 2; i++) {
        await page.keyboard.press('Tab');
        stops.push(await page.evaluate(() => document.activeElement!.tagName));
      }
      // Three sessions, one stop: then the dialog's Close button.
      expect(stops).toEqual(['LI', 'BUTTON']);
      const title = (await items().first().locator('strong').textContent())!;
      await items().first().focus();
      await page.keyboard.press('Shift+F10');
      const names = await page.getByRole('menuitem').allTextContents();
      expect(names).toHaveLength(6);
      expect(names.every((name) => name.includes(`“${title}”`))).toBe(true);
      await page.keyboard.press('Escape');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
        `Actions for “${title}”`,
      );
      expect(await page.locator('#sessions').evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
      await page.locator('#sessions input[type=search]').fill('서울'); // as the next test expects it
      await expect.poll(() => items().count()).toBe(1);
    });

    it('rename-export-and-delete-change-the-files-on-disk', async () => {
      await choose(items().first(), /^Rename /);
      await page.getByLabel('New title').fill('Seoul weather');
      await page.getByLabel('New title').press('Enter');
      await expect
        .poll(() => page.locator('.session-note').textContent())
        .toBe('Renamed to "Seoul weather".');
      expect(readdirSync(sessions).filter((f) => f.endsWith('.json'))).toContain(
        '20261120_100000_Seoul_weat.json',
      );
      // Export downloads the file where the page is (hac web may be on another machine): nothing is written
      // in hac's folder.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        choose(items().first(), 'Export “Seoul weather” as Markdown (.md)'),
      ]);
      expect(download.suggestedFilename()).toBe('Seoul weather.md');
      const markdown = readFileSync(await download.path(), 'utf8');
      expect(markdown).toMatch(/^# Seoul weather\n/);
      expect(markdown).toContain('서울 날씨');
      await expect
        .poll(() => page.locator('.session-note').textContent())
        .toBe('Downloaded Seoul weather.md.');
      expect(existsSync(path.join(home, 'Seoul weather.md'))).toBe(false);
      await choose(items().first(), 'Delete “Seoul weather”');
      expect(existsSync(path.join(sessions, '20261120_100000_Seoul_weat.json'))).toBe(true); // one choice: not yet
      await page.getByRole('menuitem', { name: 'Choose again to delete “Seoul weather”' }).click();
      await expect.poll(() => page.locator('.session-note').textContent()).toContain('Moved');
      expect(readdirSync(path.join(sessions, '.trash'))).toEqual(['20261120_100000_Seoul_weat.json']);
    });

    it('new-window-opens-a-session-in-a-tab-of-its-own', async () => {
      await page.locator('#sessions input[type=search]').fill('');
      await expect.poll(() => items().count()).toBe(2);
      const [tab] = await Promise.all([
        page.context().waitForEvent('page'),
        choose(page.locator('#sessions li', { hasText: 'Review the query' }), /in a new window$/),
      ]);
      await tab.waitForFunction(() => typeof window.hacIdle === 'function');
      await waitForTranscript(tab, /humble-ai> Review the query\nLooks fine\./);
      await tab.close();
    });

    it('open-continues-a-session-in-this-window', async () => {
      await page.locator('#sessions input[type=search]').fill('');
      await expect.poll(() => items().count()).toBe(2);
      // From the keyboard: Down from the search field to the first session, Down again, Enter opens it.
      await page.locator('#sessions input[type=search]').focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Deploy to staging');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.locator('#sessions').evaluate((d) => (d as HTMLDialogElement).open))
        .toBe(false);
      await waitForTranscript(page, /humble-ai> Deploy to staging\nDeployed\./);
      fake.reply(openaiReply.text(['Rolled back.']));
      await send(page, 'roll it back');
      await waitForTranscript(page, /Rolled back\./);
      const contents = fake.requests[0]!.body.messages.map((m: { content: string }) => m.content);
      expect(contents).toContain('Deployed.');
    });

    it('each-message-has-a-menu-the-last-asks-again-or-edits-an-earlier-one-takes-back-from-there', async () => {
      // The resumed message and the one sent since: a menu each.
      await expect.poll(() => page.locator('.message-menu').count()).toBe(2);
      fake.reply(openaiReply.text(['Rolled back, again.']));
      await page.locator('.message-menu').last().click();
      await page.getByRole('menuitem', { name: 'Ask again' }).click();
      // Chosen, the menu gives the keyboard back to the prompt, where the next message is typed.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('prompt');
      await waitForTranscript(page, /Rolled back, again\./);
      expect((fake.requests[1]!.body.messages.at(-1) as { content: string }).content).toBe('roll it back');
      // The first message: taking it back takes everything after it too, after saying what goes.
      await page.locator('.message-menu').first().click();
      if (process.env.HAC_SCREENSHOTS)
        await page.screenshot({ path: `${process.env.HAC_SCREENSHOTS}/desktop-message-menu.png` });
      await page.getByRole('menuitem', { name: 'Take back from here (2 exchanges)' }).click();
      await waitForTranscript(page, /Take them back\? \(1 to do it, 0 to keep them\)/);
      await send(page, '1');
      await waitForTranscript(page, /Took back 2 exchanges\./);
      fake.reply(openaiReply.text(['Fresh start.']));
      await send(page, 'what now?');
      await waitForTranscript(page, /Fresh start\./);
      const contents = fake.requests[2]!.body.messages.map((m: { content: string }) => m.content);
      expect(contents).not.toContain('Deploy to staging');
      expect(contents).not.toContain('roll it back');
      // A message already taken back offers nothing more.
      await page.locator('.message-menu').first().click();
      expect(
        await page.getByRole('menuitem', { name: 'Already taken back' }).getAttribute('aria-disabled'),
      ).toBe('true');
    });
  },
);
