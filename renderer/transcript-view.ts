import { FitAddon } from '@xterm/addon-fit';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { Terminal } from '@xterm/xterm';
import { DARK, LIGHT } from './palette.js';

/** The transcript's terminal, a write that resolves once the text is on screen, and its disposer. */
export interface TranscriptView {
  /** The element the terminal was opened in. */
  element: HTMLElement;
  terminal: Terminal;
  write(text: string): Promise<void>;
  dispose(): void;
}

/**
 * The transcript: an output-only xterm.js terminal with the DOM renderer (selectable, readable by
 * assistive technology and tests), Unicode 11 widths so CJK and emoji take the columns they take in the CLI,
 * 10,000 lines of scrollback, re-fitted on every resize, links opened through the bridge.
 */
export function createTranscriptView(element: HTMLElement, openLink: (url: string) => void): TranscriptView {
  const dark = matchMedia('(prefers-color-scheme: dark)');
  const terminal = new Terminal({
    disableStdin: true, // xterm's own input drops syllables (xterm.js #6089): the prompt is a native textarea
    scrollback: 10_000,
    scrollOnEraseInDisplay: true, // Ctrl+L clears the screen into the scrollback, as a terminal does
    convertEol: true,
    allowProposedApi: true, // the unicode addon
    fontFamily: getComputedStyle(document.documentElement).getPropertyValue('--font').trim() || 'monospace',
    fontSize: 14,
    lineHeight: 1, // the CJK monospace fonts first in the stack are tall already
    cursorInactiveStyle: 'none',
    theme: dark.matches ? DARK : LIGHT,
    // OSC 8 hyperlinks of Markdown links in answers: opened like any other link.
    linkHandler: { activate: (_event, uri) => openLink(uri) },
  });
  const fit = new FitAddon();
  terminal.loadAddon(fit);
  terminal.loadAddon(new Unicode11Addon());
  terminal.unicode.activeVersion = '11';
  terminal.loadAddon(new WebLinksAddon((_event, uri) => openLink(uri)));
  terminal.open(element);
  // xterm's hidden input is never reached with Tab: nothing is typed into the transcript.
  terminal.textarea?.setAttribute('tabindex', '-1');
  skipEmptySelectionRedraws(terminal);
  terminal.write('\x1b[?25l'); // no cursor: the prompt below is where typing happens
  fit.fit();
  const resizes = new ResizeObserver(() => fit.fit());
  resizes.observe(element);
  const measureAgain = remeasureWhenFontsLoad(terminal);
  const followTheme = () => (terminal.options.theme = dark.matches ? DARK : LIGHT);
  dark.addEventListener('change', followTheme);
  return {
    element,
    terminal,
    // Resolves when xterm has parsed the text (its write callback): callers that need it on screen wait.
    write: (text) => new Promise((resolve) => terminal.write(text, resolve)),
    dispose() {
      resizes.disconnect();
      measureAgain();
      dark.removeEventListener('change', followTheme);
      terminal.dispose();
    },
  };
}

/**
 * The page's font comes in slices that load when their characters first show. xterm's DOM renderer measures each
 * character once and keeps the width, so one measured before its slice came would keep a stand-in's width (and
 * the spacing that fits it into its cells, too wide or too narrow). When one of the page's own faces has loaded,
 * those kept widths are dropped and the screen drawn again. This reaches into xterm's internals (setting the font
 * option again instead clears the rows and can leave them blank till the next write), so it does nothing if their
 * shape is not the one expected (the pixel tests in window-cjk-text.test.ts say so). Returns the remover.
 */
function remeasureWhenFontsLoad(terminal: Terminal): () => void {
  type Internals = { _core?: { _renderService?: { _renderer?: { value?: { _widthCache?: unknown } } } } };
  const widths = (terminal as unknown as Internals)._core?._renderService?._renderer?.value?._widthCache as
    { clear?: () => void } | undefined;
  const family = terminal.options.fontFamily ?? 'monospace';
  // Only the page's own faces (a system font is there from the start), and every load of one frame at once.
  let pending = 0;
  const remeasure = (event: FontFaceSetLoadEvent) => {
    if (pending || !event.fontfaces.some((face) => family.includes(face.family.replace(/"/g, "'")))) return;
    pending = requestAnimationFrame(() => {
      pending = 0;
      widths?.clear?.();
      terminal.refresh(0, terminal.rows - 1);
    });
  };
  document.fonts.addEventListener('loadingdone', remeasure);
  return () => document.fonts.removeEventListener('loadingdone', remeasure);
}

type SelectionRedraw = (start?: [number, number], end?: [number, number], columnMode?: boolean) => void;

/**
 * xterm's DOM renderer draws every row again whenever its selection service asks it to, and that service asks
 * after every scroll, selection or not (xterm.js #4633): while an answer streams in, or a resumed conversation is
 * drawn, each frame drew the screen twice. With no selection before or after, there is nothing to draw again.
 * This reaches into xterm's internals, so it does nothing if their shape is not the one expected (the e2e test
 * "a-scroll-without-a-selection-draws-each-row-once" says so).
 */
function skipEmptySelectionRedraws(terminal: Terminal): void {
  type Internals = {
    _core?: { _renderService?: { _renderer?: { value?: { handleSelectionChanged?: SelectionRedraw } } } };
  };
  const renderer = (terminal as unknown as Internals)._core?._renderService?._renderer?.value;
  const redraw = renderer?.handleSelectionChanged;
  if (!renderer || typeof redraw !== 'function') return;
  let selected = false;
  renderer.handleSelectionChanged = (start, end, columnMode) => {
    const selects = start !== undefined && end !== undefined;
    if (!selects && !selected) return;
    selected = selects;
    redraw.call(renderer, start, end, columnMode);
  };
}
