import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { useTempDir } from '../../helpers/temp-home.js';
import { HacWeb, launchChromium, NO_BROWSER, send, waitForTranscript } from '../../helpers/web.js';

// `HAC_SCREENSHOTS=docs npx vitest run test/e2e/web/screenshots.test.ts` refreshes the README's pictures.
const outDir = process.env.HAC_SCREENSHOTS ? path.resolve(process.env.HAC_SCREENSHOTS) : undefined;
const tempDir = useTempDir('hac-shot-');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.skipIf(NO_BROWSER)(
  `the desktop page, pictured${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`,
  () => {
    it.each(['dark', 'light'] as const)('a real conversation in the %s theme', async (scheme) => {
      const fake = await startOpenAIFake();
      cleanups.push(() => fake.close());
      const home = tempDir();
      writeCliHome(home, fake.baseUrl, { servers: { files: testServerEntry('files on this machine') } });
      const web = await HacWeb.start(home);
      cleanups.push(() => web.stop());
      fake.reply(
        openaiReply.thinking(
          ['사용자가 인사를 했다. ', '짧게 답하자.'],
          ['안녕하세요! 무엇을 도와드릴까요? ', 'こんにちは、何でも聞いてください。'],
        ),
        openaiReply.toolCalls([
          { id: 'call_1', name: 'files__echo', arguments: { text: '日本語のテキスト', times: 2 } },
        ]),
        openaiReply.text(['도구가 "日本語のテキスト"를 두 번 돌려주었습니다. ✅']),
      );
      const browser = await launchChromium();
      cleanups.push(() => browser.close());
      const page = await browser.newPage({
        viewport: { width: 960, height: 560 },
        colorScheme: scheme,
        locale: 'ko-KR',
      });
      await page.goto(web.url);
      await page.waitForFunction(() => document.activeElement?.id === 'prompt');
      await send(page, '안녕하세요! 日本語でも大丈夫?');
      await waitForTranscript(page, /こんにちは/);
      await send(page, 'echo 日本語のテキスト twice');
      await waitForTranscript(page, /Call now\? \(Y\/N\): $/m);
      await send(page, 'y');
      await waitForTranscript(page, /두 번 돌려주었습니다/);
      await page.locator('#prompt').fill('/set-model');
      const dir = outDir ?? tempDir();
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `desktop-${scheme}.png`);
      await page.screenshot({ path: file });
      expect(statSync(file).size).toBeGreaterThan(20_000);
    });

    it.each(['dark', 'light'] as const)('a Markdown answer in the %s theme', async (scheme) => {
      const fake = await startOpenAIFake();
      cleanups.push(() => fake.close());
      const home = tempDir();
      writeCliHome(home, fake.baseUrl);
      const web = await HacWeb.start(home);
      cleanups.push(() => web.stop());
      fake.reply(
        openaiReply.text([
          '## 배포 계획 (Deploy plan)\n\n',
          'The build is **green**; the *flaky* test is ~~gone~~. Run `npm run check` first, then read the ',
          'release notes: 릴리스 노트는 길어도 단어 사이에서 줄이 바뀌고, 日本語の文は文字の間で折り返されます。\n\n',
          '1. Tag the release\n2. **Publish** to npm\n- see [the docs](https://example.com/docs)\n\n',
          '```python\ndef deploy(version: str) -> bool:\n    return publish(version)  # 東京リージョン\n```\n\n',
          '| 環境 | 지역 | 状態 |\n|---|---|:-:|\n| prod | 서울 | ✅ |\n| staging | 東京 | 準備中 |\n\n',
          '> 注意: back up `config.json` first.\n',
        ]),
      );
      const browser = await launchChromium();
      cleanups.push(() => browser.close());
      const page = await browser.newPage({
        viewport: { width: 960, height: 620 },
        colorScheme: scheme,
        locale: 'ko-KR',
      });
      await page.goto(web.url);
      await page.waitForFunction(() => document.activeElement?.id === 'prompt');
      await page.waitForTimeout(300); // the highlighter loads after the page
      await send(page, 'How do we deploy?');
      await waitForTranscript(page, /注意/);
      await page.waitForFunction(() => document.body.dataset.state === 'ready');
      const dir = outDir ?? tempDir();
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, scheme === 'dark' ? 'desktop-markdown.png' : 'desktop-markdown-light.png');
      await page.screenshot({ path: file });
      expect(statSync(file).size).toBeGreaterThan(20_000);
    });

    it.each(['light', 'dark'] as const)(
      'the first view and a question with its buttons (%s)',
      async (scheme) => {
        const fake = await startOpenAIFake();
        cleanups.push(() => fake.close());
        const home = tempDir();
        writeCliHome(home, fake.baseUrl, { servers: { files: testServerEntry('files on this machine') } });
        const web = await HacWeb.start(home);
        cleanups.push(() => web.stop());
        const browser = await launchChromium();
        cleanups.push(() => browser.close());
        const page = await browser.newPage({
          viewport: { width: 960, height: 420 },
          colorScheme: scheme,
          locale: 'ko-KR',
        });
        await page.goto(web.url);
        await page.waitForFunction(() => document.activeElement?.id === 'prompt');
        await page.locator('#welcome', { hasText: '1 of 1 MCP servers connected' }).waitFor();
        const dir = outDir ?? tempDir();
        mkdirSync(dir, { recursive: true });
        const first = path.join(dir, `desktop-start-${scheme}.png`);
        await page.screenshot({ path: first });
        fake.reply(
          openaiReply.toolCalls([{ id: 'call_1', name: 'files__echo', arguments: { text: '서울의 날씨' } }]),
        );
        await send(page, '서울 날씨를 알려줘');
        await waitForTranscript(page, /Call now\? \(Y\/N\): $/m);
        await page.locator('#choices button', { hasText: 'Yes' }).waitFor();
        const question = path.join(dir, `desktop-question-${scheme}.png`);
        await page.screenshot({ path: question });
        for (const file of [first, question]) expect(statSync(file).size).toBeGreaterThan(10_000);
      },
    );
  },
);
