import type { IMarker } from '@xterm/xterm';
import {
  ANSI_STYLES,
  loadHighlighter,
  ShownEvents,
  TranscriptRenderer,
  WordWrap,
  type HostEvent,
} from './core-types.js';
import { picturesBelow } from './inline-images.js';
import type { InlineViews } from './inline-views.js';
import type { LineMarks } from './line-marks.js';
import type { TranscriptView } from './transcript-view.js';

/** Host events drawn into the transcript, through the same renderer as the CLI. */
export interface TranscriptOutput {
  /** Draws events; a `replay` is the whole conversation again, drawn on a cleared transcript. */
  show(events: HostEvent[], replay?: boolean): void;
  /** Resolves when everything shown so far is on screen. */
  drawn(): Promise<void>;
  dispose(): void;
}

/** How long a resize must settle before the transcript is drawn again at the new width. */
const REWRAP_DELAY_MS = 120;

/**
 * Prose is broken between words for the transcript's width (word-wrap.ts) and drawn again when the width
 * changes; a model's thinking can be folded away and opened again. Both redraw what was shown (kept within a
 * bound) from the events, so the text itself is never edited on screen.
 */
export function createTranscriptOutput(
  view: TranscriptView,
  marks: LineMarks,
  views: InlineViews,
): TranscriptOutput {
  const { terminal } = view;
  const shown = new ShownEvents();
  let status: HostEvent | undefined;
  let transcript = new TranscriptRenderer(ANSI_STYLES);
  let wrap = new WordWrap(() => terminal.cols);
  let markdown: boolean | undefined;
  let drawn = Promise.resolve();
  /** Thinking blocks folded away (by their start event), whether the one being drawn is, and their lines. */
  const folded = new WeakSet<HostEvent>();
  let folding = false;
  const thinkingLines = new WeakMap<HostEvent, IMarker>();

  /** The syntax highlighter once loaded: every renderer made after that (a redraw) has it from the start. */
  let highlight: Awaited<ReturnType<typeof loadHighlighter>> | undefined;
  let loading = false;

  /** Answers as styled Markdown when config.json says so; xterm.js shows OSC 8 links. */
  const showMarkdown = (on: boolean) => {
    if (on === markdown) return;
    markdown = on;
    transcript.markdown = on
      ? { hyperlinks: true, columns: () => terminal.cols, codeMarks: true }
      : undefined;
    if (!on) return;
    if (highlight) return void (transcript.highlighter = highlight);
    if (loading) return;
    loading = true;
    void loadHighlighter().then(
      (loaded) => {
        highlight = loaded;
        transcript.highlighter = loaded;
        // A conversation drawn before it came (a reload, a resume) had its code plain: drawn again, coloured, once
        // what is being written is on screen (a reset before that would let the old writes land after it).
        if (shown.list().some((e) => e.type === 'text-delta' && e.text.includes('```')))
          void drawn.then(() => redraw());
      },
      () => undefined, // unhighlighted code is still code
    );
  };
  const marked = (event: HostEvent) =>
    (event.type === 'input' && !event.reply) ||
    event.type === 'tool-result' ||
    event.type === 'thinking-start';

  const draw = (events: readonly HostEvent[], fresh: boolean) => {
    if (fresh) {
      terminal.reset();
      terminal.write('\x1b[?25l'); // reset shows the cursor again
      transcript = new TranscriptRenderer(ANSI_STYLES);
      wrap = new WordWrap(() => terminal.cols);
      markdown = undefined;
      folding = false;
    }
    let text = '';
    for (const event of events) {
      if (event.type === 'thinking-start') folding = folded.has(event);
      if (folding && event.type === 'thinking-delta') continue;
      if (event.type === 'thinking-end') folding = false;
      const printed = wrap.push(transcript.render(event));
      if (event.type === 'status') showMarkdown(event.status.markdown);
      if (event.type === 'view' || event.type === 'open-view') {
        // A tool's view under its line (or where /view asked for it), over rows kept blank for it once written.
        const title = event.type === 'view' ? `View: ${event.server}/${event.tool}` : event.title;
        text += printed + wrap.push(views.rows());
        drawn = view.write(text);
        text = '';
        drawn = new Promise((resolve) =>
          terminal.write('', () => resolve(views.place(event, event.number, title))),
        );
        continue;
      }
      if (event.type === 'images') {
        // The pictures themselves below their lines, laid over rows kept blank for them once written.
        const pictures = picturesBelow(event.images);
        text += printed + wrap.push(pictures.rows);
        drawn = view.write(text);
        text = '';
        drawn = new Promise((resolve) => terminal.write('', () => resolve(pictures.place(terminal))));
        continue;
      }
      if (!marked(event) || !printed) {
        text += printed;
        continue;
      }
      // A message the user sent, a tool's result, a thinking block: written on its own, marked once on screen.
      if (text) drawn = view.write(text);
      text = '';
      // Marked in xterm's own write callback: later writes may be parsed before a promise would resolve.
      const lines = printed.replace(/^\n/, '').split('\n').length - 1;
      drawn = new Promise((resolve) =>
        terminal.write(printed, () => {
          if (event.type === 'thinking-start') thinkingLines.set(event, terminal.registerMarker(-lines));
          marks.mark(event, lines, event.type === 'thinking-start' ? foldControl(event) : undefined);
          resolve();
        }),
      );
    }
    // Written at once (xterm queues and parses in order); the last write's callback means all is on screen.
    if (text) drawn = view.write(text);
    // Views the fresh drawing did not place again (another conversation's) go once it is on screen.
    if (fresh) views.redrawing(drawn);
    // The status says which exchanges are still held: once on screen, those taken back are dimmed.
    if (events.some((event) => event.type === 'status')) void drawn.then(() => marks.refresh());
  };

  /** Draws everything again (a new width, a block folded), keeping the reader where they were. */
  const redraw = (keepInView?: HostEvent) => {
    const buffer = terminal.buffer.active;
    const atBottom = buffer.viewportY >= buffer.baseY;
    const fraction = buffer.baseY > 0 ? buffer.viewportY / buffer.baseY : 1;
    const anchor = keepInView && thinkingLines.get(keepInView);
    const offset = anchor ? anchor.line - buffer.viewportY : 0;
    draw(status ? [status, ...shown.list()] : shown.list(), true);
    void drawn.then(() => {
      const after = terminal.buffer.active;
      const moved = keepInView && thinkingLines.get(keepInView);
      if (moved && anchor) terminal.scrollToLine(Math.max(0, moved.line - offset));
      else if (atBottom) terminal.scrollToBottom();
      else terminal.scrollToLine(Math.round(fraction * after.baseY));
    });
  };

  const foldControl = (start: HostEvent) => ({
    folded: folded.has(start),
    toggle() {
      if (folded.has(start)) folded.delete(start);
      else folded.add(start);
      redraw(start);
    },
  });

  let rewrap: ReturnType<typeof setTimeout> | undefined;
  let columns = terminal.cols;
  const resized = terminal.onResize(({ cols }) => {
    if (cols === columns) return;
    columns = cols;
    // Nothing drawn yet (the first fits while fonts load): nothing to wrap again.
    if (shown.list().length === 0) return;
    clearTimeout(rewrap);
    rewrap = setTimeout(() => redraw(), REWRAP_DELAY_MS);
  });

  return {
    show(events, replay) {
      if (replay) shown.clear();
      for (const event of events) {
        if (event.type === 'status') status = event;
        shown.add(event);
      }
      draw(events, replay === true);
    },
    drawn: () => drawn,
    dispose() {
      clearTimeout(rewrap);
      resized.dispose();
    },
  };
}
