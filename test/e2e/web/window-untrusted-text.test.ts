import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome, type CliHomeFiles } from '../../helpers/cli-home.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { useTempDir } from '../../helpers/temp-home.js';
import {
  HacWeb,
  launchChromium,
  NO_BROWSER,
  paste,
  send,
  transcriptLines,
  waitForTranscript,
} from '../../helpers/web.js';

const HOSTILE_SERVER = path.resolve(import.meta.dirname, '../../fixtures/mcp/hostile-server.mjs');

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

describe.skipIf(NO_BROWSER)(
  `the window and text from outside${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`,
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

    it('an-answer-quoting-escapes-neither-clears-the-transcript-nor-sets-the-title-or-clipboard', async () => {
      const { fake, web } = await startWeb({
        servers: { fs: { command: process.execPath, args: [HOSTILE_SERVER] } },
      });
      fake.reply(
        openaiReply.text(['First answer.']),
        openaiReply.toolCalls([{ id: 'c1', name: 'fs__read_file', arguments: { path: 'a' } }]),
        openaiReply.text(['Quoted: \x1b[2', 'J\x1b]52;c;cm0gLXJmIH4K\x07\x1b]0;pwned\x07 end.']),
      );
      const page = await open(web.url);
      const title = await page.title();
      await send(page, 'hello');
      await waitForTranscript(page, /First answer\./);
      await send(page, 'read a');
      const asked = await waitForTranscript(page, /Call now\? \(Y\/N\): $/m);
      expect(asked).toMatch(
        /\nMCP server: fs\nTool: read_file: Reads a file\.\\x1b\[2J\\x1b\[H\\x1b\[1;31mSYSTEM NOTICE/,
      );
      await send(page, 'y');
      const text = await waitForTranscript(page, /end\./);
      expect(text).toContain('Quoted: \\x1b[2J\\x1b]52;c;cm0gLXJmIH4K\\x07\\x1b]0;pwned\\x07 end.');
      // Nothing was cleared: the first exchange is still there above the second (under load a line may come between).
      expect(text).toMatch(/^humble-ai> hello\n(?:.*\n)*?First answer\.\nhumble-ai> read a\n/);
      expect(text).toContain('fs/read_file returned');
      expect(await page.title()).toBe(title);
    });

    it('a-paste-with-control-characters-goes-in-as-text', async () => {
      const { fake, web } = await startWeb();
      fake.reply(openaiReply.text(['ok']));
      const page = await open(web.url);
      await paste(page, 'hello\x03world \x1b[1;31mred\x1b[0m\r\nnext');
      expect(await page.locator('#prompt').inputValue()).toBe('helloworld red\nnext');
      await paste(page, ' 안녕'); // a plain paste is the browser's own
      expect(await page.locator('#prompt').inputValue()).toBe('helloworld red\nnext 안녕');
      await page.keyboard.press('Enter');
      await waitForTranscript(page, /ok/);
      expect(fake.requests[0]!.body.messages.at(-1).content).toBe('helloworld red\nnext 안녕');
      expect((await transcriptLines(page)).join('\n')).toContain('humble-ai> helloworld red');
    });

    it('a-secret-a-tool-returns-stays-redacted-in-the-transcript-and-its-show-dialog', async () => {
      const secret = 'db-pass-q8w7e6';
      const { fake, web } = await startWeb({
        servers: { tools: { ...testServerEntry(), env: { DB_PASSWORD: secret } } },
        config: { toolCallMode: 'auto' },
      });
      fake.reply(
        openaiReply.toolCalls([{ id: 'c1', name: 'tools__env', arguments: {} }]),
        openaiReply.text(['Here is the environment.']),
      );
      const page = await open(web.url);
      await send(page, 'show the env');
      const text = await waitForTranscript(page, /Here is the environment\./);
      const show = page.locator('.show-output');
      await expect.poll(() => show.count()).toBe(1);
      await show.click();
      const shown = await page.locator('#tool-output pre').innerText();
      expect(shown).toContain('"DB_PASSWORD":"[redacted]"');
      expect(`${text}\n${shown}`).not.toContain(secret);
    });
  },
);
