import { expect, it } from 'vitest';
import { openaiReply } from '../../fakes/openai-fake.js';
import { useTempDir } from '../../helpers/temp-home.js';
import { describeInChromium, openWindow, send, waitForTranscript } from '../../helpers/web.js';

// The window for people who enlarge its text or use the system's high-contrast colours (Windows' forced colours),
// in real Chromium through `hac web`.
const tempDir = useTempDir('hac-zoom-');

describeInChromium('the window zoomed and in high contrast', ({ browser, cleanups }) => {
  it('at-200-percent-text-zoom-in-a-small-window-the-status-line-wraps-and-nothing-is-cut-or-out-of-reach', async () => {
    const { fake, page } = await openWindow(
      browser(),
      tempDir(),
      cleanups,
      {},
      { viewport: { width: 400, height: 600 } },
    );
    // Zoomed as a user zooms (Ctrl+plus): the page has 200 CSS pixels across.
    await page.evaluate(() => (document.documentElement.style.zoom = '2'));
    fake.reply(openaiReply.text(['A short answer.']));
    await send(page, 'hello');
    await waitForTranscript(page, /A short answer\./);
    // A question: what hac is doing is now the longest part of the line.
    await send(page, '/rewind 1');
    await expect
      .poll(() => page.locator('#status .status-state').innerText())
      .toBe('waiting for your answer (Esc cancels)');
    const status = await page.locator('#status').evaluate((element) => ({
      text: element.textContent,
      lines: (() => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size;
      })(),
      fits: element.scrollWidth <= element.clientWidth,
    }));
    // The model's whole name and what hac is doing, on two lines rather than cut off with an ellipsis.
    expect(status.text).toContain('gpt-test (openai)');
    expect(status.text).not.toContain('…');
    expect(status.fits).toBe(true);
    expect(status.lines).toBe(2);
    // Everything to use is on screen: the prompt, its buttons, the whole status line; nothing scrolls sideways.
    const inView = await page.evaluate(() =>
      ['prompt', 'sessions-button', 'attach', 'status'].map((id) => {
        const box = document.getElementById(id)!.getBoundingClientRect();
        return box.width > 0 && box.right <= innerWidth + 1 && box.bottom <= innerHeight + 1;
      }),
    );
    expect(inView).toEqual([true, true, true, true]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    // And it is still a place to type in.
    await send(page, '0');
    await waitForTranscript(page, /^Nothing changed\.$/m);
    fake.reply(openaiReply.text(['Still here.']));
    await send(page, 'again');
    await waitForTranscript(page, /Still here\./);
  });

  it('in-forced-colours-the-focus-ring-is-the-highlight-colour-and-a-taken-back-exchange-keeps-its-bar', async () => {
    const { fake, page } = await openWindow(browser(), tempDir(), cleanups, { config: { markdown: false } });
    await page.emulateMedia({ forcedColors: 'active' });
    fake.reply(openaiReply.text(['First.']));
    await send(page, 'one');
    await waitForTranscript(page, /First\./);
    await page.waitForFunction(() => document.body.dataset.state !== 'working');
    await page.keyboard.press('Shift+Tab');
    const ring = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.style.color = 'Highlight';
      document.body.append(probe);
      const highlight = getComputedStyle(probe).color;
      probe.remove();
      const at = getComputedStyle(document.activeElement!);
      return {
        tag: document.activeElement!.tagName,
        style: at.outlineStyle,
        colour: at.outlineColor,
        highlight,
      };
    });
    expect(ring).toMatchObject({ tag: 'BUTTON', style: 'solid' });
    expect(ring.colour).toBe(ring.highlight);
    // A taken-back exchange: the bar beside it (a shadow, which forced colours remove) is drawn as a border.
    await page.keyboard.press('Escape');
    await send(page, '/rewind 1');
    await waitForTranscript(page, /Take them back\?/);
    await send(page, '1');
    await waitForTranscript(page, /Took back the last exchange\./);
    const bar = page.locator('.taken-back').first();
    await bar.waitFor();
    expect(
      await bar.evaluate((e) => [getComputedStyle(e).borderLeftStyle, getComputedStyle(e).borderLeftWidth]),
    ).toEqual(['solid', '3px']);
  });
});
