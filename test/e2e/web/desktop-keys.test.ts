import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { useTempDir } from '../../helpers/temp-home.js';
import {
  HacWeb,
  launchChromium,
  NO_BROWSER,
  send,
  transcriptLines,
  visibleLines,
  waitForTranscript,
} from '../../helpers/web.js';

const root = path.resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('hac-keys-');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.skipIf(NO_BROWSER)(
  `the desktop's keys, R-DESK-3${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`,
  () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    async function start(
      servers?: Record<string, unknown>,
    ): Promise<{ fake: OpenAIFake; web: HacWeb; page: Page }> {
      const fake = await startOpenAIFake();
      cleanups.push(() => fake.close());
      const home = tempDir();
      writeCliHome(home, fake.baseUrl, servers ? { servers } : {});
      const web = await HacWeb.start(home);
      cleanups.push(() => web.stop());
      const context = await browser.newContext({ viewport: { width: 1000, height: 600 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(web.url).origin,
      });
      cleanups.push(() => context.close());
      const page = await context.newPage();
      await page.goto(web.url);
      await page.waitForFunction(() => document.activeElement?.id === 'prompt');
      return { fake, web, page };
    }
    const value = (page: Page) => page.locator('#prompt').inputValue();

    it('Ctrl+C at Call now? (Y/N): answers no', async () => {
      const { fake, page } = await start({ tools: testServerEntry() });
      fake.reply(openaiReply.toolCalls([{ id: 'c1', name: 'tools__echo', arguments: { text: 'x' } }]));
      await send(page, 'echo x');
      await waitForTranscript(page, /Call now\? \(Y\/N\): $/m);
      await page.keyboard.press('Control+C');
      await waitForTranscript(page, /MCP call cancelled by user\./);
      expect(fake.requests).toHaveLength(1); // the turn ended: no follow-up request
    });

    it('Ctrl+C at the prompt clears it; twice within 2 s on an empty prompt ends this conversation, never the server', async () => {
      const { web, page } = await start();
      await page.keyboard.insertText('half a thought');
      await page.keyboard.press('Control+C');
      // Cleared once the host has said nothing was running (a round trip, slower on a loaded machine).
      await expect.poll(() => value(page)).toBe('');
      await page.keyboard.press('Control+C');
      await expect
        .poll(() => page.locator('#status').innerText())
        .toContain('Press Ctrl+C again to end this conversation.');
      await page.keyboard.press('Control+C');
      await expect.poll(() => page.locator('#status').innerText()).toBe('This conversation has ended.');
      const served = await Promise.race([
        web.exited,
        new Promise((r) => setTimeout(() => r('serving'), 300)),
      ]);
      expect(served).toBe('serving');
    });

    it('Ctrl+C with a selection in the transcript copies it and cancels nothing', async () => {
      const { fake, page } = await start();
      fake.reply(openaiReply.text(['copyable-word here']));
      await send(page, 'hi');
      await waitForTranscript(page, /copyable-word here/);
      const box = (await page.locator('.xterm-rows > div', { hasText: 'copyable-word here' }).boundingBox())!;
      await page.mouse.dblclick(box.x + 30, box.y + box.height / 2); // selects the word, as a user would
      await page.locator('#prompt').focus();
      await page.keyboard.press('Control+C');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/copyable/);
      expect((await transcriptLines(page)).join('\n')).not.toContain('Response cancelled.');
    });

    it('Ctrl+V pastes several lines as one message; Ctrl+L clears the screen but not the context', async () => {
      const { fake, page } = await start();
      fake.reply(openaiReply.text(['first answer']), openaiReply.text(['second answer']));
      await page.evaluate(() => navigator.clipboard.writeText('line one\nline two'));
      await page.locator('#prompt').focus();
      await page.keyboard.press('Control+V');
      expect(await value(page)).toBe('line one\nline two');
      await page.keyboard.press('Enter');
      await waitForTranscript(page, /first answer/);
      expect(fake.requests[0]!.body.messages.at(-1).content).toBe('line one\nline two');
      await expect.poll(() => page.locator('#status').innerText()).toContain('ready');
      await page.keyboard.press('Control+L');
      // The screen is cleared; the scrollback keeps what was on it.
      await expect.poll(async () => (await visibleLines(page)).join('').includes('first answer')).toBe(false);
      expect((await transcriptLines(page)).join('\n')).toContain('first answer');
      await send(page, 'and then?');
      await waitForTranscript(page, /second answer/);
      const contents = fake.requests[1]!.body.messages.map((m: { content: string }) => m.content);
      expect(contents).toContain('first answer');
    });

    it('Shift+Enter is a line break, Enter on an empty prompt sends nothing', async () => {
      const { fake, page } = await start();
      await page.keyboard.press('Enter');
      await page.keyboard.insertText('a');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.insertText('b');
      expect(await value(page)).toBe('a\nb');
      await page.waitForTimeout(100);
      expect(fake.requests).toHaveLength(0);
    });

    it('the prompt gets its focus back after a click on the transcript, and keeps it after a submit', async () => {
      const { fake, page } = await start();
      fake.reply(openaiReply.text(['ok']));
      await page.locator('#transcript').click({ position: { x: 300, y: 200 } });
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('prompt');
      await send(page, 'x');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('prompt');
    });
  },
);

describe.skipIf(NO_BROWSER)(
  `canary: xterm.js's own input still drops syllables (#6089)${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`,
  () => {
    // Our prompt is a native textarea because xterm's input loses the last syllable of a fast Korean burst followed by
    // a non-IME key. When an xterm.js upgrade fixes that, this test fails: then reconsider using xterm's own input.
    it('a burst of 알겠습니다 + "." through xterm.js onData loses a syllable at least once in 20 runs', async () => {
      const browser = await launchChromium();
      cleanups.push(() => browser.close());
      const page = await browser.newPage();
      const xtermJs = readFileSync(path.join(root, 'node_modules/@xterm/xterm/lib/xterm.js'), 'utf8');
      const xtermCss = readFileSync(path.join(root, 'node_modules/@xterm/xterm/css/xterm.css'), 'utf8');
      await page.route('http://canary.invalid/**', (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><style>${xtermCss}</style><script>${xtermJs}</script><div id="t"></div><script>
          const term = new Terminal(); term.open(document.getElementById('t')); window.data = '';
          term.onData((d) => (window.data += d)); term.focus();</script>`,
        }),
      );
      await page.goto('http://canary.invalid/');
      const cdp = await page.context().newCDPSession(page);
      const forms = [
        ['ㅇ', '아', '알'],
        ['ㄱ', '게', '겠'],
        ['ㅅ', '스', '습'],
        ['ㄴ', '니'],
        ['ㄷ', '다'],
      ];
      let dropped = 0;
      for (let run = 0; run < 20; run++) {
        await page.evaluate(() => ((window as unknown as { data: string }).data = ''));
        const steps: Promise<unknown>[] = [];
        for (const syllable of forms) {
          for (const form of syllable)
            steps.push(
              cdp.send('Input.imeSetComposition', {
                text: form,
                selectionStart: form.length,
                selectionEnd: form.length,
              }),
            );
          steps.push(cdp.send('Input.insertText', { text: syllable.at(-1)! }));
        }
        steps.push(
          cdp.send('Input.dispatchKeyEvent', {
            type: 'keyDown',
            key: '.',
            code: 'Period',
            windowsVirtualKeyCode: 190,
            text: '.',
          }),
        );
        await Promise.all(steps);
        await page.waitForTimeout(60); // xterm emits committed text from setTimeout(0)
        const data = await page.evaluate(() => (window as unknown as { data: string }).data);
        if (data !== '알겠습니다.') dropped++;
      }
      expect(dropped, 'xterm.js #6089 no longer reproduces: an upgrade may have fixed it').toBeGreaterThan(0);
    });
  },
);
