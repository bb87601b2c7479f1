import { request } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { runHac } from '../../helpers/run-hac.js';
import { useTempDir } from '../../helpers/temp-home.js';
import {
  HacWeb,
  launchChromium,
  NO_BROWSER,
  send,
  transcriptLines,
  waitForTranscript,
} from '../../helpers/web.js';

const tempDir = useTempDir('hac-web-');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function startWeb(
  files: Parameters<typeof writeCliHome>[2] = {},
): Promise<{ fake: OpenAIFake; web: HacWeb; home: string }> {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  writeCliHome(home, fake.baseUrl, files);
  const web = await HacWeb.start(home);
  cleanups.push(() => web.stop());
  return { fake, web, home };
}

/** An HTTP GET with chosen headers; resolves with the status and body. */
function get(
  port: number,
  pathAndQuery: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathAndQuery, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a WebSocket with chosen headers; resolves with "open" or the HTTP status it was refused with. */
function socket(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
    ws.on('error', () => resolve('error'));
  });
}

describe('hac web: the server (R-DESK-6)', () => {
  it('prints exactly one URL line on 127.0.0.1 with a 256-bit token, its own for each home', async () => {
    const { web } = await startWeb();
    expect(web.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}\n$/);
    const again = await HacWeb.start(tempDir());
    cleanups.push(() => again.stop());
    expect(again.token).not.toBe(web.token);
  });

  it('answers 403 and nothing else without the token, with another Host, or to a socket from another Origin', async () => {
    const { web } = await startWeb();
    const host = `127.0.0.1:${web.port}`;
    expect((await get(web.port, `/?token=${web.token}`, { Host: host })).status).toBe(200);
    expect((await get(web.port, `/?token=${web.token}`, { Host: `localhost:${web.port}` })).status).toBe(200);
    // The page's own address without its token says how to open hac, and nothing else (issue 29).
    for (const address of ['/', '/?token=wrong']) {
      const answer = await get(web.port, address, { Host: host });
      expect(answer.status).toBe(403);
      expect(answer.body).toContain('Open the address `hac web` printed when it started');
      expect(answer.body).not.toContain(web.token);
    }
    expect(await get(web.port, `/renderer.js`, { Host: host })).toEqual({ status: 403, body: 'Forbidden' });
    expect(await get(web.port, `/?token=${web.token}`, { Host: `evil.example:${web.port}` })).toEqual({
      status: 403,
      body: 'Forbidden',
    });
    const ws = `ws://127.0.0.1:${web.port}/ws?token=${web.token}`;
    expect(await socket(ws, { Origin: `http://127.0.0.1:${web.port}` })).toBe('open');
    expect(await socket(ws, { Origin: 'http://evil.example' })).toBe('403');
    expect(await socket(ws, {})).toBe('403');
    expect(
      await socket(`ws://127.0.0.1:${web.port}/ws?token=nope`, { Origin: `http://127.0.0.1:${web.port}` }),
    ).toBe('403');
  });

  it('serves the page with the CSP of R-DESK-4 (connect-src: its own socket only)', async () => {
    const { web } = await startWeb();
    const res = await fetch(web.url);
    expect(res.headers.get('content-security-policy')).toBe(
      `default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src ws://127.0.0.1:${web.port} ws://localhost:${web.port}; frame-src http://127.0.0.1:* hac-view:`,
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('ends with exit 0 on SIGTERM and on SIGINT', async () => {
    const { web } = await startWeb();
    web.signal('SIGTERM');
    expect(await web.exited).toBe(0);
    const other = await HacWeb.start(tempDir());
    other.signal('SIGINT');
    expect(await other.exited).toBe(0);
  });

  it('help-prints-its-usage-and-exits-0-an-unknown-option-exits-2', async () => {
    const home = tempDir();
    const help = await runHac(home, ['web', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: hac web [--port N] [--open]');
    const wrong = await runHac(home, ['web', '--nope']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('Usage: hac web');
  });

  it('refuses a call that does not match the bridge and closes that socket', async () => {
    const { web } = await startWeb();
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}/ws?token=${web.token}`, {
      headers: { Origin: `http://127.0.0.1:${web.port}` },
    });
    await new Promise((r) => ws.on('open', r));
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    ws.send(JSON.stringify({ id: 1, method: 'eval', params: { code: 'process.exit()' } }));
    expect(await closed).toBe(1008);
    expect(web.url).toBeTruthy(); // the server goes on
    expect((await fetch(web.url)).status).toBe(200);
  });
});

describe.skipIf(NO_BROWSER)(`hac web in Chromium${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`, () => {
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

  it('streams an answer with its thinking, like the CLI, and keeps the prompt focused', async () => {
    const { fake, web } = await startWeb();
    fake.reply(openaiReply.thinking(['Let me ', 'think.'], ['Hello ', 'from ', 'hac.']));
    const page = await open(web.url);
    await send(page, '안녕하세요, hello');
    const text = await waitForTranscript(page, /Hello from hac\./);
    expect(text).toContain(
      'humble-ai> 안녕하세요, hello\nWaiting for response...\n<<< Thinking >>>\nLet me think.\n<<< End Thinking >>>\nHello from hac.',
    );
    expect(fake.requests[0]!.body.messages.at(-1)).toMatchObject({
      role: 'user',
      content: '안녕하세요, hello',
    });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('prompt');
    expect(await page.locator('#prompt').inputValue()).toBe('');
    await expect.poll(() => page.locator('#status').innerText()).toContain('gpt-test (openai)');
    // After the answer: how full the context is, the conversation's tokens, and the workspace (the home here).
    await expect
      .poll(() => page.locator('#status').innerText())
      .toMatch(/ctx \d+%\s+·\s+\d+ tokens\s+·\s+workspace: ~\s+·\s+ready/);
  });

  it('asks Call now? (Y/N): and takes the typed reply; the tool result goes to the model', async () => {
    const { fake, web } = await startWeb({ servers: { tools: testServerEntry() } });
    fake.reply(
      openaiReply.toolCalls([{ id: 'call_1', name: 'tools__echo', arguments: { text: 'hi' } }]),
      openaiReply.text(['It said hi.']),
    );
    const page = await open(web.url);
    await send(page, 'echo hi');
    await waitForTranscript(page, /Call now\? \(Y\/N\): $/m);
    await send(page, 'y');
    const text = await waitForTranscript(page, /It said hi\./);
    expect(text).toMatch(
      /MCP server: tools \(hac test server\)\nTool: echo: Echoes the text back\.\nArguments:\n/,
    );
    expect(text).toContain('Call now? (Y/N): y\n');
    expect(fake.requests[1]!.body.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
  });

  it('/set-model offers clickable choices', async () => {
    const { web, home } = await startWeb({
      moreModels: [{ name: 'other', provider: 'openai', apiKey: 'sk-x-0000' }],
    });
    const page = await open(web.url);
    await send(page, '/set-model');
    await waitForTranscript(page, /Choice \(0 keeps the current model\): $/m);
    await page.getByRole('button', { name: '2) other (openai)' }).click();
    await waitForTranscript(page, /Active model set to other \(openai\)\./);
    const config = JSON.parse(readFileSync(path.join(home, '.humble-ai-cli/config.json'), 'utf8'));
    expect(config.models[1].active).toBe(true);
    expect(await page.locator('#choices').isHidden()).toBe(true);
  });

  it('Ctrl+C and Escape cancel a streaming answer', async () => {
    const { fake, web } = await startWeb();
    fake.reply(
      openaiReply.text(['partial answer'], { end: 'stall' }),
      openaiReply.text(['more'], { end: 'stall' }),
    );
    const page = await open(web.url);
    await send(page, 'first');
    await waitForTranscript(page, /partial answer/);
    await page.keyboard.press('Control+C');
    await waitForTranscript(page, /Response cancelled\./);
    await send(page, 'second');
    await waitForTranscript(page, /more/);
    await page.keyboard.press('Escape');
    const text = await waitForTranscript(page, /Response cancelled\.[\s\S]*Response cancelled\./);
    expect(text.match(/Response cancelled\./g)).toHaveLength(2);
  });

  it('shows every command and the history from the shared file', async () => {
    const { web, home } = await startWeb();
    writeFileSync(path.join(home, '.humble-ai-cli/history'), 'older line\n');
    const page = await open(web.url);
    await send(page, '/help');
    await waitForTranscript(page, /\/toggle-mcp +Enable or disable an MCP server\./);
    await send(page, '/set-tool-mode auto');
    await waitForTranscript(page, /Tool call mode set to auto\./);
    await page.keyboard.press('ArrowUp');
    expect(await page.locator('#prompt').inputValue()).toBe('/set-tool-mode auto');
    await page.locator('#prompt').fill('/togg');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.locator('#prompt').inputValue()).toBe('/toggle-mcp ');
  });

  it('Enter while an answer streams keeps the line in the prompt; it is sent once the answer is done', async () => {
    const { fake, web } = await startWeb();
    let release!: () => void;
    const paused = new Promise<void>((resolve) => (release = resolve));
    fake.reply(
      openaiReply.text(['first ', 'answer'], { pauseAfterFirst: paused }),
      openaiReply.text(['second']),
    );
    const page = await open(web.url);
    await send(page, 'one');
    await waitForTranscript(page, /first/);
    await page.keyboard.insertText('two');
    await page.keyboard.press('Enter');
    expect(await page.locator('#prompt').inputValue()).toBe('two');
    await expect.poll(() => page.locator('#status').innerText()).toContain('Still answering');
    release();
    await waitForTranscript(page, /first answer/);
    await page.waitForFunction(() => document.body.dataset.state === 'ready');
    await page.keyboard.press('Enter');
    await waitForTranscript(page, /second/);
    expect(fake.requests.map((r) => r.body.messages.at(-1).content)).toEqual(['one', 'two']);
    expect((await transcriptLines(page)).join('\n')).not.toContain('Still working');
  });

  it('two tabs are two conversations', async () => {
    const { fake, web } = await startWeb();
    fake.reply(openaiReply.text(['A.']), openaiReply.text(['B.']));
    const a = await open(web.url);
    const b = await open(web.url);
    await send(a, 'alpha');
    await waitForTranscript(a, /A\./);
    await send(b, 'beta');
    await waitForTranscript(b, /B\./);
    const second = fake.requests[1]!.body.messages.map((m: { content: string }) => m.content).join('\n');
    expect(second).toContain('beta');
    expect(second).not.toContain('alpha');
    expect((await transcriptLines(b)).join('\n')).not.toContain('alpha');
  });

  it('a 1 MB answer arrives whole and in order', async () => {
    const { fake, web } = await startWeb();
    // One row each (58 Hangul = 116 columns), 5,800 rows: 1 MB of UTF-8 within the 10,000-line scrollback.
    const row = '가나다라마바사아자차'.repeat(6).slice(0, 58);
    const lines = Array.from({ length: 5_800 }, (_, i) => `${String(i).padStart(5, '0')} ${row}`);
    const answer = lines.join('\n');
    expect(Buffer.byteLength(answer)).toBeGreaterThan(1_000_000);
    const chunks: string[] = [];
    for (let i = 0; i < answer.length; i += 997) chunks.push(answer.slice(i, i + 997));
    fake.reply(openaiReply.text(chunks));
    const page = await open(web.url);
    await send(page, 'long please');
    await waitForTranscript(page, /05799 /, 30_000);
    const shown = (await transcriptLines(page)).filter((l) => /^\d{5} /.test(l));
    expect(shown).toEqual(lines);
  });

  it('a-scroll-without-a-selection-draws-each-row-once', async () => {
    // xterm's DOM renderer drew the whole screen a second time after every scroll (its selection service asks for
    // a redraw, selection or not): a streaming answer, or a resumed conversation, drew its frames twice.
    const { fake, web } = await startWeb();
    fake.reply(openaiReply.text([Array.from({ length: 150 }, (_, i) => `line ${i}`).join('\n')]));
    const page = await open(web.url);
    await send(page, 'many lines');
    await waitForTranscript(page, /line 149/);
    await page.evaluate(() => window.hacIdle!());
    await page.evaluate(async () => {
      const counts = new Map<Node, number>();
      const seen = new MutationObserver((records) => {
        for (const record of records) counts.set(record.target, (counts.get(record.target) ?? 0) + 1);
      });
      seen.observe(document.querySelector('.xterm-rows')!, { childList: true, subtree: true });
      // Counted from a still screen: under load the answer's last frames can still be drawing.
      for (let still = 0; still < 5;) {
        counts.clear();
        await new Promise((r) => requestAnimationFrame(r));
        still = counts.size === 0 ? still + 1 : 0;
      }
      Object.assign(window, { rowRenders: counts });
    });
    await page.keyboard.press('PageUp'); // scrolls the transcript from the prompt
    const renders = await page.evaluate(async () => {
      for (let frame = 0; frame < 10; frame++) await new Promise((r) => requestAnimationFrame(r));
      return [...(window as unknown as { rowRenders: Map<Node, number> }).rowRenders.values()];
    });
    expect(renders.length).toBeGreaterThan(10); // the scroll drew the screen's rows
    // Once each (twice before); a second scroll position under load may redraw a few rows again.
    const total = renders.reduce((sum, n) => sum + n, 0);
    expect(total).toBeLessThan(1.5 * renders.length);
  });

  it('shows a Markdown answer styled, as the terminal does (issue 21)', async () => {
    const { fake, web } = await startWeb();
    fake.reply(
      openaiReply.text([
        '## Re',
        'sult\n\nThe **bu',
        'ild** is `gre',
        'en`; 한국어 *기울임*.\n\n- [do',
        'cs](https://example.com/docs)\n',
      ]),
    );
    const page = await open(web.url);
    await send(page, 'markdown');
    await waitForTranscript(page, /• docs/);
    const lines = await transcriptLines(page);
    const at = lines.indexOf('Result');
    expect(lines.slice(at, at + 5)).toEqual([
      'Result',
      '',
      'The build is green; 한국어 기울임.',
      '',
      '• docs',
    ]);
    const styles = (y: number) => page.evaluate((row) => window.hacTranscript!.styles(row), y);
    const rowOf = (text: string) => page.evaluate((t) => window.hacTranscript!.lines().indexOf(t), text);
    expect(await styles(await rowOf('Result'))).toEqual(['R:bu', 'e:bu', 's:bu', 'u:bu', 'l:bu', 't:bu']);
    const body = await styles(await rowOf('The build is green; 한국어 기울임.'));
    expect(body.slice(0, 9)).toEqual(['T:', 'h:', 'e:', ' :', 'b:b', 'u:b', 'i:b', 'l:b', 'd:b']);
    expect(body).toContain('g:c');
    expect(body).toContain('기:i');
    expect((await styles(await rowOf('• docs'))).slice(2)).toEqual(['d:uc', 'o:uc', 'c:uc', 's:uc']);
  });

  it('gives CJK and emoji two columns, as the terminal does', async () => {
    const { fake, web } = await startWeb();
    fake.reply(openaiReply.text(['한국어 日本語 中文 😀 ok']));
    const page = await open(web.url);
    await send(page, 'widths');
    await waitForTranscript(page, /한국어 日本語 中文 😀 ok/);
    const row = await page.evaluate(() =>
      window.hacTranscript!.lines().findIndex((l) => l.startsWith('한국어')),
    );
    const widths = await page.evaluate((y) => window.hacTranscript!.widths(y), row);
    expect(widths).toEqual([2, 2, 2, 1, 2, 2, 2, 1, 2, 2, 1, 2, 1, 1, 1]);
  });

  it('a broken config.json shows its report; Enter starts the chat once it is fixed (R-DESK-7)', async () => {
    const { fake, web, home } = await startWeb({ config: { logLevel: 'verbose' } });
    const page = await open(web.url);
    await waitForTranscript(page, /config\.json is not valid:\n {2}- logLevel: .*\n {4}Fix: /);
    const file = path.join(home, '.humble-ai-cli/config.json');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    delete config.logLevel;
    writeFileSync(file, JSON.stringify(config));
    fake.reply(openaiReply.text(['Working now.']));
    await send(page, '');
    await expect.poll(() => page.locator('#status').innerText()).toContain('gpt-test (openai)');
    await send(page, 'hello');
    await waitForTranscript(page, /Working now\./);
  });

  it('/exit and ctrl-c-twice-in-the-last-tab-end-its-conversation-only-the-server-serves-on', async () => {
    const { fake, web } = await startWeb();
    const page = await open(web.url);
    await send(page, '/exit');
    await expect.poll(() => page.locator('#status').innerText()).toContain('This conversation has ended.');
    expect(await page.locator('#prompt').isDisabled()).toBe(true);
    // The page offers a new conversation; the server is still there for it and for any other tab.
    await page.getByRole('button', { name: 'Start a new conversation' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'prompt');
    // The new conversation is ready (a slow machine may still be opening it when the prompt takes focus).
    await expect.poll(() => page.locator('#status').innerText()).toContain('gpt-test (openai)');
    await page.locator('#prompt').press('Control+c');
    await page.locator('#prompt').press('Control+c');
    await expect.poll(() => page.locator('#status').innerText()).toContain('This conversation has ended.');
    const other = await open(web.url);
    fake.reply(openaiReply.text(['Still here.']));
    await send(other, 'are you there?');
    await waitForTranscript(other, /Still here\./);
    const exited = await Promise.race([web.exited, new Promise((r) => setTimeout(() => r('serving'), 300))]);
    expect(exited).toBe('serving');
  });
});
