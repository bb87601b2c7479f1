import type { ViewPages } from './view-pages.js';
import type { BridgeCall, HacBridge } from './bridge.js';
import { ChatController } from './chat-controller.js';
import { errorReport } from './error-report.js';
import type { HostEvent } from '../types/host-event.js';
import type { InputHistory } from './input-history.js';
import { ShownEvents } from './shown-events.js';
import { ConfigError, HacError } from '../errors/hac-error.js';
import { createRuntime, type Runtime, type RuntimeOptions } from './runtime.js';

/** The window's own keys, which `/help` lists after the commands (a keyboard user finds them where the commands are). */
export const WINDOW_KEYS = [
  ['Enter / Shift+Enter', 'Send / a line break in the message'],
  ['Up / Down', 'Earlier lines (from the first / last line)'],
  ['Tab', 'Complete a command; empty prompt: the buttons'],
  ['Shift+Tab', 'From the prompt to the buttons, backwards'],
  ['Esc', 'Cancel an answer or question; back to prompt'],
  ['Ctrl+C (Cmd+C on a Mac)', 'Copy; else cancel or clear (twice: end)'],
  ['Ctrl+K (Cmd+K on a Mac)', 'Sessions: search, open, rename, export, delete'],
  ['Ctrl+L', 'Clear the screen (the conversation stays)'],
  ['PageUp / PageDown', 'Scroll (Ctrl+Home / Ctrl+End: top / end)'],
  ['Up / Down in a menu', 'Move; Enter chooses, Esc closes'],
] as const;

/** Where a window's conversation comes from: the shared runtime, or why there is none (a broken config.json). */
export type RuntimeSource = () => Promise<{ runtime: Runtime } | { error: unknown }>;

/**
 * One runtime shared by every window, made on first use. While config.json is broken each call tries again, so a
 * window can show the report and start once the file is fixed. `current()` is the runtime if it exists.
 */
export function sharedRuntime(
  options: RuntimeOptions = {},
): RuntimeSource & { current(): Runtime | undefined } {
  let runtime: Runtime | undefined;
  let starting: Promise<Runtime> | undefined;
  const source = async () => {
    try {
      runtime ??= await (starting ??= createRuntime(options).finally(() => (starting = undefined)));
      return { runtime };
    } catch (error) {
      if (!(error instanceof ConfigError) && !(error instanceof HacError)) throw error;
      return { error };
    }
  };
  return Object.assign(source, { current: () => runtime });
}

export interface BridgeSessionOptions {
  runtime: RuntimeSource;
  history: InputHistory;
  /** Host events for the page, in order (streamed text comes at most about once per animation frame). */
  sendEvents(events: HostEvent[]): void;
  /** `/exit` in this window. */
  onExit(): void;
  /** Opens a link for the page (Electron: the system browser after the checks); absent where the page does it. */
  openLink?(url: string): Promise<void>;
  /** Opens a window that resumes a session (Electron); absent where the page does it (a browser's new tab). */
  openWindow?(resume: string): void;
  /** The origins the page is served from: only they may frame the pages of this window's views. */
  pageOrigins: readonly string[];
  /** Makes the pages this window's views are shown in (the desktop app's, under its own scheme); loopback otherwise. */
  makeViewPages?(): ViewPages;
}

/** A window's streamed text is handed on once per animation frame: a few dozen messages a second at most. */
const WINDOW_BATCH_MS = 16;

/**
 * The host side of one window's `window.hac`, the same for Electron's IPC and `hac web`'s WebSocket: validated
 * calls in, host events out as they happen. Calls reach the conversation synchronously, in the order they arrive,
 * so a call's result is sent after the events it caused. Until the runtime exists (config.json broken) the window
 * shows the report, and each Enter re-reads the files.
 */
export class BridgeSession {
  private controller: ChatController | undefined;
  private closed = false;
  /** What this conversation showed, to draw it again in a reloaded page. */
  private readonly shown = new ShownEvents();
  /** Events sent in this turn of the event loop, not yet handed on. */
  private pending: HostEvent[] = [];
  /** The pages of the views this window opened (`/view`), made on the first. */
  private views: ViewPages | undefined;

  constructor(private readonly options: BridgeSessionOptions) {}

  /** Opens the conversation, or shows why it cannot be opened yet. */
  async open(): Promise<void> {
    const got = await this.options.runtime();
    if ('error' in got) return this.send({ type: 'fatal', report: errorReport(got.error) });
    const controller = new ChatController(got.runtime, {
      deltaBatchMs: WINDOW_BATCH_MS,
      keys: WINDOW_KEYS,
      showResumed: true,
      wholeForms: true,
      inlineViews: true,
    });
    this.controller = controller;
    controller.onEvent((event) => {
      this.send(event);
      if (event.type === 'exit') this.options.onExit();
    });
    await controller.start();
    void controller.offerSetUp();
  }

  /** Runs one call; resolves with its result, after the events it caused (they are handed on first). */
  call(call: BridgeCall): Promise<Awaited<ReturnType<HacBridge[BridgeCall['method']]>> | null> {
    return this.run(call).finally(this.flush);
  }

  private run(call: BridgeCall): Promise<Awaited<ReturnType<HacBridge[BridgeCall['method']]>> | null> {
    const controller = this.controller;
    switch (call.method) {
      case 'submit':
        if (!controller) {
          // Enter re-reads the files: the conversation starts once they are fixed.
          this.send({ type: 'input', text: call.params.text, reply: false });
          return this.open().then(() => null);
        }
        if (!controller.asking) void this.options.history.add(call.params.text);
        void controller.submit(call.params.text);
        return Promise.resolve(null);
      case 'interrupt':
        return Promise.resolve(controller ? controller.interrupt() : 'idle');
      case 'complete':
        return Promise.resolve(controller ? controller.complete(call.params.prefix) : []);
      case 'history':
        return this.options.history.entries();
      case 'openLink':
        if (!this.options.openLink) return Promise.reject(new Error('This window opens links itself.'));
        return this.options.openLink(call.params.url).then(() => null);
      case 'attach': {
        if (!controller) return Promise.resolve(false);
        const { name, data } = call.params;
        return controller.attach({ bytes: Buffer.from(data, 'base64'), name: name || 'pasted image' });
      }
      case 'detach':
        controller?.detach(call.params.index);
        return Promise.resolve(null);
      case 'answerForm':
        return Promise.resolve(controller ? controller.answerForm(call.params) : false);
      case 'sessions':
        return controller ? controller.findSessions(call.params.query) : Promise.resolve([]);
      case 'manageSession':
        return controller
          ? controller.manageSession(call.params)
          : Promise.resolve('hac cannot start yet: fix config.json first.');
      case 'downloadSession':
        return controller
          ? controller.downloadSession(call.params.name, call.params.format)
          : Promise.resolve({ error: 'hac cannot start yet: fix config.json first.' });
      case 'openWindow':
        if (!this.options.openWindow) return Promise.reject(new Error('This window opens windows itself.'));
        this.options.openWindow(call.params.resume);
        return Promise.resolve(null);
      case 'showView':
        return controller
          ? this.showView(controller, call.params.number, call.params.theme)
          : Promise.resolve({ error: 'hac cannot start yet: fix config.json first.' });
    }
  }

  /**
   * A view drawn in the window's transcript (under its tool's line, or where `/view <n>` was typed): its page is
   * served on a loopback origin of its own, framed by this window alone, its sandbox inside it.
   */
  private async showView(
    controller: ChatController,
    number: number,
    theme: 'light' | 'dark',
  ): Promise<{ url: string } | { error: string }> {
    try {
      const appearance = { theme, locale: Intl.DateTimeFormat().resolvedOptions().locale, fullWindow: true };
      const { ViewPages } = await import('./view-pages.js');
      const open = () => controller.connectView(number, appearance);
      this.views ??= this.options.makeViewPages?.() ?? new ViewPages();
      return { url: (await this.views.show(open, this.options.pageOrigins)).url };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }

  close(): void {
    void this.views?.close();
    this.controller?.close();
    this.flush(); // the conversation's last events (its `exit`) still reach the page
    this.closed = true;
  }

  /**
   * What a page needs to draw this conversation again (it was reloaded, or its connection dropped): the events it
   * was shown, the oldest left out past a bound, after the state now (it says how to draw them: Markdown or not).
   */
  replay(): HostEvent[] {
    const now = this.controller ? [{ type: 'status', status: this.controller.status } as const] : [];
    return [...now, ...this.shown.list()];
  }

  /**
   * Events go out together when they come together: a resumed conversation's last screen is 150 events at once,
   * and the page draws one message of them in one pass rather than 150 (each its own task and, often, frame).
   */
  private send(event: HostEvent): void {
    if (this.closed) return;
    this.shown.add(event);
    if (this.pending.push(event) === 1) queueMicrotask(this.flush);
  }

  private readonly flush = () => {
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    if (!this.closed) this.options.sendEvents(events);
  };
}
