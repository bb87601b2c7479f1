import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { HacPty, plain } from '../../helpers/pty.js';
import { replay, rowsOf } from '../../helpers/screen.js';
import { useTempDir } from '../../helpers/temp-home.js';
import { describeInChromium, openWindow, send, waitForTranscript } from '../../helpers/web.js';

// MCP Apps from the terminal: `/view <n>` serves a tool's view in a page of its own, bridged to the REPL's MCP
// connection, with the extension's own example server from the registry. The page is driven in Chromium as the
// user's browser would show it.
const root = path.resolve(import.meta.dirname, '../../..');
const basic = {
  command: process.execPath,
  args: [
    path.join(root, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js'),
    '--stdio',
  ],
};
const tempDir = useTempDir();

describeInChromium('a view opened with /view', ({ browser, cleanups }) => {
  async function start(answer = 'y') {
    const fake = await startOpenAIFake();
    cleanups.push(() => fake.close());
    const home = tempDir();
    writeCliHome(home, fake.baseUrl, { servers: { basic } });
    // The "browser": notes the address it is asked to open.
    const opened = path.join(home, 'opened.txt');
    const opener = path.join(home, 'browser.mjs');
    writeFileSync(
      opener,
      `#!${process.execPath}\nimport { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(opened)}, process.argv[2] + '\\n');\n`,
    );
    chmodSync(opener, 0o755);
    const hac = new HacPty(home, [], { BROWSER: opener });
    cleanups.push(() => hac.kill());
    await hac.waitFor('humble-ai> ');
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'basic__get-time', arguments: {} }]),
      openaiReply.text(['Here is the time.']),
    );
    hac.write('what time is it?\r');
    await hac.waitFor('Call now? (Y/N): ');
    hac.write(`${answer}\r`);
    await hac.waitFor('basic/get-time has a view: /view 1 opens it in your browser');
    await hac.waitFor('Here is the time.');
    const result = (fake.requests[1]!.body.messages as { role: string; content: string }[]).find(
      (m) => m.role === 'tool',
    )!.content;
    return { fake, hac, opened, result };
  }

  /** A REPL with the fixture's views (auto mode): the model calls `tools`, then says `answer`. */
  async function startApps(
    tools: string[],
    answer: string,
    env: Record<string, string> = {},
    serverEnv: Record<string, string> = {},
  ) {
    const fake = await startOpenAIFake();
    cleanups.push(() => fake.close());
    const home = tempDir();
    const apps = {
      command: process.execPath,
      args: [path.join(root, 'test/fixtures/mcp/app-server.mjs')],
      env: serverEnv,
    };
    writeCliHome(home, fake.baseUrl, { servers: { apps }, config: { toolCallMode: 'auto' } });
    const hac = new HacPty(home, [], { BROWSER: '/bin/true', ...env });
    cleanups.push(() => hac.kill());
    await hac.waitFor('humble-ai> ');
    fake.reply(
      openaiReply.toolCalls(
        tools.map((tool, i) => ({ id: `c${i + 1}`, name: `apps__${tool}`, arguments: {} })),
      ),
      openaiReply.text([answer]),
    );
    hac.write('show me\r');
    await hac.waitFor(answer);
    /** `/view <number>` in the REPL, and its page in the browser. */
    const open = async (number: number) => {
      const from = plain(hac.output).length;
      hac.write(`/view ${number}\r`);
      const at = await hac.waitFor(/View: apps\/\S+: http\S+/, { from });
      const page = await browser().newPage();
      cleanups.push(() => page.close());
      await page.goto(/http\S+/.exec(plain(hac.output).slice(at))![0]);
      return { page, from };
    };
    return { fake, hac, open };
  }

  it('shows-the-view-with-the-calls-result-and-its-own-calls-ask-once-through-the-repl', async () => {
    const { fake, hac, opened, result } = await start();
    const from = plain(hac.output).length;
    hac.write('/view 1\r');
    await expect.poll(() => existsSync(opened)).toBe(true);
    const url = readFileSync(opened, 'utf8').trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/view\/1\?key=[\w-]{43}$/);
    await hac.waitFor(`View: basic/get-time: ${url}`, { from });

    const page = await browser().newPage();
    cleanups.push(() => page.close());
    await page.goto(url);
    expect(await page.title()).toBe('View: basic/get-time — hac');
    const view = page.frameLocator('iframe[title="View: basic/get-time"]');
    // The view was given the call's result: the time the model was told.
    await expect.poll(() => view.locator('#server-time').innerText()).toBe(result);
    // `HAC_SCREENSHOTS=docs` refreshes the README's picture of a view.
    if (process.env.HAC_SCREENSHOTS)
      await page.screenshot({ path: path.resolve(process.env.HAC_SCREENSHOTS, 'view-page.png') });
    // A reload shows it again: the view starts over with a bridge of its own, the tool is not called again.
    const requests = fake.requests.length;
    await page.reload();
    await expect.poll(() => view.locator('#server-time').innerText()).toBe(result);
    expect(fake.requests.length).toBe(requests);

    // A button in the view calls the tool through hac: asked once in the terminal, then not again.
    const asked = () => plain(hac.output).slice(from).split('Call now? (Y/N): ').length - 1;
    await view.locator('#get-time-btn').click();
    await hac.waitFor(
      'The view of basic/get-time asks to call a tool (your answer holds while the view is open):',
      {
        from,
      },
    );
    await hac.waitFor(
      'Tool: get-time: Returns the current server time as an ISO 8601 string.\nArguments:\n  {}\n',
      {
        from,
      },
    );
    await expect.poll(asked).toBe(1);
    hac.write('y\r');
    await hac.waitFor('The view of basic/get-time called basic/get-time.', { from });
    await expect.poll(() => view.locator('#server-time').innerText()).not.toBe(result);
    await view.locator('#get-time-btn').click();
    await expect.poll(() => plain(hac.output).slice(from).split('called basic/get-time.').length - 1).toBe(2);
    expect(asked()).toBe(1);

    // Its message goes into the prompt, for the user to send; nothing is sent by itself.
    await view.locator('#send-message-btn').click();
    await hac.waitFor('humble-ai> This is message text.', { from });
    expect(fake.requests.length).toBe(requests);
    fake.reply(openaiReply.text(['Got it.']));
    hac.write('\r');
    await hac.waitFor('Got it.', { from });
    expect(fake.requests.at(-1)!.body.messages.at(-1).content).toBe('This is message text.');

    // A link it asks to open is shown and asked about first, like a server's page; no: nothing opens.
    await view.locator('#open-link-btn').click();
    await hac.waitFor('https://modelcontextprotocol.io/', { from });
    await hac.waitFor('Open this page in your browser? (Y/N): ', { from });
    hac.write('n\r');
    await hac.waitFor('Declined what MCP server "basic" asked.', { from });
    expect(readFileSync(opened, 'utf8').trim()).toBe(url);

    // On the terminal's screen, what the view did is said above the prompt, never glued to it.
    const screen = rowsOf(await replay(hac.output, 100, 80)).join('\n');
    expect(screen).toMatch(/^The view of basic\/get-time called basic\/get-time\.$/m);
    expect(screen).not.toMatch(/humble-ai> (The view|View:|MCP server)/);
  });

  it('keeps-the-view-apart-from-its-page-and-sends-its-csp-as-a-header', async () => {
    const { hac, opened } = await start();
    hac.write('/view 1\r');
    await expect.poll(() => existsSync(opened)).toBe(true);
    const url = readFileSync(opened, 'utf8').trim();
    const page = await browser().newPage();
    cleanups.push(() => page.close());
    await page.goto(url);
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    await expect.poll(() => frame.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    // Another origin: the page, its address and its key are out of the view's reach.
    expect(new URL(frame.url()).origin).not.toBe(new URL(url).origin);
    expect(frame.url()).not.toContain(new URL(url).searchParams.get('key')!);
    expect(
      await frame.evaluate(() => {
        try {
          return window.top!.document.title;
        } catch {
          return 'blocked';
        }
      }),
    ).toBe('blocked');
    const headers = (await fetch(frame.url())).headers;
    expect(headers.get('content-security-policy')).toContain("connect-src 'none'");
    // Without its key, or with another Host, neither the page nor the view is served.
    expect((await fetch(url.replace(/key=.*/, 'key=wrong'))).status).toBe(403);
    expect((await fetch(frame.url().replace(/key=.*/, 'key=wrong'))).status).toBe(403);
  });

  it('an-unknown-number-says-which-there-are', async () => {
    const { hac } = await start();
    const from = plain(hac.output).length;
    hac.write('/view 7\r');
    await hac.waitFor('There is no view 7: 1 to 1.', { from });
  });

  it('in-hac-web-the-view-is-drawn-under-its-line-goes-full-window-and-back-and-asks-in-the-window', async () => {
    const { fake, page, web } = await openWindow(browser(), tempDir(), cleanups, { servers: { basic } });
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'basic__get-time', arguments: {} }]),
      openaiReply.text(['Here is the time.']),
    );
    await send(page, 'what time is it?');
    await waitForTranscript(page, /Call now\? \(Y\/N\)/);
    await send(page, 'y');
    await waitForTranscript(
      page,
      /basic\/get-time has a view \(view 1\), shown below\n[^]*Here is the time\./,
    );
    const result = (fake.requests[1]!.body.messages as { role: string; content: string }[]).find(
      (m) => m.role === 'tool',
    )!.content;
    // In the transcript, under its line, titled; the view inside was given the call's result.
    const box = page.locator('section.inline-view[aria-label="View: basic/get-time"]');
    await expect.poll(() => box.isVisible()).toBe(true);
    const view = page.frameLocator('iframe[title="View: basic/get-time"]').frameLocator('iframe');
    await expect.poll(() => view.locator('#server-time').innerText()).toBe(result);
    const line = await page.evaluate(() => {
      const rows = [...document.querySelectorAll('.xterm-rows > div')];
      const row = rows.find((r) => r.textContent?.includes('has a view (view 1)'))!;
      return row.getBoundingClientRect().bottom;
    });
    const placed = await box.boundingBox();
    expect(Math.abs(placed!.y - line)).toBeLessThan(4); // right under its line
    // Its page is another origin, framed by this window only.
    const src = await page.locator('iframe[title="View: basic/get-time"]').getAttribute('src');
    expect(new URL(src!).origin).not.toBe(new URL(web.url).origin);
    const csp = (await fetch(src!)).headers.get('content-security-policy')!;
    expect(csp).toContain(`frame-ancestors ${new URL(web.url).origin} http://localhost:`);
    if (process.env.HAC_SCREENSHOTS)
      await page.screenshot({ path: path.resolve(process.env.HAC_SCREENSHOTS, 'view-inline.png') });

    // Full window, and Escape brings it back into the transcript.
    await box.getByRole('button', { name: 'Full window' }).click();
    await expect.poll(async () => (await box.boundingBox())!.height).toBe(page.viewportSize()!.height);
    await page.keyboard.press('Escape');
    await expect
      .poll(async () => (await box.boundingBox())!.height)
      .toBeLessThan(page.viewportSize()!.height);
    // Tab reaches the view by its title.
    await box.getByRole('button', { name: 'Full window' }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLIFrameElement).title)).toBe(
      'View: basic/get-time',
    );

    // Its own calls are asked in the window, as the model's are.
    await view.locator('#get-time-btn').click();
    await waitForTranscript(
      page,
      /The view of basic\/get-time asks to call a tool[^]*Tool: get-time[^]*Call now\? \(Y\/N\)/,
    );
    await send(page, 'y');
    await waitForTranscript(page, /The view of basic\/get-time called basic\/get-time\./);
    await expect.poll(() => view.locator('#server-time').innerText()).not.toBe(result);
    // A new width draws the transcript again: the same view stays, still under its line, not loaded again.
    const shownTime = await view.locator('#server-time').innerText();
    await page.setViewportSize({ width: 700, height: 700 });
    await expect.poll(() => page.locator('section.inline-view').count()).toBe(1);
    await page.waitForTimeout(400);
    expect(await view.locator('#server-time').innerText()).toBe(shownTime);

    // A reload draws it again under its line, from what the conversation kept: the call's first result, the tool
    // not called again (a new call would give another time).
    await page.reload();
    await expect.poll(() => view.locator('#server-time').innerText()).toBe(result);
    await expect.poll(() => box.isVisible()).toBe(true);
  });

  it('in-the-window-a-view-may-ask-to-fill-it-and-is-told-when-escape-brings-it-back', async () => {
    const apps = { command: process.execPath, args: [path.join(root, 'test/fixtures/mcp/app-server.mjs')] };
    const { fake, page } = await openWindow(browser(), tempDir(), cleanups, {
      servers: { apps },
      config: { toolCallMode: 'auto' },
    });
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'apps__fullscreen-view', arguments: {} }]),
      openaiReply.text(['A big view.']),
    );
    await send(page, 'show it big');
    await waitForTranscript(page, /A big view\./);
    const box = page.locator('section.inline-view');
    const view = page.frameLocator('iframe[title="View: apps/fullscreen-view"]').frameLocator('iframe');
    await expect.poll(() => view.locator('#state').innerText()).toBe('granted: fullscreen');
    await expect.poll(async () => (await box.boundingBox())!.height).toBe(page.viewportSize()!.height);
    await page.keyboard.press('Escape');
    await expect
      .poll(async () => (await box.boundingBox())!.height)
      .toBeLessThan(page.viewportSize()!.height);
    await expect.poll(() => view.locator('#state').innerText()).toBe('now: inline');
  });

  it('a-view-that-floods-or-never-starts-is-stopped-with-one-line-and-never-reaches-its-page', async () => {
    const { fake, hac, open } = await startApps(['flood-view', 'silent-view'], 'Two views.', {
      HAC_VIEW_START_MS: '1500',
    });
    const flooded = await open(1);
    await hac.waitFor(
      'The view of apps/flood-view was stopped: it sent more than 100 messages in a second.',
      { from: flooded.from },
    );
    await expect.poll(() => flooded.page.locator('#status').innerText()).toBe('hac has closed this view.');
    const frame = flooded.page.frameLocator('iframe');
    expect(await frame.locator('#state').innerText()).toBe('top: blocked');

    const silent = await open(2);
    await hac.waitFor('The view of apps/silent-view was stopped: it did not start within 1.5 s.', {
      from: silent.from,
    });
    await expect.poll(() => silent.page.locator('#status').innerText()).toBe('hac has closed this view.');
    // The REPL goes on.
    fake.reply(openaiReply.text(['Still here.']));
    hac.write('hello\r');
    await hac.waitFor('Still here.', { from: silent.from });
  });

  it('a-view-reaches-the-origin-it-declared-and-the-browser-blocks-any-other', async () => {
    /** A loopback server that notes each path asked of it. */
    const origin = async (asked: string[]) => {
      const server = http.createServer((req, res) => {
        asked.push(req.url!);
        res.writeHead(200, { 'content-type': 'image/svg+xml', 'access-control-allow-origin': '*' });
        res.end('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      cleanups.push(() => new Promise((resolve) => server.close(resolve)));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };
    const toDeclared: string[] = [];
    const toUndeclared: string[] = [];
    const serverEnv = {
      HAC_TEST_ALLOWED_ORIGIN: await origin(toDeclared),
      HAC_TEST_BLOCKED_ORIGIN: await origin(toUndeclared),
    };
    const { open } = await startApps(['csp-view'], 'A view.', {}, serverEnv);
    const { page } = await open(1);
    await expect
      .poll(() => page.frameLocator('iframe').locator('#state').innerText())
      .toBe('declared: picture, data; undeclared: no picture, no data');
    expect(toDeclared.sort()).toEqual(['/data', '/picture.svg']);
    expect(toUndeclared).toEqual([]);
  });

  it('a-view-that-navigates-its-own-frame-away-is-taken-away-with-one-line', async () => {
    const { hac, open } = await startApps(['wander-view'], 'A view.');
    const { page, from } = await open(1);
    await hac.waitFor('The view of apps/wander-view was stopped: it navigated away from its page.', { from });
    await expect.poll(() => page.locator('iframe').count()).toBe(0);
    await expect.poll(() => page.locator('#status').innerText()).toBe('hac has closed this view.');
  });

  it('a-view-that-opens-a-pop-up-is-refused-and-stopped-with-one-line', async () => {
    const { hac, open } = await startApps(['popup-view'], 'A view.');
    const { page, from } = await open(1);
    await hac.waitFor('The view of apps/popup-view was stopped: it tried to open a pop-up window.', { from });
    await expect.poll(() => page.locator('#status').innerText()).toBe('hac has closed this view.');
    expect(page.context().pages()).toHaveLength(1);
  });

  it('what-a-view-tells-the-model-goes-with-the-next-message-once', async () => {
    const { fake, hac, open } = await startApps(['context-view'], 'Pick a city.');
    const { page, from } = await open(1);
    await expect.poll(() => page.frameLocator('iframe').locator('#state').innerText()).toBe('told');
    await hac.waitFor(
      'The view of apps/context-view added to what the model is told next: The user picked Busan.',
      { from },
    );
    const last = () => fake.requests.at(-1)!.body.messages.at(-1).content as string;
    fake.reply(openaiReply.text(['Busan it is.']), openaiReply.text(['Have fun.']));
    hac.write('plan my trip\r');
    await hac.waitFor('Busan it is.', { from });
    expect(last()).toBe('[apps/context-view shows: The user picked Busan.]\n\nplan my trip');
    hac.write('thanks\r');
    await hac.waitFor('Have fun.', { from });
    expect(last()).toBe('thanks');
  });

  it('a-tool-allowed-for-good-at-the-models-question-runs-for-its-view-without-asking', async () => {
    const { hac, opened } = await start('a');
    const from = plain(hac.output).length;
    hac.write('/view 1\r');
    await expect.poll(() => existsSync(opened)).toBe(true);
    const page = await browser().newPage();
    cleanups.push(() => page.close());
    await page.goto(readFileSync(opened, 'utf8').trim());
    const view = page.frameLocator('iframe[title="View: basic/get-time"]');
    await expect.poll(() => view.locator('#server-time').innerText()).toMatch(/^\d{4}-/);
    await view.locator('#get-time-btn').click();
    await hac.waitFor('The view of basic/get-time called basic/get-time.', { from });
    expect(plain(hac.output).slice(from)).not.toContain('Call now? (Y/N)');
  });
});
