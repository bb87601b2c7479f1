import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome, type CliHomeFiles } from '../../helpers/cli-home.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { useTempDir } from '../../helpers/temp-home.js';
import { root, startListening } from '../../integration/mcp/helpers.js';
import {
  HacWeb,
  launchChromium,
  NO_BROWSER,
  send,
  transcriptLines,
  visibleLines,
  waitForTranscript,
} from '../../helpers/web.js';

// What a new user's first half hour in the window broke (issue 29), each pinned from outside: `hac web` in
// Chromium against the OpenAI fake.

const tempDir = useTempDir('hac-window-');
const oauthServer = `${root}/test/fixtures/mcp/oauth-server.mjs`;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.skipIf(NO_BROWSER)(
  `the window as people use it${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`,
  () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    async function serve(files: CliHomeFiles = {}): Promise<{ fake: OpenAIFake; web: HacWeb; home: string }> {
      const fake = await startOpenAIFake();
      cleanups.push(() => fake.close());
      const home = tempDir();
      writeCliHome(home, fake.baseUrl, files);
      const web = await HacWeb.start(home);
      cleanups.push(() => web.stop());
      return { fake, web, home };
    }

    async function open(web: HacWeb, context?: BrowserContext): Promise<Page> {
      if (!context) {
        context = await browser.newContext({ viewport: { width: 1000, height: 700 }, locale: 'ko-KR' });
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
          origin: new URL(web.url).origin,
        });
        const made = context;
        cleanups.push(() => made.close());
      }
      const page = await context.newPage();
      await page.goto(web.url);
      await page.waitForFunction(() => document.activeElement?.id === 'prompt');
      await expect.poll(() => page.locator('#status').innerText()).toContain('ready');
      return page;
    }
    const status = (page: Page) => page.locator('#status').innerText();
    const buttons = (page: Page) => page.locator('#choices button').allInnerTexts();

    it('ctrl-c-twice-on-an-empty-prompt-ends-that-tab-only-and-offers-a-new-conversation', async () => {
      const { fake, web } = await serve();
      const a = await open(web);
      const b = await open(web);
      await a.keyboard.press('Control+C');
      await a.keyboard.press('Control+C');
      await expect.poll(() => status(a)).toBe('This conversation has ended.');
      expect(await buttons(a)).toEqual(['Start a new conversation']);
      expect(await a.locator('#prompt').isDisabled()).toBe(true);
      // The other tab goes on, and so does the server.
      fake.reply(openaiReply.text(['still here']));
      await send(b, 'hello');
      await waitForTranscript(b, /still here/);
      await expect.poll(() => status(b)).toContain('ready');
      // A new conversation in the ended tab.
      await a.locator('#choices button').click();
      await a.waitForFunction(() => document.activeElement?.id === 'prompt');
      expect(await a.locator('#prompt').isDisabled()).toBe(false);
      await expect.poll(() => status(a)).toContain('ready');
      // /exit in the last open conversations ends them, not hac web: a new tab still gets a conversation.
      await send(a, '/exit');
      await send(b, '/exit');
      await expect.poll(() => status(b)).toBe('This conversation has ended.');
      const c = await open(web);
      fake.reply(openaiReply.text(['a new tab']));
      await send(c, 'hello again');
      await waitForTranscript(c, /a new tab/);
    });

    it('a-question-cancelled-with-ctrl-c-takes-its-buttons-and-placeholder-and-nothing-reaches-the-model', async () => {
      const { fake, web } = await serve({
        moreModels: [
          { name: 'other-model', provider: 'openai', apiKey: 'sk-other-123456', baseUrl: 'http://x' },
        ],
      });
      const page = await open(web);
      await send(page, '/set-model');
      await expect.poll(() => buttons(page)).toEqual(['1) gpt-test (openai) *', '2) other-model (openai)']);
      await page.keyboard.press('Control+C');
      await waitForTranscript(page, /Model selection unchanged\./);
      expect(await buttons(page)).toEqual([]);
      expect(await page.locator('#prompt').getAttribute('placeholder')).toBe('');
      await send(page, '/help');
      await waitForTranscript(page, /\/exit/);
      expect(fake.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(0);
      expect((await transcriptLines(page)).filter((l) => l.startsWith('humble-ai> '))).toEqual([
        'humble-ai> /set-model',
        'humble-ai> /help',
      ]);
    });

    it('call-now-has-yes-and-no-buttons-the-status-says-it-waits-and-escape-cancels-the-question', async () => {
      const { fake, web } = await serve({ servers: { tools: testServerEntry() } });
      const page = await open(web);
      await expect.poll(() => status(page)).toContain('MCP 1/1  ·');
      fake.reply(
        openaiReply.toolCalls([{ id: 'c1', name: 'tools__echo', arguments: { text: 'x' } }]),
        openaiReply.toolCalls([{ id: 'c2', name: 'tools__echo', arguments: { text: 'y' } }]),
        openaiReply.text(['done']),
      );
      await send(page, 'echo x');
      await waitForTranscript(page, /Call now\? \(Y\/N\): $/m);
      expect(await buttons(page)).toEqual(['Yes', 'No', 'Always']);
      expect(await status(page)).toContain('waiting for your answer (Esc cancels)');
      await page.locator('#choices button', { hasText: 'Yes' }).click();
      await waitForTranscript(page, /tools\/echo returned/);
      await waitForTranscript(page, /Call now\? \(Y\/N\): $/m);
      await page.keyboard.press('Escape');
      await waitForTranscript(page, /MCP call cancelled by user\./);
      expect(await buttons(page)).toEqual([]);
      expect(await page.locator('#prompt').getAttribute('placeholder')).toBe('');
      await expect.poll(() => status(page)).toContain('ready');
    });

    it('a-long-tool-shows-its-progress-on-one-line-that-the-result-replaces', async () => {
      const { fake, web } = await serve({
        servers: { tools: testServerEntry() },
        config: { toolCallMode: 'auto' },
      });
      const page = await open(web);
      await expect.poll(() => status(page)).toContain('MCP 1/1  ·');
      fake.reply(
        openaiReply.toolCalls([
          { id: 'c1', name: 'tools__progress', arguments: { steps: 4, intervalMs: 400 } },
        ]),
        openaiReply.text(['all copied']),
      );
      await send(page, 'copy everything');
      await waitForTranscript(page, /tools\/progress ▕██████████░░░░░░░░░░▏ 50% \(2 of 4\)$/m);
      if (process.env.HAC_SCREENSHOTS)
        await page.screenshot({ path: `${process.env.HAC_SCREENSHOTS}/desktop-progress.png` });
      const text = await waitForTranscript(page, /all copied/);
      expect(text).toContain('tools/progress returned 18 characters.');
      expect(text).not.toContain('▕');
    });

    it('a-setting-changed-in-one-tab-reaches-the-others-status-at-once-and-their-next-turn-says-so', async () => {
      const { fake, web } = await serve({
        moreModels: [
          { name: 'other-model', provider: 'openai', apiKey: 'sk-other-123456', baseUrl: 'http://x' },
        ],
      });
      const a = await open(web);
      const b = await open(web);
      expect(await status(b)).toContain('tools: manual');
      await send(a, '/set-tool-mode auto');
      await waitForTranscript(a, /Tool call mode set to auto\./);
      await expect.poll(() => status(b)).toContain('tools: auto');
      await send(a, '/set-model');
      await waitForTranscript(a, /Choice/);
      await send(a, '2');
      await waitForTranscript(a, /Active model set to other-model/);
      await expect.poll(() => status(b)).toContain('other-model (openai)');
      // b's own command is not a turn: what changed elsewhere is told before b's next message.
      await send(b, '/set-model');
      await waitForTranscript(b, /Choice/); // the page takes the reply once the question is asked
      await send(b, '0');
      await waitForTranscript(b, /Model selection unchanged\./);
      expect((await transcriptLines(b)).join('\n')).not.toContain('(in another window)');
      await send(b, 'hi');
      const text = await waitForTranscript(
        b,
        /Active model set to other-model \(openai\) \(in another window\)\./,
      );
      expect(text).toContain(
        'humble-ai> hi\nTool call mode set to auto (in another window).\nActive model set to other-model (openai) (in another window).',
      );
      expect((await transcriptLines(a)).join('\n')).not.toContain('(in another window)');
      expect(fake.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(0);
    });

    it('copy-copies-the-selection-where-the-user-made-it-and-typing-lands-in-the-prompt', async () => {
      const { fake, web } = await serve();
      const page = await open(web);
      fake.reply(openaiReply.text(['복사할 낱말 copyable-word here']));
      await send(page, 'hi');
      await waitForTranscript(page, /copyable-word here/);
      const row = page.locator('.xterm-rows > div', { hasText: 'copyable-word here' });
      const box = (await row.boundingBox())!;
      // A drag across the start of the answer, as a user selects with the mouse; then Ctrl+C straight away.
      await page.mouse.move(box.x + 1, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + 140, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      await page.keyboard.press('Control+C');
      const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
      expect(await clipboard()).toMatch(/^복사할/);
      expect((await transcriptLines(page)).join('\n')).not.toContain('Response cancelled.');
      await page.keyboard.type('typed after');
      expect(await page.locator('#prompt').inputValue()).toBe('typed after');
      // Text selected in the prompt is what Copy copies, even with a transcript selection made before it.
      await page.mouse.dblclick(box.x + 30, box.y + box.height / 2);
      await page.locator('#prompt').focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Control+C');
      expect(await clipboard()).toBe('typed after');
    });

    it('sending-scrolls-to-the-bottom-a-jump-button-shows-while-scrolled-up-and-page-keys-scroll-from-the-prompt', async () => {
      const { fake, web } = await serve();
      const page = await open(web);
      const long = Array.from({ length: 80 }, (_, i) => `line ${i + 1}`).join('\n');
      fake.reply(openaiReply.text([long]), openaiReply.text(['the second answer']));
      await send(page, 'long please');
      await waitForTranscript(page, /line 80/);
      const jump = page.locator('#jump-to-latest');
      expect(await jump.isHidden()).toBe(true);
      await page.keyboard.press('PageUp');
      await expect.poll(async () => (await visibleLines(page)).join('\n')).not.toContain('line 80');
      await expect.poll(() => jump.isVisible()).toBe(true);
      await page.keyboard.press('Control+End');
      await expect.poll(async () => (await visibleLines(page)).join('\n')).toContain('line 80');
      await expect.poll(() => jump.isHidden()).toBe(true);
      await page.keyboard.press('Control+Home');
      await expect.poll(async () => (await visibleLines(page))[0]).toContain('humble-ai> long please');
      await jump.click();
      await expect.poll(async () => (await visibleLines(page)).join('\n')).toContain('line 80');
      // Scrolled up, then a message: it and its answer come into view.
      await page.keyboard.press('Shift+PageUp');
      await expect.poll(() => jump.isVisible()).toBe(true);
      await send(page, 'and more');
      await waitForTranscript(page, /the second answer/);
      await expect.poll(async () => (await visibleLines(page)).join('\n')).toContain('the second answer');
    });

    it('a-reload-reattaches-the-tab-to-its-conversation-redraws-it-and-keeps-the-draft', async () => {
      const { fake, web } = await serve();
      const page = await open(web);
      fake.reply(openaiReply.text(['첫 번째 **답**입니다.']), openaiReply.text(['the follow-up answer']));
      await send(page, '안녕하세요');
      await waitForTranscript(page, /첫 번째 답입니다\./);
      await expect.poll(() => status(page)).toContain('ready');
      await page.keyboard.insertText('초안 draft');
      await page.reload();
      await page.waitForFunction(() => document.activeElement?.id === 'prompt');
      const text = await waitForTranscript(page, /첫 번째 답입니다\./);
      expect(text).toContain('humble-ai> 안녕하세요');
      expect(text.match(/첫 번째 답입니다/g)).toHaveLength(1); // drawn once, not twice
      expect(await page.locator('#prompt').inputValue()).toBe('초안 draft');
      // Text that reappears says where it came from, until it is changed or sent.
      await expect.poll(() => status(page)).toContain('Your unsent text is back in the prompt');
      await page.locator('#prompt').fill('');
      await expect.poll(() => status(page)).toContain('ready');
      await send(page, 'and then?');
      await waitForTranscript(page, /the follow-up answer/);
      // The model got the conversation so far: the reload lost nothing of the context.
      const contents = fake.requests[1]!.body.messages.map((m: { content: string }) => m.content);
      expect(contents).toEqual(expect.arrayContaining(['안녕하세요', '첫 번째 **답**입니다.', 'and then?']));
    });

    it('a-draft-cleared-before-a-reload-stays-cleared-and-an-old-edit-never-comes-back', async () => {
      const { fake, web } = await serve();
      const page = await open(web);
      fake.reply(
        openaiReply.text(['About //x.']),
        openaiReply.text(['A fresh answer.']),
        openaiReply.text(['Remembered.']),
      );
      await send(page, '//x edit me');
      await waitForTranscript(page, /About \/\/x\./);
      await send(page, '/edit');
      await expect.poll(() => page.locator('#prompt').inputValue()).toBe('//x edit me');
      await page.locator('#prompt').fill('');
      await send(page, 'a fresh question');
      await waitForTranscript(page, /A fresh answer\./);
      await page.reload();
      await page.waitForFunction(() => document.activeElement?.id === 'prompt');
      await waitForTranscript(page, /A fresh answer\./);
      await expect.poll(() => status(page)).toContain('ready');
      expect(await page.locator('#prompt').inputValue()).toBe('');
      await send(page, 'remember this');
      await waitForTranscript(page, /Remembered\./);
      expect(fake.requests.at(-1)!.body.messages.at(-1).content).toBe('remember this');
    });

    it('resume-in-the-window-shows-the-conversation-it-resumed', async () => {
      const { fake, web } = await serve();
      const first = await open(web);
      fake.reply(openaiReply.text(['東京は晴れです。']));
      await send(first, '東京の天気は?');
      await waitForTranscript(first, /東京は晴れです。/);
      const other = await open(web);
      await send(other, '/resume 1');
      const text = await waitForTranscript(other, /Resumed/);
      expect(text).toMatch(/humble-ai> 東京の天気は\?\n東京は晴れです。\n[^\n]*Resumed/);
    });

    it('an-empty-window-says-what-is-ready-and-where-to-start-and-a-stop-button-stops-a-streaming-answer', async () => {
      const { fake, web } = await serve();
      const page = await open(web);
      const welcome = page.locator('#welcome');
      await expect.poll(() => welcome.innerText()).toContain('Ready with gpt-test (openai); no MCP servers.');
      expect(await welcome.innerText()).toMatch(/\/help[\s\S]*\/set-model[\s\S]*\/mcp/);
      const stop = page.locator('#stop');
      expect(await stop.isHidden()).toBe(true);
      const rows = () => page.evaluate(() => window.hacTranscript!.visible().length);
      const rowsWithWelcome = await rows();
      fake.reply(openaiReply.text(['thinking about it'], { end: 'stall' }));
      await send(page, 'a long one');
      await waitForTranscript(page, /thinking about it/);
      expect(await welcome.isHidden()).toBe(true);
      // The welcome lies over the transcript: its going does not resize (and so redraw) the transcript.
      expect(await rows()).toBe(rowsWithWelcome);
      await expect.poll(() => stop.isVisible()).toBe(true);
      await stop.click();
      await waitForTranscript(page, /Response cancelled\./);
      await expect.poll(() => stop.isHidden()).toBe(true);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('prompt');
    });

    it.each(['ko-KR', 'ja-JP', 'zh-CN'])(
      'cjk-characters-fill-their-two-cells-with-no-gap-in-%s-in-the-transcript-and-the-prompt',
      async (locale) => {
        const { web } = await serve();
        const context = await browser.newContext({ viewport: { width: 1000, height: 700 }, locale });
        cleanups.push(() => context.close());
        const page = await open(web, context);
        const widths = await page.evaluate(async () => {
          await document.fonts.ready;
          const canvas = document.createElement('canvas').getContext('2d')!;
          // The page's font comes in slices by character: each is loaded before it is measured.
          const measure = async (element: Element, text: string) => {
            const style = getComputedStyle(element);
            canvas.font = `${style.fontSize} ${style.fontFamily}`;
            // One family at a time: a face that is not on this machine fails its own load only.
            const families = style.fontFamily.split(',');
            await Promise.allSettled(
              families.map((f) => document.fonts.load(`${style.fontSize} ${f}`, text)),
            );
            return canvas.measureText(text).width;
          };
          const transcript = document.querySelector('.xterm-rows')!;
          const prompt = document.querySelector('#prompt')!;
          const each = (element: Element, texts: string[]) =>
            Promise.all(texts.map((c) => measure(element, c)));
          return Promise.all(
            [transcript, prompt].map(async (element) => ({
              latin: await measure(element, 'M'),
              cjk: await each(element, ['한', 'あ', '中', '，', '、', '。']),
              // What the transcript draws in one cell: rules, code labels, bullets, quote bars, arrows.
              narrow: await each(element, ['─', '│', '•', '…', '→', 'ж', 'λ', '×', 'é', '°']),
            })),
          );
        });
        for (const { latin, cjk, narrow } of widths) {
          for (const width of cjk) expect(Math.abs(width - 2 * latin)).toBeLessThan(0.05);
          for (const width of narrow) expect(Math.abs(width - latin)).toBeLessThan(0.05);
        }
      },
    );

    it('the-users-messages-stand-out-and-each-turn-starts-at-a-visible-band', async () => {
      const { fake, web } = await serve();
      const page = await open(web);
      fake.reply(openaiReply.text(['하나']), openaiReply.text(['둘']));
      await send(page, '첫 질문');
      await waitForTranscript(page, /하나/);
      await send(page, 'second\nquestion');
      await waitForTranscript(page, /둘/);
      const lines = await transcriptLines(page);
      const row = lines.indexOf('humble-ai> 첫 질문');
      const styles = await page.evaluate((y) => window.hacTranscript!.styles(y), row);
      expect(styles.every((cell) => cell.split(':')[1]!.includes('b'))).toBe(true); // bold, glyph and words
      const answer = await page.evaluate((y) => window.hacTranscript!.styles(y), lines.indexOf('하나'));
      expect(answer.some((cell) => cell.split(':')[1]!.includes('b'))).toBe(false);
      // One band per message, as tall as the message (the second has two lines).
      const bands = page.locator('.user-message');
      await expect.poll(() => bands.count()).toBe(2);
      const [first, second] = [(await bands.nth(0).boundingBox())!, (await bands.nth(1).boundingBox())!];
      expect(Math.round(second.height / first.height)).toBe(2);
      // Each band lies on its message's own row, not on the lines written after it.
      const mine = (await page
        .locator('.xterm-rows > div', { hasText: 'humble-ai> 첫 질문' })
        .boundingBox())!;
      expect(Math.abs(first.y - mine.y)).toBeLessThan(mine.height / 2);
      const next = (await page.locator('.xterm-rows > div', { hasText: 'humble-ai> second' }).boundingBox())!;
      expect(Math.abs(second.y - next.y)).toBeLessThan(next.height / 2);
      // Drawn again at once after a reload (everything written in one go): the bands still lie on their rows.
      await page.reload();
      await waitForTranscript(page, /둘/);
      await expect.poll(() => bands.count()).toBe(2);
      const redrawn = (await bands.nth(0).boundingBox())!;
      const again = (await page
        .locator('.xterm-rows > div', { hasText: 'humble-ai> 첫 질문' })
        .boundingBox())!;
      expect(Math.abs(redrawn.y - again.y)).toBeLessThan(again.height / 2);
    });

    it('a-table-in-an-answer-is-drawn-with-box-lines-its-cjk-columns-lined-up', async () => {
      const { fake, web } = await serve();
      const page = await open(web);
      const table = '| 都市 | 気温 |\n|---|--:|\n| 東京 | 12 |\n| Seoul | 3 |\nDone.';
      fake.reply(openaiReply.text(table.match(/[\s\S]{1,4}/g) ?? []));
      await send(page, 'weather');
      const text = await waitForTranscript(page, /Done\./);
      expect(text).toContain(
        [
          '┌───────┬──────┐',
          '│ 都市  │ 気温 │',
          '├───────┼──────┤',
          '│ 東京  │   12 │',
          '│ Seoul │    3 │',
          '└───────┴──────┘',
          'Done.',
        ].join('\n'),
      );
    });

    it('each-code-block-has-a-copy-button-that-copies-the-code-as-written', async () => {
      const { fake, web } = await serve();
      const page = await open(web);
      const code = 'const 인사 = "안녕";\nconsole.log(`${인사}, 世界`);';
      const answer = `Run this:\n\n\`\`\`js\n${code}\n\`\`\`\n\nand this:\n\n\`\`\`sh\nls -la\n\`\`\``;
      fake.reply(openaiReply.text(answer.match(/[\s\S]{1,5}/g) ?? []));
      await send(page, 'code please');
      await waitForTranscript(page, /ls -la/);
      const buttons = page.locator('.copy-code');
      await expect.poll(() => buttons.count()).toBe(2);
      // The first button sits on the first block's label line.
      const label = (await page.locator('.xterm-rows > div', { hasText: '─── js' }).boundingBox())!;
      const first = (await buttons.nth(0).boundingBox())!;
      expect(Math.abs(first.y + first.height / 2 - (label.y + label.height / 2))).toBeLessThan(label.height);
      await buttons.nth(0).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
      await buttons.nth(1).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('ls -la');
      expect((await transcriptLines(page)).join('\n')).not.toContain('7717');
    });

    it('a-tool-results-line-has-a-show-button-that-opens-what-the-tool-returned', async () => {
      const { fake, web } = await serve({
        servers: { tools: testServerEntry() },
        config: { toolCallMode: 'auto' },
      });
      const page = await open(web);
      await expect.poll(() => status(page)).toContain('MCP 1/1');
      fake.reply(
        openaiReply.toolCalls([{ id: 'c1', name: 'tools__echo', arguments: { text: '도구 결과 result' } }]),
        openaiReply.text(['It echoed.']),
      );
      await send(page, 'echo it');
      await waitForTranscript(page, /It echoed\./);
      const show = page.locator('.show-output');
      await expect.poll(() => show.count()).toBe(1);
      await show.click();
      const dialog = page.locator('#tool-output');
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(await dialog.locator('h2').innerText()).toMatch(/^tools\/echo returned \d+ characters\.$/);
      expect(await dialog.locator('pre').innerText()).toContain('도구 결과 result');
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.isVisible()).toBe(false);
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('prompt');
    });

    it('an-answer-ending-with-a-fence-and-no-line-break-leaves-the-next-answers-markdown', async () => {
      const { fake, web } = await serve();
      const page = await open(web);
      fake.reply(
        openaiReply.text(['Run:\n```bash\nls', ' -la\n``', '`']),
        openaiReply.text(['# 제목\n**굵게** 쓴 ', '글입니다.']),
        openaiReply.text(['The end, no newline']),
        openaiReply.text(['## 見出し\nok']),
      );
      for (const [question, last] of [
        ['one', /ls -la/],
        ['two', /글입니다\./],
        ['three', /no newline/],
        ['four', /^ok$/m],
      ] as const) {
        await send(page, question);
        await waitForTranscript(page, last);
        await expect.poll(() => status(page)).toContain('ready');
      }
      const text = (await transcriptLines(page)).join('\n');
      expect(text).not.toMatch(/```|\*\*|^#/m);
      expect(text).toContain('humble-ai> two\nWaiting for response...\n제목\n굵게 쓴 글입니다.');
      expect(text).toContain('The end, no newline\nhumble-ai> four\nWaiting for response...\n見出し\nok');
      const lines = await transcriptLines(page);
      const heading = await page.evaluate((y) => window.hacTranscript!.styles(y), lines.indexOf('제목'));
      expect(heading.every((cell) => cell.endsWith(':bu'))).toBe(true); // a heading, not code colours
    });

    it('prose-breaks-between-words-cjk-between-characters-and-is-wrapped-again-when-the-window-narrows', async () => {
      const { fake, web } = await serve();
      const page = await open(web);
      const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
      const korean = '한국어 문장은 이렇게 길게 이어져서 창의 너비를 넘어가면 다음 줄로 넘어가야 합니다. '
        .repeat(3)
        .trim();
      fake.reply(openaiReply.text([...(words.match(/[\s\S]{1,6}/g) ?? []), '\n\n', korean]));
      await send(page, 'long');
      await waitForTranscript(page, /넘어가야 합니다\.$/m);
      const check = async () => {
        const cols = await page.evaluate(() => window.hacTranscript!.columns());
        const rows = (await transcriptLines(page)).filter((l) => /word\d/.test(l));
        expect(rows.length).toBeGreaterThan(1);
        for (const row of rows) {
          expect(row.length).toBeLessThanOrEqual(cols);
          expect(row.trim()).toMatch(/^(word\d+ ?)+$/); // whole words only
        }
        expect(rows.map((r) => r.trim()).join(' ')).toBe(words);
        const hangul = (await transcriptLines(page)).filter(
          (l) => /[가-힣]/.test(l) && !l.startsWith('humble'),
        );
        expect(hangul.join('').replace(/ /g, '')).toBe(korean.replace(/ /g, ''));
        return cols;
      };
      const wide = await check();
      await page.setViewportSize({ width: 560, height: 700 });
      await expect.poll(() => page.evaluate(() => window.hacTranscript!.columns())).toBeLessThan(wide);
      await page.waitForTimeout(300); // the redraw waits for the resize to settle
      await page.evaluate(() => window.hacIdle!());
      expect(await check()).toBeLessThan(wide);
    });

    it('a-models-thinking-folds-away-with-its-hide-button-and-opens-again', async () => {
      const { fake, web } = await serve();
      const page = await open(web);
      fake.reply(
        openaiReply.thinking(['Let me think', ' about 생각 this.\nSecond thought.'], ['The answer.']),
      );
      await send(page, 'think');
      await waitForTranscript(page, /The answer\./);
      const text = async () => (await transcriptLines(page)).join('\n');
      expect(await text()).toContain(
        '<<< Thinking >>>\nLet me think about 생각 this.\nSecond thought.\n<<< End Thinking >>>',
      );
      const fold = page.locator('.fold-thinking');
      await expect.poll(() => fold.innerText()).toBe('Hide');
      await fold.click();
      await expect.poll(text).toContain('<<< Thinking >>>\n<<< End Thinking >>>\nThe answer.');
      expect(await text()).not.toContain('Second thought.');
      await expect.poll(() => fold.innerText()).toBe('Show');
      await fold.click();
      await expect.poll(text).toContain('Second thought.\n<<< End Thinking >>>\nThe answer.');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('prompt');
    });

    it('mcp-login-opens-the-sign-in-page-through-the-bridge-and-the-server-turns-connected', async () => {
      const server = await startListening([oauthServer]);
      cleanups.push(() => server.stop());
      const { web } = await serve({
        servers: { hosted: { url: `http://127.0.0.1:${server.port}/mcp`, type: 'http' } },
      });
      const page = await open(web);
      await waitForTranscript(page, /MCP server "hosted" needs sign-in: \/mcp login hosted/);
      // The status line says why the server is not connected.
      await expect.poll(() => status(page)).toContain('MCP 0/1 (1 need sign-in: /mcp login)');
      // The sign-in page opens in a new tab (the bridge's link rules); the signed-in user is sent straight back.
      const [popup] = await Promise.all([
        page.context().waitForEvent('page'),
        send(page, '/mcp login hosted'),
      ]);
      await popup.waitForLoadState();
      await expect.poll(() => popup.locator('h1').innerText()).toBe('Signed in');
      expect(new URL(popup.url()).hostname).toBe('127.0.0.1');
      await waitForTranscript(page, /MCP server "hosted" is signed in and connected \(1 tool\)\./);
      await expect.poll(() => status(page)).toContain('MCP 1/1');
      if (process.env.HAC_SCREENSHOTS)
        await page.screenshot({ path: `${process.env.HAC_SCREENSHOTS}/desktop-mcp-sign-in.png` });
    });
  },
);
