import path from 'node:path';
import { expect, it } from 'vitest';
import { openaiReply } from '../../fakes/openai-fake.js';
import { useTempDir } from '../../helpers/temp-home.js';
import { describeInChromium, openWindow, send, waitForTranscript } from '../../helpers/web.js';

// The transcript's rows are hidden from assistive technology (a grid of fragments); what a screen reader reads is
// the message log: one labelled article per finished message, in a polite live region. Read here through
// Chromium's accessibility tree (roles and accessible names), as a reader would find them.
const tempDir = useTempDir('hac-web-');

describeInChromium('the window for a screen reader', ({ browser, cleanups }) => {
  it('a-finished-answer-is-in-the-accessibility-tree-as-one-message-and-never-token-by-token', async () => {
    const { fake, page } = await openWindow(browser(), tempDir(), cleanups, { config: { markdown: true } });
    const log = page.getByRole('log', { name: 'Messages' });
    await expect.poll(() => log.getAttribute('aria-live')).toBe('polite');
    fake.reply(
      openaiReply.thinking(
        ['The user asks ', 'about Korea.'],
        ['The capital of ', '**Korea** is ', 'Seoul.'],
      ),
    );
    // Every change a reader would hear: whole articles added, never text growing inside one.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { logChanges: string[] }).logChanges = seen;
      new MutationObserver((records) => {
        for (const record of records)
          seen.push(record.type === 'childList' ? `added ${record.addedNodes.length}` : record.type);
      }).observe(document.getElementById('messages')!, {
        childList: true,
        subtree: true,
        characterData: true,
      });
    });
    await send(page, 'What is the capital of Korea?');
    await waitForTranscript(page, /Seoul\./);
    const answer = log.getByRole('article', { name: 'Answer' });
    await expect.poll(() => answer.textContent()).toBe('The capital of Korea is Seoul.');
    expect(await answer.locator('strong').textContent()).toBe('Korea'); // its Markdown as HTML, not read out
    expect(await log.getByRole('article', { name: 'You' }).textContent()).toBe(
      'What is the capital of Korea?',
    );
    expect(await log.getByRole('article', { name: 'Thinking' }).textContent()).toBe(
      'The user asks about Korea.',
    );
    // One article per message, in order; the grid of rows is not what a reader gets.
    expect(
      await log.getByRole('article').evaluateAll((all) => all.map((a) => a.getAttribute('aria-label'))),
    ).toEqual(['You', 'Thinking', 'Answer']);
    expect(await page.evaluate(() => (window as unknown as { logChanges: string[] }).logChanges)).toEqual([
      'added 1',
      'added 1',
      'added 1',
    ]);
    // Chromium's own accessibility tree (what a screen reader is given) holds the answer as text, in the article.
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: { nodeId: string; parentId?: string; role?: { value: string }; name?: { value: string } }[];
    };
    const byId = new Map(nodes.map((node) => [node.nodeId, node]));
    const spoken = nodes.find(
      (node) => node.role?.value === 'StaticText' && node.name?.value === 'The capital of ',
    );
    const ancestors: string[] = [];
    for (let at = spoken; at; at = at.parentId ? byId.get(at.parentId) : undefined)
      ancestors.push(`${at.role?.value ?? ''}:${at.name?.value ?? ''}`);
    expect(ancestors).toContain('article:Answer');
    expect(ancestors).toContain('log:Messages');
    expect(await page.locator('.xterm-rows').getAttribute('aria-hidden')).toBe('true');
    // The message's menu button is named in words, not by its glyph.
    await expect.poll(() => page.getByRole('button', { name: 'Message actions' }).count()).toBe(1);
    // Not drawn on screen: it takes no room and covers nothing.
    const box = await log.boundingBox();
    expect((box?.width ?? 0) * (box?.height ?? 0)).toBeLessThanOrEqual(1);
  });

  it.each(['dark', 'light'] as const)(
    'dim-text-in-the-transcript-reads-at-4.5-to-1-in-the-%s-theme',
    async (scheme) => {
      const { fake, page } = await openWindow(browser(), tempDir(), cleanups, {}, { colorScheme: scheme });
      fake.reply(openaiReply.thinking(['Weighing it up.'], ['Done.']));
      await send(page, 'think');
      await waitForTranscript(page, /Done\./);
      const ratios = await page.evaluate(() => {
        const rgb = (css: string) =>
          css
            .match(/\d+(\.\d+)?/g)!
            .slice(0, 3)
            .map(Number);
        const luminance = (css: string) => {
          const [r, g, b] = rgb(css).map((v) => {
            const c = v / 255;
            return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
        };
        const background = luminance(getComputedStyle(document.body).backgroundColor);
        return [...document.querySelectorAll('.xterm-rows .xterm-dim')]
          .filter((span) => span.textContent?.trim())
          .map((span) => {
            const text = luminance(getComputedStyle(span).color);
            const [light, dark] = [text, background].sort((a, b) => b - a);
            return (light! + 0.05) / (dark! + 0.05);
          });
      });
      // The thinking and the notices around it are dim; every one of them is readable.
      expect(ratios.length).toBeGreaterThan(0);
      expect(Math.min(...ratios)).toBeGreaterThanOrEqual(4.5);
    },
  );

  it('an-answer-is-read-as-headings-lists-a-table-with-header-cells-and-labelled-code-and-untrusted-html-is-text', async () => {
    const { fake, page } = await openWindow(browser(), tempDir(), cleanups, { config: { markdown: true } });
    const answer = [
      '# Heading One',
      '',
      'Some **bold** words and [a link](https://example.com/docs) and [a trap](javascript:alert(1)).',
      '',
      '- first item',
      '- second item',
      '',
      '| 이름 | Value | 説明 |',
      '|---|---|---|',
      '| 서울 | 10 | 首都 |',
      '',
      '```python',
      'print("hi")',
      '```',
      '',
      '<img src=x onerror="document.title=\'pwned\'"> \x1b[2JScreen cleared?',
    ].join('\n');
    fake.reply(openaiReply.text([answer]));
    await send(page, 'show me everything');
    await waitForTranscript(page, /Screen cleared\?/);
    const article = page.getByRole('log', { name: 'Messages' }).getByRole('article', { name: 'Answer' });
    await expect.poll(() => article.count()).toBe(1);
    expect(await article.getByRole('heading', { level: 1 }).textContent()).toBe('Heading One');
    expect(await article.getByRole('listitem').allTextContents()).toEqual(['first item', 'second item']);
    expect(await article.getByRole('columnheader').allTextContents()).toEqual(['이름', 'Value', '説明']);
    expect(await article.getByRole('cell').allTextContents()).toEqual(['서울', '10', '首都']);
    expect(await article.getByRole('group', { name: 'Code, python' }).textContent()).toBe('print("hi")');
    expect(
      await article.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
    ).toEqual(['https://example.com/docs']);
    // Raw HTML is text, and nothing in it ran; an escape sequence is named, as on screen.
    expect(await article.locator('img').count()).toBe(0);
    expect(await page.title()).not.toBe('pwned');
    const text = (await article.textContent())!;
    expect(text).toContain('<img src=x onerror=');
    expect(text).toContain('\\x1b[2JScreen cleared?');
  });

  it('a-very-long-answer-is-given-to-the-reader-in-its-first-20000-characters-with-what-remains-said', async () => {
    const { fake, page } = await openWindow(browser(), tempDir(), cleanups, { config: { markdown: false } });
    const long = 'word '.repeat(6_000).trim(); // 29,999 characters
    fake.reply(openaiReply.text([long]));
    await send(page, 'long');
    const answer = page.getByRole('log', { name: 'Messages' }).getByRole('article', { name: 'Answer' });
    await expect.poll(() => answer.count()).toBe(1);
    expect(await answer.textContent()).toBe(
      `${long.slice(0, 20_000)} … (9,999 more characters, in the transcript and the session file)`,
    );
  });

  it('the-keyboard-alone-reaches-every-button-by-name-and-esc-comes-back-to-the-prompt', async () => {
    const { fake, page } = await openWindow(browser(), tempDir(), cleanups, { config: { markdown: false } });
    fake.reply(openaiReply.text(['Done.']));
    await send(page, 'hello');
    await waitForTranscript(page, /Done\./);
    await page.waitForFunction(() => document.body.dataset.state !== 'working');
    // From an empty prompt, Tab walks the page's controls and comes back round to the prompt.
    const focused = () =>
      page.evaluate(() => {
        const at = document.activeElement as HTMLElement;
        const name = at.getAttribute('aria-label') ?? at.textContent?.trim() ?? '';
        const box = at.getBoundingClientRect();
        const ring = getComputedStyle(at).outlineStyle;
        return { id: at.id, tag: at.tagName, name, visible: box.width > 1 && box.height > 1, ring };
      });
    const walked: Awaited<ReturnType<typeof focused>>[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      const at = await focused();
      if (at.id === 'prompt') break;
      walked.push(at);
    }
    expect(walked.map((at) => at.name)).toEqual(
      expect.arrayContaining(['Sessions', 'Attach a picture', 'Message actions']),
    );
    // Only visible, named buttons, each with a focus ring: never xterm's hidden input or the page itself.
    for (const at of walked) {
      expect(at).toMatchObject({ tag: 'BUTTON', visible: true });
      expect(at.name).not.toBe('');
      expect(at.ring).not.toBe('none');
    }
    expect((await focused()).id).toBe('prompt');
    // Esc from a button brings the keyboard back to the prompt; Tab on a typed line still completes it.
    await page.keyboard.press('Shift+Tab');
    expect((await focused()).id).not.toBe('prompt');
    await page.keyboard.press('Escape');
    expect((await focused()).id).toBe('prompt');
    // During an answer, Esc from a button cancels it, as it does at the prompt.
    fake.reply(openaiReply.text(['partial answer'], { end: 'stall' }));
    await send(page, 'stall');
    await waitForTranscript(page, /partial answer/);
    await page.keyboard.press('Shift+Tab');
    expect((await focused()).id).not.toBe('prompt');
    await page.keyboard.press('Escape');
    await waitForTranscript(page, /Response cancelled\./);
    expect((await focused()).id).toBe('prompt');
    await page.waitForFunction(() => document.body.dataset.state !== 'working');
    await page.keyboard.type('/hel');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.locator('#prompt').inputValue()).toBe('/help ');
    expect((await focused()).id).toBe('prompt');
  });

  it('a-messages-menu-is-a-menu-the-arrows-walk-esc-closes-back-to-its-button-and-enter-chooses', async () => {
    const { fake, page } = await openWindow(browser(), tempDir(), cleanups, { config: { markdown: false } });
    fake.reply(openaiReply.text(['First answer.']));
    await send(page, 'my first question');
    await waitForTranscript(page, /First answer\./);
    await page.waitForFunction(() => document.body.dataset.state !== 'working');
    const focused = () =>
      page.evaluate(() => {
        const at = document.activeElement!;
        return `${at.getAttribute('role') ?? at.tagName}:${at.getAttribute('aria-label') ?? at.textContent}`;
      });
    const opener = page.getByRole('button', { name: 'Message actions' });
    // From the prompt with the keyboard only: Shift+Tab reaches the message's button.
    for (let i = 0; i < 6 && (await focused()) !== 'BUTTON:Message actions'; i++)
      await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('BUTTON:Message actions');
    expect(await opener.getAttribute('aria-haspopup')).toBe('menu');
    expect(await opener.getAttribute('aria-expanded')).not.toBe('true');
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Message actions' });
    await menu.waitFor();
    expect(await opener.getAttribute('aria-expanded')).toBe('true');
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Ask again', 'Edit', 'Take back']);
    // It opens on its first item; the arrows go round, Home and End to either end.
    const walk: string[] = [await focused()];
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowUp', 'End', 'Home']) {
      await page.keyboard.press(key);
      walk.push(await focused());
    }
    expect(walk).toEqual(
      ['Ask again', 'Edit', 'Take back', 'Ask again', 'Take back', 'Take back', 'Ask again'].map(
        (item) => `menuitem:${item}`,
      ),
    );
    // The menu is one stop: Tab does not walk its items, and the window's Tab does not leave it open.
    expect(await menu.getByRole('menuitem').evaluateAll((items) => items.map((i) => i.tabIndex))).toEqual([
      -1, -1, -1,
    ]);
    // Esc closes it back to its button (not to the prompt, which is where Esc from a button goes).
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    expect(await focused()).toBe('BUTTON:Message actions');
    expect(await opener.getAttribute('aria-expanded')).toBe('false');
    // Tab closes it too; then Space opens it, and Enter chooses: Edit puts the message back in the prompt.
    await page.keyboard.press('Space');
    await menu.waitFor();
    await page.keyboard.press('Tab');
    await menu.waitFor({ state: 'hidden' });
    expect(await focused()).toBe('BUTTON:Message actions');
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#prompt').inputValue()).toBe('my first question');
    expect(await focused()).toBe('TEXTAREA:Message, command or reply');
    // A message already taken back says so, and its item is there for a reader though it does nothing.
    await opener.click();
    const gone = menu.getByRole('menuitem', { name: 'Already taken back' });
    await gone.waitFor();
    expect(await gone.getAttribute('aria-disabled')).toBe('true');
  });

  it('a-tool-questions-buttons-are-reached-from-the-prompt-with-shift-tab-and-answered-with-space', async () => {
    const askServer = path.resolve(import.meta.dirname, '../../fixtures/mcp/ask-server.mjs');
    const { fake, page } = await openWindow(browser(), tempDir(), cleanups, {
      config: { markdown: false, toolCallMode: 'manual' },
      servers: { ask: { command: process.execPath, args: [askServer] } },
    });
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'ask__book_table', arguments: {} }]),
      openaiReply.text(['Not booked.']),
    );
    await send(page, 'book a table');
    await page.locator('#choices button').first().waitFor();
    expect(await page.getByRole('group', { name: 'Answers to the question' }).isVisible()).toBe(true);
    // The answers sit just before the prompt: Shift+Tab walks back through them, and Space answers.
    const walked: string[] = [];
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Shift+Tab');
      walked.push(await page.evaluate(() => document.activeElement!.textContent ?? ''));
    }
    expect(walked).toEqual(['Always', 'No', 'Yes']);
    // A reader hears what is to be called and the question, in the transcript's words, before answering.
    const log = page.getByRole('log', { name: 'Messages' });
    const call = log.getByRole('article', { name: 'Tool call' });
    expect(await call.locator('p').allTextContents()).toEqual([
      'MCP server: ask',
      'Tool: book_table: Books a table; asks the user for the details.',
      'Arguments:',
      '  {}',
    ]);
    expect(await log.getByRole('article', { name: 'Question' }).textContent()).toBe('Call now? (Y/N):');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await waitForTranscript(page, /MCP call cancelled by user\./);
    await expect
      .poll(() => log.getByRole('article', { name: 'Notice' }).allTextContents())
      .toContain('MCP call cancelled by user.');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('prompt');
  });

  it('a-stopped-answer-is-read-as-far-as-it-came-then-that-it-was-cancelled', async () => {
    const { fake, page } = await openWindow(browser(), tempDir(), cleanups, { config: { markdown: false } });
    fake.reply(openaiReply.text(['서울은 한국의 수도입니다。', '東京は日本の首都です。'], { end: 'stall' }));
    await send(page, '수도는?');
    await waitForTranscript(page, /東京は日本の首都です。/);
    await page.keyboard.press('Escape');
    await waitForTranscript(page, /Response cancelled\./);
    const log = page.getByRole('log', { name: 'Messages' });
    await expect
      .poll(() =>
        log
          .getByRole('article')
          .evaluateAll((all) => all.map((a) => `${a.getAttribute('aria-label')}: ${a.textContent}`)),
      )
      .toEqual([
        'You: 수도는?',
        'Answer: 서울은 한국의 수도입니다。東京は日本の首都です。',
        'Notice: Response cancelled.',
      ]);
  });

  it('help-lists-the-windows-keys-after-the-commands', async () => {
    const { page } = await openWindow(browser(), tempDir(), cleanups);
    await send(page, '/help');
    const text = await waitForTranscript(page, /Up \/ Down in a menu/);
    const lines = text.split('\n');
    const keys = lines.findIndex((line) => line === 'Keys:');
    expect(keys).toBeGreaterThan(lines.findIndex((line) => line.includes('/exit')));
    for (const key of ['Tab', 'Esc', 'Ctrl+K (Cmd+K on a Mac)', 'Ctrl+L', 'PageUp / PageDown'])
      expect(lines.slice(keys).some((line) => line.startsWith(`  ${key} `))).toBe(true);
    // A reader gets the same list, a paragraph a line, from the message log.
    const output = page.getByRole('log', { name: 'Messages' }).getByRole('article', { name: 'Output' });
    const said = await output.locator('p').allTextContents();
    expect(said[0]).toMatch(/^\/help +Show the commands\.$/);
    expect(said).toContain('Keys:');
    expect(said.length).toBeGreaterThan(30);
  });

  it('nothing-moves-by-itself-no-animation-no-smooth-scrolling-no-blinking-cursor', async () => {
    const { fake, page } = await openWindow(browser(), tempDir(), cleanups, {}, { reducedMotion: 'reduce' });
    fake.reply(openaiReply.text(['Still.']));
    await send(page, 'hello');
    await waitForTranscript(page, /Still\./);
    const motion = await page.evaluate(() => ({
      animations: document.getAnimations().length,
      smooth: [...document.querySelectorAll('*')].filter(
        (e) => getComputedStyle(e).scrollBehavior === 'smooth',
      ).length,
      blinking: document.querySelectorAll('.xterm-cursor-blink').length,
    }));
    expect(motion).toEqual({ animations: 0, smooth: 0, blinking: 0 });
  });

  it('a-reload-rebuilds-the-log-without-announcing-it-again', async () => {
    const { fake, page } = await openWindow(browser(), tempDir(), cleanups, { config: { markdown: false } });
    fake.reply(openaiReply.text(['First answer.']));
    await send(page, 'one');
    await waitForTranscript(page, /First answer\./);
    await page.reload();
    await page.waitForFunction(() => document.activeElement?.id === 'prompt');
    const log = page.getByRole('log', { name: 'Messages' });
    await expect.poll(() => log.getByRole('article', { name: 'Answer' }).count()).toBe(1);
    await expect.poll(() => log.getAttribute('aria-live')).toBe('polite');
    expect(await log.getByRole('article', { name: 'Answer' }).textContent()).toBe('First answer.');
  });
});
