import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { startOpenAIFake, type OpenAIFake } from '../fakes/openai-fake.js';
import { writeCliHome, type CliHomeFiles } from './cli-home.js';
import { HAC_BIN } from './pty.js';

export const CHROMIUM = '/usr/bin/chromium';
/** Why the browser tests cannot run here, or undefined when they can. */
export const NO_BROWSER = existsSync(CHROMIUM)
  ? undefined
  : `Debian chromium is not installed at ${CHROMIUM} (.ci/run installs it as root with apt-get)`;

/** The built `hac web` on a temp home, with its URL line read from stdout. */
export class HacWeb {
  url = '';
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  private constructor(home: string, args: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [HAC_BIN, 'web', ...args], {
      cwd: home,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        HAC_HOME: path.join(home, '.humble-ai-cli'),
        LANG: 'C.UTF-8',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (d: Buffer) => (this.stdout += d.toString()));
    this.child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  static async start(home: string, args: string[] = [], env: Record<string, string> = {}): Promise<HacWeb> {
    const web = new HacWeb(home, args, env);
    const deadline = Date.now() + 15_000;
    while (!web.stdout.includes('\n')) {
      if (Date.now() > deadline) throw new Error(`hac web printed no URL; stderr: ${web.stderr}`);
      if (web.child.exitCode !== null) throw new Error(`hac web exited ${web.child.exitCode}: ${web.stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    web.url = web.stdout.split('\n')[0]!;
    return web;
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  get token(): string {
    return new URL(this.url).searchParams.get('token')!;
  }

  signal(name: NodeJS.Signals): void {
    this.child.kill(name);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
    await this.exited;
  }
}

/** Debian chromium, headless, with the flags these machines need (no background networking). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** What a file of window tests shares: one browser, and what to stop after each test (newest first). */
export interface ChromiumSuite {
  browser: () => Browser;
  cleanups: (() => Promise<unknown>)[];
}

/** A block of window tests in Debian chromium, launched once; skipped, saying why, where it is not installed. */
export function describeInChromium(title: string, body: (suite: ChromiumSuite) => void): void {
  describe.skipIf(NO_BROWSER)(`${title}${NO_BROWSER ? ` (skipped: ${NO_BROWSER})` : ''}`, () => {
    let browser: Browser | undefined;
    const cleanups: ChromiumSuite['cleanups'] = [];
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });
    afterAll(async () => {
      await browser?.close();
    });
    body({ browser: () => browser!, cleanups });
  });
}

/** The transcript's lines (wrapped rows joined), as xterm holds them. */
export function transcriptLines(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    await window.hacIdle!();
    return window.hacTranscript!.lines();
  });
}

/** The transcript's rows on screen now (its viewport), as text. */
export function visibleLines(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    await window.hacIdle!();
    return window.hacTranscript!.visible();
  });
}

/** Waits until the transcript text matches; fails with the transcript after `ms`. */
export async function waitForTranscript(page: Page, pattern: RegExp, ms = 10_000): Promise<string> {
  const deadline = Date.now() + ms;
  let text = '';
  while (Date.now() < deadline) {
    text = (await transcriptLines(page)).join('\n');
    if (pattern.test(text)) return text;
    await page.waitForTimeout(25);
  }
  throw new Error(`transcript never matched ${pattern}:\n${text}`);
}

/**
 * Types a line into the prompt (as an IME or a paste would insert it) and presses Enter, once the page takes lines
 * (nothing running, or a question waiting for this reply).
 */
export async function send(page: Page, text: string): Promise<void> {
  await page.waitForFunction(() => document.body.dataset.state !== 'working');
  await page.locator('#prompt').focus();
  await page.keyboard.insertText(text);
  await page.keyboard.press('Enter');
}

/**
 * Pastes text into the prompt as the browser does for Ctrl+V: a paste event carrying the clipboard's text. A paste
 * the page leaves alone is inserted by the browser itself; a synthetic event is not, so it is inserted here.
 */
export function paste(page: Page, text: string): Promise<void> {
  return page.evaluate((pasted) => {
    const prompt = document.querySelector<HTMLTextAreaElement>('#prompt')!;
    prompt.focus();
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
    if (prompt.dispatchEvent(event)) document.execCommand('insertText', false, pasted);
  }, text);
}

/** What a test's window stands on: the OpenAI fake, `hac web` on a fresh home, and a page of it. */
export interface OpenWindow {
  fake: OpenAIFake;
  web: HacWeb;
  page: Page;
}

/**
 * `hac web` on a fresh home (`home`, written for the OpenAI fake with `files`), and a page of it open in
 * `browser`, ready for typing; everything it starts is stopped through `cleanups`.
 */
export async function openWindow(
  browser: Browser,
  home: string,
  cleanups: (() => Promise<unknown>)[],
  files: CliHomeFiles = {},
  options: Parameters<Browser['newPage']>[0] = {},
): Promise<OpenWindow> {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  writeCliHome(home, fake.baseUrl, files);
  const web = await HacWeb.start(home);
  cleanups.push(() => web.stop());
  const page = await browser.newPage(options);
  cleanups.push(() => page.close());
  await page.goto(web.url);
  await page.waitForFunction(() => document.activeElement?.id === 'prompt');
  return { fake, web, page };
}
