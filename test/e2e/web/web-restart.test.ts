import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { useTempDir } from '../../helpers/temp-home.js';
import { HacWeb, launchChromium, NO_BROWSER, send, waitForTranscript } from '../../helpers/web.js';

// `hac web` restarted on the same port: its address's key is kept in the home, and a tab left open comes back
// by itself with its conversation.
const tempDir = useTempDir('hac-web-restart-');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A port free on 127.0.0.1 now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('hac web across a restart (R-DESK-6)', () => {
  it('keeps-its-key-in-a-0600-file-and-renews-it-with-new-token', async () => {
    const home = tempDir();
    writeCliHome(home, 'http://127.0.0.1:9/v1');
    const first = await HacWeb.start(home);
    await first.stop();
    const second = await HacWeb.start(home);
    await second.stop();
    expect(second.token).toBe(first.token);
    const file = path.join(home, '.humble-ai-cli', 'web-token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.token);
    const renewed = await HacWeb.start(home, ['--new-token']);
    cleanups.push(() => renewed.stop());
    expect(renewed.token).not.toBe(first.token);
    expect(renewed.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(file, 'utf8').trim()).toBe(renewed.token);
  });

  describe.skipIf(NO_BROWSER)(`a tab left open${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`, () => {
    it('reconnects-by-itself-after-a-restart-on-the-same-port-and-goes-on-with-its-conversation', async () => {
      const fake = await startOpenAIFake();
      cleanups.push(() => fake.close());
      const home = tempDir();
      writeCliHome(home, fake.baseUrl);
      const port = await freePort();
      let web = await HacWeb.start(home, ['--port', String(port)]);
      cleanups.push(() => web.stop());
      const browser = await launchChromium();
      cleanups.push(() => browser.close());
      const page = await browser.newPage({ viewport: { width: 1000, height: 600 } });
      await page.goto(web.url);
      await page.waitForFunction(() => document.activeElement?.id === 'prompt');
      fake.reply(openaiReply.text(['서울은 맑아요.']));
      await send(page, '서울 날씨는?');
      await waitForTranscript(page, /서울은 맑아요\./);
      await expect.poll(() => page.locator('#status').innerText()).toContain('ready');

      await web.stop();
      await expect
        .poll(() => page.locator('#status').innerText(), { timeout: 10_000 })
        .toContain('hac web has stopped');
      web = await HacWeb.start(home, ['--port', String(port)]);
      // Back by itself: the conversation from its file, and the next question goes on from it.
      await expect.poll(() => page.locator('#status').innerText(), { timeout: 15_000 }).toContain('ready');
      await page.waitForFunction(() => typeof window.hacIdle === 'function');
      await waitForTranscript(page, /humble-ai> 서울 날씨는\?\n서울은 맑아요\./);
      fake.reply(openaiReply.text(['내일도 맑아요.']));
      await send(page, '내일은?');
      await waitForTranscript(page, /내일도 맑아요\./);
      const contents = fake.requests.at(-1)!.body.messages.map((m: { content: unknown }) => m.content);
      expect(contents).toContain('서울은 맑아요.');
    });
  });
});
