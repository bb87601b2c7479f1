import type { Browser, CDPSession, Page } from 'playwright-core';
import {
  commit,
  compose,
  imeKey,
  keyUp,
  press,
  run,
  syllable,
  TIMINGS,
  type Step,
} from '../../helpers/ime.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { useTempDir } from '../../helpers/temp-home.js';
import { HacWeb, launchChromium, NO_BROWSER, transcriptLines, waitForTranscript } from '../../helpers/web.js';

// The IME regression list (R-IME-1..14) on the real page, through Chromium's own IME path (CDP), in both timings:
// each step awaited, and every step sent at once (burst), which is what exposes races. "Submitted" is read from
// the core's side: the fake model's requests and the transcript's echo of the line.

const 알겠습니다 = [
  ...syllable(['ㅇ', '아', '알']),
  ...syllable(['ㄱ', '게', '겠']),
  ...syllable(['ㅅ', '스', '습']),
  ...syllable(['ㄴ', '니']),
  ...syllable(['ㄷ', '다']),
];

describe.skipIf(NO_BROWSER)(
  `IME regression list R-IME-1..14${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`,
  () => {
    const tempDir = useTempDir('hac-ime-');
    let fake: OpenAIFake;
    let web: HacWeb;
    let browser: Browser;
    let page: Page;
    let cdp: CDPSession;

    beforeAll(async () => {
      fake = await startOpenAIFake();
      const home = tempDir();
      writeCliHome(home, fake.baseUrl);
      web = await HacWeb.start(home);
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1000, height: 600 } });
      await page.goto(web.url);
      await page.waitForFunction(() => document.activeElement?.id === 'prompt');
      cdp = await page.context().newCDPSession(page);
    });
    afterAll(async () => {
      await browser?.close();
      await web?.stop();
      await fake?.close();
    });

    const value = () => page.locator('#prompt').inputValue();
    const submittedTexts = () =>
      fake.requests.map((r) => (r.body.messages as { role: string; content: string }[]).at(-1)!.content);
    /** Runs a case from a clean prompt; returns what reached the core during it. */
    async function scenario(
      steps: Step[],
      timing: (typeof TIMINGS)[number],
      { submits = false, settleMs = 150, duringAnswer = false } = {},
    ): Promise<string[]> {
      // The last case's answer is done first, unless this case is about typing during one.
      if (!duringAnswer) await page.waitForFunction(() => document.body.dataset.state !== 'working');
      await page.locator('#prompt').fill('');
      await page.locator('#prompt').focus();
      const before = fake.requests.length;
      await run(cdp, steps, timing);
      await settle(before, settleMs, submits);
      return submittedTexts().slice(before);
    }
    /**
     * Waits until what the steps sent has reached the core. A case that submits waits for the fake model's request
     * (up to 5 s on a loaded machine); every case then waits `settleMs` more, in which a doubled or premature
     * submit would show up.
     */
    async function settle(before: number, settleMs: number, submits: boolean): Promise<void> {
      if (submits) await expect.poll(() => fake.requests.length, { timeout: 5_000 }).toBeGreaterThan(before);
      await page.waitForTimeout(settleMs);
      await page.evaluate(() => window.hacIdle!());
    }

    /** The answer for a case that submits (queued per case, so nothing stale answers a later one). */
    const answerOk = () => fake.reply(openaiReply.text(['ok']));
    async function expectSentOnce(text: string, sent: string[]): Promise<void> {
      expect(sent).toEqual([text]);
      await waitForTranscript(
        page,
        new RegExp(`humble-ai> ${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`),
      );
      expect(await value()).toBe('');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('prompt');
    }

    describe.each(TIMINGS)('%s', (timing) => {
      it('R-IME-1 Korean 한국 composes and commits, nothing submitted', async () => {
        const sent = await scenario(
          [...syllable(['ㅎ', '하', '한']), ...syllable(['ㄱ', '구', '국'])],
          timing,
        );
        expect(await value()).toBe('한국');
        expect(sent).toEqual([]);
      });

      it('R-IME-2 Korean 간 + ㅏ moves the final consonant on: 가나', async () => {
        const sent = await scenario(
          [
            compose('ㄱ'),
            compose('가'),
            compose('간'),
            compose('가'),
            commit('가'),
            compose('나'),
            commit('나'),
          ],
          timing,
        );
        expect(await value()).toBe('가나');
        expect(sent).toEqual([]);
      });

      it('R-IME-3 Korean commit then a plain Enter submits once', async () => {
        answerOk();
        const sent = await scenario([...syllable(['ㄱ', '구', '국']), press('Enter')], timing, {
          submits: true,
        });
        await expectSentOnce('국', sent);
      });

      it('R-IME-4 Enter as keyCode 229 (macOS style) during a composition submits nothing; the next Enter does', async () => {
        const first = await scenario(
          [
            compose('ㄱ'),
            compose('구'),
            compose('국'),
            imeKey('Enter', 'Enter'),
            commit('국'),
            // Some IMEs send the consumed key once the composition has ended: keyCode 229 alone says so.
            imeKey('Enter', 'Enter'),
            keyUp('Enter', 'Enter', 13),
          ],
          timing,
        );
        expect(first).toEqual([]);
        expect(await value()).toBe('국');
        answerOk();
        const before = fake.requests.length;
        await run(cdp, [press('Enter')], timing);
        await settle(before, 150, true);
        await expectSentOnce('국', submittedTexts().slice(before));
      });

      it('R-IME-5 Korean burst 알겠습니다 + Enter: submitted whole, 20 runs out of 20', async () => {
        for (let i = 0; i < 20; i++) {
          answerOk();
          const sent = await scenario([...알겠습니다, press('Enter')], timing, {
            submits: true,
            settleMs: 60,
          });
          expect(sent, `run ${i + 1}`).toEqual(['알겠습니다']);
        }
        expect(await value()).toBe('');
      });

      it('R-IME-6 Korean burst 알겠습니다 + "." keeps every syllable, 20 out of 20', async () => {
        for (let i = 0; i < 20; i++) {
          const sent = await scenario([...알겠습니다, commit('.')], timing, { settleMs: 20 });
          expect(await value(), `run ${i + 1}`).toBe('알겠습니다.');
          expect(sent).toEqual([]);
        }
      });

      it('R-IME-7 the space key commits the syllable and types a space', async () => {
        const sent = await scenario(
          [
            compose('ㅎ'),
            compose('하'),
            compose('한'),
            imeKey('Space'),
            commit('한'),
            commit(' '),
            ...syllable(['ㄱ', '구', '국']),
          ],
          timing,
        );
        expect(await value()).toBe('한 국');
        expect(sent).toEqual([]);
      });

      it('R-IME-8 Backspace through a composition to nothing leaves nothing', async () => {
        const sent = await scenario(
          [
            compose('ㅎ'),
            compose('하'),
            compose('한'),
            compose('하'),
            compose('ㅎ'),
            compose(''),
            commit(''),
          ],
          timing,
        );
        expect(await value()).toBe('');
        expect(sent).toEqual([]);
      });

      it('R-IME-9 Japanese conversion: the Enter the IME consumes submits nothing; the second submits 日本語 once', async () => {
        const first = await scenario(
          [
            compose('に'),
            compose('にほ'),
            compose('にほん'),
            compose('にほんご'),
            compose('日本語', [0, 3]),
            imeKey('Enter'),
            commit('日本語'),
            keyUp('Enter', 'Enter', 13),
          ],
          timing,
        );
        expect(first).toEqual([]);
        expect(await value()).toBe('日本語');
        answerOk();
        const before = fake.requests.length;
        await run(cdp, [press('Enter')], timing);
        await settle(before, 150, true);
        await expectSentOnce('日本語', submittedTexts().slice(before));
      });

      it('R-IME-10 Escape that cancels a Japanese composition does not cancel a streaming answer', async () => {
        // Both timings share the page: count what this run adds.
        const count = async (text: string) => (await transcriptLines(page)).join('\n').split(text).length - 1;
        const streamed = await count('streaming…');
        const cancelledBefore = await count('Response cancelled.');
        fake.reply(openaiReply.text(['streaming…'], { end: 'stall' }));
        await page.locator('#prompt').fill('tell me more');
        await run(cdp, [press('Enter')], 'awaited');
        await expect.poll(() => count('streaming…')).toBe(streamed + 1);
        const sent = await scenario(
          [compose('に'), compose('にほ'), imeKey('Escape'), compose(''), commit('')],
          timing,
          { duringAnswer: true },
        );
        expect(await value()).toBe('');
        expect(sent).toEqual([]);
        expect(await count('Response cancelled.')).toBe(cancelledBefore);
        await page.keyboard.press('Escape'); // a plain Escape does cancel it
        await expect.poll(() => count('Response cancelled.')).toBe(cancelledBefore + 1);
        await page.evaluate(() => window.hacIdle!());
      });

      it('R-IME-11 Chinese pinyin: Space consumed by the IME picks 你好, no Latin left', async () => {
        const sent = await scenario(
          [
            compose('n'),
            compose('ni'),
            compose('nih'),
            compose('niha'),
            compose('nihao'),
            imeKey('Space'),
            commit('你好'),
          ],
          timing,
        );
        expect(await value()).toBe('你好');
        expect(sent).toEqual([]);
      });

      it('R-IME-12 full-width punctuation and emoji without a composition, each once', async () => {
        const sent = await scenario([commit('，'), commit('。'), commit('😀')], timing);
        expect(await value()).toBe('，。😀');
        expect(sent).toEqual([]);
      });

      it('R-IME-13 a mixed line with Home and End submits once, in order', async () => {
        answerOk();
        const sent = await scenario(
          [
            commit('abc'),
            compose('ㅎ'),
            compose('한'),
            compose('한ㄱ'),
            compose('한그'),
            compose('한글'),
            commit('한글'),
            press('Home'),
            compose('日本'),
            commit('日本'),
            press('End'),
            commit('!'),
            press('Enter'),
          ],
          timing,
          { submits: true },
        );
        expect(await value()).toBe('');
        await expectSentOnce('日本abc한글!', sent);
      });

      it('R-IME-14 ArrowUp and Tab as keyCode 229 navigate candidates: no history, no completion', async () => {
        const sent = await scenario(
          [compose('n'), compose('ni'), imeKey('ArrowUp'), imeKey('Tab'), commit('你')],
          timing,
        );
        expect(await value()).toBe('你');
        expect(sent).toEqual([]);
      });
    });
  },
);
