import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome, type CliHomeFiles } from '../../helpers/cli-home.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { useTempDir } from '../../helpers/temp-home.js';
import { HacWeb, launchChromium, NO_BROWSER, paste, send, waitForTranscript } from '../../helpers/web.js';

// What the user typed stays, in the window too: a failed question can be asked again from its ⋯ menu, a
// stopped answer is kept as far as it came, and exchanges taken back are dimmed so the screen says what the
// model will see.
const tempDir = useTempDir('hac-web-');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function startWeb(files: CliHomeFiles = {}): Promise<{ fake: OpenAIFake; web: HacWeb }> {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  writeCliHome(home, fake.baseUrl, files);
  const web = await HacWeb.start(home);
  cleanups.push(() => web.stop());
  return { fake, web };
}

const lastAsked = (fake: OpenAIFake) =>
  fake.requests.at(-1)!.body.messages.map((m: { content: string }) => m.content) as string[];

describe.skipIf(NO_BROWSER)(
  `the window keeps what was typed${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`,
  () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });
    const open = async (url: string): Promise<Page> => {
      const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
      cleanups.push(() => page.close());
      await page.goto(url);
      await page.waitForFunction(() => document.activeElement?.id === 'prompt');
      return page;
    };

    it('a-failed-question-is-asked-again-from-its-menu-and-taken-back-exchanges-are-dimmed', async () => {
      const { fake, web } = await startWeb();
      fake.reply(
        openaiReply.text(['Answered e429.']),
        openaiReply.error(400, { message: 'the connection dropped' }),
        openaiReply.text(['Answered the cut test.']),
      );
      const page = await open(web.url);
      await send(page, 'e429 please');
      await waitForTranscript(page, /Answered e429\./);
      await send(page, 'cut-test please');
      await waitForTranscript(page, /the connection dropped/);
      await page.waitForFunction(() => document.body.dataset.state !== 'working');
      await page.locator('.message-menu').last().click();
      await page.getByRole('menuitem', { name: 'Ask again' }).click();
      await waitForTranscript(page, /Answered the cut test\./);
      expect(lastAsked(fake).at(-1)).toBe('cut-test please');
      expect(lastAsked(fake)).toContain('Answered e429.');
      // Nothing is dimmed while everything is held.
      expect(await page.locator('.taken-back').count()).toBe(0);

      await page.locator('.message-menu').first().click();
      await page.getByRole('menuitem', { name: 'Take back from here (2 exchanges)' }).click();
      await waitForTranscript(page, /Take them back\? \(1 to do it, 0 to keep them\)/);
      await send(page, '1');
      await waitForTranscript(page, /Took back 2 exchanges\./);
      // The two messages and the retried answer, up to the command that took them back.
      await expect.poll(() => page.locator('.taken-back').count()).toBe(3);
      // The dimming covers the exchanges, not the command that took them back.
      const band = await page.locator('.taken-back').last().boundingBox();
      const took = await page.getByText('Took back 2 exchanges.').first().boundingBox();
      if (band && took) expect(band.y + band.height).toBeLessThanOrEqual(took.y + 1);
      if (process.env.HAC_SCREENSHOTS)
        await page.screenshot({ path: `${process.env.HAC_SCREENSHOTS}/desktop-taken-back.png` });
    });

    it('a-stopped-answer-is-kept-as-far-as-it-came-and-the-model-sees-it', async () => {
      const { fake, web } = await startWeb();
      fake.reply(
        openaiReply.answer({ text: ['A long story begins '], end: 'stall' }),
        openaiReply.text(['And it goes on.']),
      );
      const page = await open(web.url);
      await send(page, 'tell me a long story');
      await waitForTranscript(page, /A long story begins/);
      await page.locator('#stop').click();
      await waitForTranscript(page, /Response cancelled\./);
      await send(page, 'go on');
      await waitForTranscript(page, /And it goes on\./);
      expect(lastAsked(fake).slice(1)).toEqual([
        'tell me a long story',
        'A long story begins\n\n[cancelled by the user]',
        'go on',
      ]);
    });

    it('a-200-kb-paste-stands-folded-in-the-prompt-and-the-transcript-and-is-sent-whole', async () => {
      const { fake, web } = await startWeb();
      fake.reply(openaiReply.text(['A long log.']));
      const page = await open(web.url);
      const log = Array.from(
        { length: 2543 },
        (_, i) => `${i} INFO request served in 12 ms ${'·'.repeat(40)}`,
      ).join('\n');
      await page.locator('#prompt').focus();
      await page.keyboard.insertText('Why so slow? ');
      await paste(page, log);
      expect(await page.locator('#prompt').inputValue()).toMatch(
        /^Why so slow\? \[Pasted text: 2,543 lines, \d+ KB\]$/,
      );
      await page.keyboard.press('Enter');
      await waitForTranscript(page, /A long log\./);
      expect(lastAsked(fake).at(-1)).toBe(`Why so slow? ${log}`);
      const text = await waitForTranscript(page, /A long log\./);
      expect(text).toMatch(
        /humble-ai> Why so slow\? 0 INFO request served in 12 ms ·+…\s+\[Pasted text: 2,543 lines, \d+\s+KB\]/,
      );
      expect(text.trimEnd().split('\n').length).toBeLessThan(20); // not 1,580 echoed lines
      expect(text).toContain('more than the whole context budget');
    });

    it('a-200-kb-paste-typed-as-the-answer-to-a-y-n-is-folded-and-refused-in-one-line', async () => {
      const { fake, web } = await startWeb({ servers: { tools: testServerEntry() } });
      fake.reply(openaiReply.toolCalls([{ id: 'c1', name: 'tools__echo', arguments: { text: 'x' } }]));
      const page = await open(web.url);
      await send(page, 'echo x');
      await waitForTranscript(page, /Call now\? \(Y\/N\): $/m);
      const log = Array.from({ length: 2600 }, (_, i) => `${i} INFO ${'·'.repeat(70)}`).join('\n');
      await paste(page, log);
      await page.keyboard.press('Enter');
      const text = await waitForTranscript(page, /Please answer with Y or N \(or A: always\)\./);
      expect(text).toMatch(/Call now\? \(Y\/N\): 0 INFO ·+…\s+\[Pasted text: 2,600 lines, \d+\s+KB\]/);
      expect(text.trimEnd().split('\n').length).toBeLessThan(25); // not 2,600 echoed lines
      await send(page, 'n');
      await waitForTranscript(page, /MCP call cancelled by user\./);
    });
  },
);
