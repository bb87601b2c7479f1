import type { IDisposable, IMarker, Terminal } from '@xterm/xterm';
import type { HacBridge } from './core-types.js';
import { LABELS } from './labels.js';

/** Rows kept blank under a view's line: the most of the transcript a view takes (about 300 px). */
export const VIEW_ROWS = 18;

/** One view in the transcript: its frame, and the blank row its top sits on (none while the transcript redraws). */
interface Shown {
  box: HTMLElement;
  frame: HTMLIFrameElement;
  origin?: string;
  /** The height the view asked for, in pixels (its own size-changed notices). */
  wanted?: number;
  marker?: IMarker;
  /** The drawing of the transcript that placed it last. */
  drawing: number;
}

/**
 * The views (MCP Apps) of a conversation, drawn in the transcript under the line that names them. A view's page
 * comes from hac's loopback view server, on an origin of its own that only this window may frame, with the view's
 * sandbox inside it; here it is one frame laid over rows kept blank for it, moved with xterm's scroll. (A picture
 * is cut in row strips that xterm hides one by one; a frame cannot be, and moving it to another element would load
 * it again.) Its height follows what the view asks, up to its rows; a button makes it fill the window and Escape
 * brings it back. A redraw of the transcript (a new width) keeps each frame, and the view in it, as it is.
 */
export class InlineViews {
  /** By the event that brought each view: a redraw draws the same events, a reloaded conversation new ones. */
  private readonly shown = new Map<object, Shown>();
  private drawing = 0;
  private readonly layer: HTMLElement;
  private readonly watching: IDisposable[];
  private full: Shown | undefined;

  constructor(
    private readonly terminal: Terminal,
    private readonly bridge: HacBridge,
    private readonly onEscape: () => void,
  ) {
    this.layer = document.createElement('div');
    this.layer.className = 'view-layer';
    terminal.element!.append(this.layer);
    this.watching = [terminal.onRender(() => this.position()), terminal.onScroll(() => this.position())];
    addEventListener('message', this.heard);
    addEventListener('keydown', this.escape, true);
  }

  /** The blank rows a view is laid over, written after its line. */
  rows(): string {
    return '\r\n'.repeat(VIEW_ROWS);
  }

  /**
   * Once its rows are written: the view `event` brought (view `number`) over them, its frame made (and its page
   * asked for) the first time.
   */
  place(event: object, number: number, title: string): void {
    const marker = this.terminal.registerMarker(-VIEW_ROWS);
    if (!marker) return;
    const shown = this.shown.get(event) ?? this.make(event, number, title);
    shown.drawing = this.drawing;
    shown.marker?.dispose();
    shown.marker = marker;
    marker.onDispose(() => {
      if (shown.marker === marker) shown.marker = undefined;
    });
    this.position();
  }

  /** The transcript is drawn afresh: resolves the previous drawing's views that `drawn` did not place again. */
  redrawing(drawn: Promise<void>): void {
    const drawing = ++this.drawing;
    void drawn.then(() => {
      for (const [event, shown] of this.shown)
        if (shown.drawing < drawing && this.drawing === drawing) {
          if (this.full === shown) this.setFull(undefined);
          shown.box.remove(); // its page closes, and hac ends the view's bridge with it
          this.shown.delete(event);
        }
    });
  }

  dispose(): void {
    for (const d of this.watching) d.dispose();
    removeEventListener('message', this.heard);
    removeEventListener('keydown', this.escape, true);
    this.layer.remove();
  }

  private make(event: object, number: number, title: string): Shown {
    const box = document.createElement('section');
    box.className = 'inline-view';
    box.setAttribute('aria-label', title);
    const bar = document.createElement('div');
    bar.className = 'inline-view-bar';
    const name = document.createElement('span');
    name.textContent = title;
    const toggle = document.createElement('button');
    toggle.type = 'button';
    toggle.className = 'view-size';
    toggle.textContent = LABELS.viewFullWindow;
    toggle.title = LABELS.viewFullWindowTitle;
    bar.append(name, toggle);
    const frame = document.createElement('iframe');
    frame.title = title;
    box.append(bar, frame);
    this.layer.append(box);
    const shown: Shown = { box, frame, drawing: this.drawing };
    toggle.addEventListener('click', () => this.setFull(this.full === shown ? undefined : shown));
    this.shown.set(event, shown);
    const theme = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    void this.bridge.showView(number, theme).then(
      (got) => {
        if ('error' in got) return this.fail(shown, got.error);
        shown.origin = new URL(got.url).origin;
        frame.src = got.url;
      },
      (error: unknown) => this.fail(shown, String(error)),
    );
    return shown;
  }

  private fail(shown: Shown, reason: string): void {
    const said = document.createElement('p');
    said.className = 'inline-view-error';
    said.setAttribute('role', 'status');
    said.textContent = LABELS.viewFailed(reason);
    shown.frame.replaceWith(said);
  }

  /** Each frame over its rows: moved with the scroll, hidden while its rows are off screen or redrawn. */
  private position(): void {
    // Layout pixels (offset sizes), as the styles set them: a zoomed page's client rectangles are scaled.
    const screen = this.terminal.element?.querySelector<HTMLElement>('.xterm-screen');
    if (!screen) return;
    const rowHeight = screen.offsetHeight / this.terminal.rows;
    const room = VIEW_ROWS * rowHeight;
    const top = this.terminal.buffer.active.viewportY;
    this.layer.style.width = `${screen.offsetWidth}px`;
    for (const shown of this.shown.values()) {
      const { box, marker } = shown;
      const y = marker ? (marker.line - top) * rowHeight : -room;
      const visible = marker !== undefined && y < this.terminal.rows * rowHeight && y + room > 0;
      box.hidden = !visible && this.full !== shown;
      box.style.top = `${y}px`;
      // A pixel short of its rows, so the row after them is never touched.
      box.style.height = `${Math.min(room - 1, (shown.wanted ?? room) + BAR_PX)}px`;
    }
  }

  private setFull(shown: Shown | undefined): void {
    if (this.full === shown) return;
    // Each view is told how it is shown now (its page passes it on to hac, which tells the view).
    const tell = (view: Shown | undefined, mode: 'inline' | 'fullscreen') =>
      view?.origin && view.frame.contentWindow?.postMessage({ hacView: 'displayed', mode }, view.origin);
    tell(this.full, 'inline');
    tell(shown, 'fullscreen');
    this.full?.box.classList.remove('full-window');
    this.full = shown;
    shown?.box.classList.add('full-window');
    for (const s of this.shown.values()) {
      const button = s.box.querySelector('button')!;
      button.textContent = s === shown ? LABELS.viewBack : LABELS.viewFullWindow;
    }
    this.position();
  }

  /** What a view's page tells this window (only a page of one of its views, from its own origin, is heard). */
  private readonly heard = (event: MessageEvent): void => {
    const shown = [...this.shown.values()].find((s) => s.frame.contentWindow === event.source);
    if (!shown || event.origin !== shown.origin) return;
    const message = event.data as { hacView?: unknown; height?: unknown } | null;
    if (message?.hacView === 'size' && typeof message.height === 'number') {
      shown.wanted = message.height;
      this.position();
    } else if (message?.hacView === 'display') {
      // The view asked to fill the window, or to come back into the transcript.
      const { mode } = message as { mode?: unknown };
      this.setFull(mode === 'fullscreen' ? shown : this.full === shown ? undefined : this.full);
    } else if (message?.hacView === 'escape') {
      if (this.full) this.setFull(undefined);
      else this.onEscape();
    }
  };

  /** Escape brings a full-window view back into the transcript before anything else hears it. */
  private readonly escape = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape' || !this.full || event.isComposing) return;
    event.preventDefault();
    event.stopPropagation();
    this.setFull(undefined);
  };
}

/** The height of a view's title bar, in pixels (styles.css). */
const BAR_PX = 26;
