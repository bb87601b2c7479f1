import path from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { commit, compose, imeKey, press, run, syllable, TIMINGS } from '../../helpers/ime.js';
import { useTempDir } from '../../helpers/temp-home.js';
import { HacWeb, launchChromium, NO_BROWSER, send, waitForTranscript } from '../../helpers/web.js';

// What an MCP server asks, in the window through `hac web` and real Chromium: a small form under the transcript,
// its text typed through the IME path of CDP in both timings (an Enter that commits a syllable never submits),
// answers checked by the host and sent back with what is wrong, Submit and Decline.
const askServer = path.resolve(import.meta.dirname, '../../fixtures/mcp/ask-server.mjs');

describe.skipIf(NO_BROWSER)(
  `a server's form in the window${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`,
  () => {
    const tempDir = useTempDir('hac-form-');
    let fake: OpenAIFake;
    let web: HacWeb;
    let browser: Browser;
    let page: Page;
    let cdp: CDPSession;

    beforeAll(async () => {
      fake = await startOpenAIFake();
      const home = tempDir();
      writeCliHome(home, fake.baseUrl, {
        servers: { ask: { command: process.execPath, args: [askServer] } },
        config: { toolCallMode: 'auto' },
      });
      web = await HacWeb.start(home);
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
      await page.goto(web.url);
      await page.waitForFunction(() => document.activeElement?.id === 'prompt');
      cdp = await page.context().newCDPSession(page);
    });
    afterAll(async () => {
      await browser?.close();
      await web?.stop();
      await fake?.close();
    });

    const form = () => page.locator('#server-form');
    /** The tool result the model got in the last request. */
    const lastToolResult = () => {
      const messages = fake.requests.at(-1)!.body.messages as { role: string; content: string }[];
      return messages.findLast((m) => m.role === 'tool')!.content;
    };
    const book = async (answer: string) => {
      fake.reply(
        openaiReply.toolCalls([{ id: `c${fake.requests.length}`, name: 'ask__book_table', arguments: {} }]),
        openaiReply.text([answer]),
      );
      await send(page, 'book a table');
      await form().waitFor({ state: 'visible' });
      await waitForTranscript(page, /MCP server "ask" asks: Details for your booking/);
    };

    it.each(TIMINGS)(
      'korean-typed-through-the-ime-%s-fills-the-form-and-a-wrong-number-is-sent-back',
      async (timing) => {
        const done = `Booked (${timing}).`;
        await book(done);
        // The first field has the focus; its Enter that commits the last syllable does not submit.
        expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('name');
        await run(
          cdp,
          [
            ...syllable(['ㄱ', '기', '김']),
            ...syllable(['ㅁ', '미', '민']),
            compose('ㅅ'),
            compose('수'),
            imeKey('Enter'),
            commit('수'),
          ],
          timing,
        );
        await page.waitForTimeout(100);
        expect(await page.locator('#server-form input[name="name"]').inputValue()).toBe('김민수');
        expect(await form().isVisible()).toBe(true);
        await page.locator('#server-form input[name="party"]').fill('40');
        await page.locator('#server-form input[name="date"]').fill('2026-12-24');
        await page.locator('#server-form select[name="seating"]').selectOption('out');
        await page.getByLabel('Wine pairing').check();
        await page.locator('#server-form input[name="party"]').focus();
        await run(cdp, [press('Enter')], timing);
        // The host checks the answers: the form comes back with the error, what was typed kept.
        await expect.poll(() => page.locator('[data-error-for="party"]').textContent()).toBe('Give 1 to 12.');
        expect(await page.locator('#server-form input[name="name"]').inputValue()).toBe('김민수');
        await page.locator('#server-form input[name="party"]').fill('4');
        if (timing === 'awaited' && process.env.HAC_SCREENSHOTS)
          await page.screenshot({ path: `${process.env.HAC_SCREENSHOTS}/desktop-form.png` });
        await page.getByRole('button', { name: 'Submit' }).click();
        await waitForTranscript(page, new RegExp(done.replace(/[().]/g, '\\$&')));
        expect(await form().isVisible()).toBe(false);
        expect(lastToolResult()).toBe(
          'Booked: {"name":"김민수","party":4,"date":"2026-12-24","seating":"out","extras":["wine"],"newsletter":false}; member code not given.',
        );
        await waitForTranscript(page, /Sent to MCP server "ask": Name: 김민수, Party size: 4/);
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('prompt');
      },
    );

    // Chromium on Windows sends a key the IME consumed as "Process"; on macOS as the key itself (Enter, Escape),
    // and some IMEs send it once the composition has ended: keyCode 229 is then the only sign it is the IME's.
    it.each([
      ['windows', 'Process', 'Process'],
      ['macos', 'Enter', 'Escape'],
    ])('the-ime-keys-%s-style-neither-submit-nor-decline-the-form', async (style, enter, escape) => {
      await book(`Kept (${style}).`);
      // Everything else filled in, so an Enter that got through would submit the form.
      await page.locator('#server-form input[name="party"]').fill('4');
      await page.locator('#server-form input[name="date"]').fill('2026-12-24');
      await page.locator('#server-form select[name="seating"]').selectOption('out');
      await page.locator('#server-form input[name="name"]').focus();
      await run(
        cdp,
        [
          ...syllable(['ㄱ', '기', '김']),
          compose('ㅁ'),
          compose('민'),
          imeKey('Escape', escape), // the IME closes its candidates: the form stays
          imeKey('Enter', enter), // the IME commits the syllable: nothing is submitted
          commit('민'),
          imeKey('Enter', enter), // after the composition, keyCode 229 alone says whose key it is
        ],
        'awaited',
      );
      await page.waitForTimeout(100);
      expect(await form().isVisible()).toBe(true);
      expect(await page.locator('#server-form input[name="name"]').inputValue()).toBe('김민');
      await page.getByRole('button', { name: 'Decline' }).click();
      await waitForTranscript(page, new RegExp(`Kept \\(${style}\\)\\.`));
    });

    it('decline-and-escape-tell-the-server-no', async () => {
      await book('Declined.');
      // A line typed at the prompt meanwhile waits there: the form has its own buttons.
      await page.locator('#prompt').focus();
      await page.keyboard.insertText('after the form');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('#status').textContent()).toContain('Answer the form above first');
      expect(await page.locator('#prompt').inputValue()).toBe('after the form');
      await page.locator('#prompt').fill('');
      await page.getByRole('button', { name: 'Decline' }).click();
      await waitForTranscript(page, /Declined\.\n/);
      expect(lastToolResult()).toBe('Booking declined by the user.');
      await book('Escaped.');
      await page.locator('#server-form input[name="name"]').press('Escape');
      await waitForTranscript(page, /Escaped\.\n/);
      expect(lastToolResult()).toBe('Booking declined by the user.');
      expect(await form().isVisible()).toBe(false);
    });

    it('a-page-to-open-opens-only-on-open-then-done-or-decline', async () => {
      const connect = async (answer: string) => {
        fake.reply(
          openaiReply.toolCalls([
            { id: `c${fake.requests.length}`, name: 'ask__connect_account', arguments: {} },
          ]),
          openaiReply.text([answer]),
        );
        await send(page, 'connect my account');
        await form().waitFor({ state: 'visible' });
      };
      const url = 'https://accounts.example.com/connect?session=42';
      // The page opens in a tab of its own, on the user's word only; every fetch of it is counted here.
      let fetched = 0;
      await page.context().route('https://accounts.example.com/**', (route) => {
        fetched += 1;
        return route.fulfill({ body: 'ok' });
      });
      await connect('Connected.');
      await expect
        .poll(() => form().locator('.form-title').textContent())
        .toBe('MCP server "ask" asks you to open a page: Connect your account');
      // The whole address, to read first or copy (over SSH this browser is not where the page opens), its host apart.
      const link = form().getByRole('link', { name: url });
      expect(await link.getAttribute('href')).toBe(url);
      expect(await form().locator('.form-host').textContent()).toBe('host: accounts.example.com');
      expect(await page.evaluate(() => (document.activeElement as HTMLElement).textContent)).toBe(
        'Open page',
      );
      const tabs = () =>
        page
          .context()
          .pages()
          .filter((p) => p.url() === url);
      // Nothing opened or fetched by itself; Open opens it once, in a tab that cannot reach back into this page.
      expect(tabs()).toHaveLength(0);
      expect(fetched).toBe(0);
      await page.getByRole('button', { name: 'Open page' }).click();
      await expect.poll(() => tabs().length, { timeout: 10_000 }).toBe(1);
      expect(fetched).toBe(1);
      expect(
        await tabs()
          .at(-1)!
          .evaluate(() => window.opener),
      ).toBeNull();
      await Promise.all(tabs().map((tab) => tab.close()));
      // The same button now says the page is done.
      expect(await page.evaluate(() => (document.activeElement as HTMLElement).textContent)).toBe('Done');
      await page.getByRole('button', { name: 'Done' }).click();
      await waitForTranscript(page, /Connected\.\n/);
      expect(lastToolResult()).toBe('Account connection: accept.');
      expect(await form().isVisible()).toBe(false);

      await connect('Not connected.');
      await page.getByRole('button', { name: 'Decline' }).click();
      await waitForTranscript(page, /Not connected\.\n/);
      expect(lastToolResult()).toBe('Account connection: decline.');
    });
  },
);
