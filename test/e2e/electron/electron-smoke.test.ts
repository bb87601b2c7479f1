import { createRequire } from 'node:module';
import path from 'node:path';
import { _electron } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { useTempDir } from '../../helpers/temp-home.js';

const root = path.resolve(import.meta.dirname, '../../..');

/** The Electron binary's path, or why there is none (its download is impossible on machines without internet). */
function electronBinary(): { path?: string; missing?: string } {
  try {
    return { path: createRequire(import.meta.url)('electron') as string };
  } catch (error) {
    return { missing: `the Electron binary is not installed (${(error as Error).message.split('\n')[0]})` };
  }
}
const electron = electronBinary();
const tempDir = useTempDir('hac-electron-');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.skipIf(electron.missing)(
  `the Electron app${electron.missing ? ` (skipped: ${electron.missing})` : ''}`,
  () => {
    it('opens a window with the bridge, answers a message from the fake model, under the CSP', async () => {
      const fake = await startOpenAIFake();
      cleanups.push(() => fake.close());
      const home = tempDir();
      writeCliHome(home, fake.baseUrl);
      fake.reply(openaiReply.text(['Hello from Electron.']));
      const app = await _electron.launch({
        executablePath: electron.path,
        args: [root],
        env: { ...process.env, HOME: home, HAC_HOME: path.join(home, '.humble-ai-cli') },
      });
      cleanups.push(() => app.close());
      const page = await app.firstWindow();
      expect(page.url()).toBe('app://hac/index.html');
      expect(await page.evaluate(() => Object.keys(window.hac ?? {}).sort())).toEqual([
        'complete',
        'history',
        'interrupt',
        'onEvents',
        'openLink',
        'submit',
      ]);
      expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe(
        'undefined',
      );
      await page.locator('#prompt').fill('hello');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() =>
        window.hacTranscript!.lines().join('\n').includes('Hello from Electron.'),
      );
      // The CSP is in force: no eval, no network.
      expect(
        await page.evaluate(() => {
          try {
            return eval('1');
          } catch {
            return 'blocked';
          }
        }),
      ).toBe('blocked');
    });
  },
);
