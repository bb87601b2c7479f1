import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { openaiReply } from '../../fakes/openai-fake.js';
import { useTempDir } from '../../helpers/temp-home.js';
import { describeInChromium, openWindow, send, waitForTranscript } from '../../helpers/web.js';

// axe-core, the accessibility checker most audits run, in real Chromium through `hac web`, in both themes and in
// every state a user meets: an empty window, a Markdown answer, the message menu, a tool's Y/N question, a server's
// form (and the same form sent back with errors), what a tool returned, the session list (and a rename). Nothing may
// be found in any of them: not only nothing serious or critical (what an audit fails), but no moderate or minor
// finding either (a missing heading, content outside landmarks).
// Evaluated through the debugging protocol: the page's own policy lets no script in but its own.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const askServer = path.resolve(import.meta.dirname, '../../fixtures/mcp/ask-server.mjs');
const tempDir = useTempDir('hac-axe-');

interface Found {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** What axe finds in the page as it is now, each with the elements it found it in. */
async function audit(page: Page): Promise<Found[]> {
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    const { violations } = await axe.run();
    return violations as {
      id: string;
      impact: string;
      help: string;
      nodes: { target: string[]; failureSummary: string }[];
    }[];
  });
  return found.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`),
  }));
}

const MARKDOWN = [
  '# Seoul\n\nThe capital of **Korea** is [Seoul](https://example.com/seoul), with `10` million people.\n\n',
  '| City | People |\n| --- | --- |\n| Seoul | 9.4 M |\n| Busan | 3.3 M |\n\n',
  '> A quote.\n\n- one\n- two\n\n```python\nprint("hello")\n```\n',
];

describeInChromium('the window under axe-core', ({ browser, cleanups }) => {
  it.each(['dark', 'light'] as const)(
    'no-finding-of-any-impact-in-any-state-of-the-%s-theme',
    async (scheme) => {
      const { fake, page } = await openWindow(
        browser(),
        tempDir(),
        cleanups,
        {
          config: { markdown: true, toolCallMode: 'manual' },
          servers: { ask: { command: process.execPath, args: [askServer] } },
        },
        { colorScheme: scheme, viewport: { width: 1000, height: 700 } },
      );
      const states: Record<string, Found[]> = {};
      await page.waitForFunction(() =>
        /connected/.test(document.getElementById('welcome')!.textContent ?? ''),
      );
      states.empty = await audit(page);

      fake.reply(openaiReply.thinking(['Looking it up.'], MARKDOWN));
      await send(page, 'Tell me about Seoul');
      await waitForTranscript(page, /print\("hello"\)/);
      await page.waitForFunction(() => document.body.dataset.state !== 'working');
      states.answer = await audit(page);

      await page.getByRole('button', { name: 'Message actions' }).click();
      await page.getByRole('menu').waitFor();
      states.menu = await audit(page);
      await page.keyboard.press('Escape');

      fake.reply(
        openaiReply.toolCalls([{ id: 'c1', name: 'ask__book_table', arguments: {} }]),
        openaiReply.text(['Booked.']),
      );
      await send(page, 'book a table');
      await page.locator('#choices button').first().waitFor();
      states.question = await audit(page);

      await send(page, 'y');
      await page.locator('#server-form').waitFor({ state: 'visible' });
      states.form = await audit(page);
      // The same form sent back with what is wrong (fields marked invalid, their messages beside them).
      await page.locator('#server-form input[name="name"]').fill('Kim');
      await page.locator('#server-form input[name="party"]').fill('40');
      await page.locator('#server-form input[name="date"]').fill('2026-12-24');
      await page.locator('#server-form button[data-action="submit"]').click();
      await page.locator('#server-form [aria-invalid="true"]').first().waitFor();
      states.formErrors = await audit(page);
      await page.keyboard.press('Escape');
      await waitForTranscript(page, /Booked\./);

      // What the tool returned, in its dialog.
      await page.getByRole('button', { name: 'Show what the tool returned' }).click();
      await page.locator('#tool-output[open]').waitFor();
      states.toolOutput = await audit(page);
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Sessions' }).click();
      await page.locator('#sessions li').first().waitFor();
      states.sessions = await audit(page);
      await page
        .locator('#sessions li')
        .first()
        .getByRole('button', { name: /^Actions for / })
        .click();
      await page.getByRole('menuitem', { name: /^Rename / }).waitFor();
      states.sessionMenu = await audit(page);
      await page.getByRole('menuitem', { name: /^Rename / }).click();
      await page.getByRole('textbox', { name: 'New title' }).waitFor();
      states.rename = await audit(page);

      expect(states).toEqual({
        empty: [],
        answer: [],
        menu: [],
        question: [],
        form: [],
        formErrors: [],
        toolOutput: [],
        sessions: [],
        sessionMenu: [],
        rename: [],
      });
    },
  );
});
