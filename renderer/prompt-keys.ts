/** What of a keydown the prompt looks at (a KeyboardEvent fits). */
export interface KeyInfo {
  key: string;
  /** The physical key: under an IME `key` is "Process", `code` still says which key it was. */
  code: string;
  keyCode: number;
  isComposing: boolean;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/** Where the caret is, for Up/Down (history only from the first/last line). */
export interface PromptState {
  caretOnFirstLine: boolean;
  caretOnLastLine: boolean;
  /** A selection in the page (the transcript or the prompt): Ctrl+C copies it. */
  hasSelection: boolean;
  /** macOS uses Cmd where others use Ctrl. */
  mac: boolean;
  /** Nothing typed: Tab then leaves the prompt for the window's buttons, as anywhere on a page. */
  empty: boolean;
}

/** What a key does at the prompt; `default` lets the textarea (and the IME) have it untouched. */
export type PromptAction =
  | 'default'
  | 'submit'
  | 'history-previous'
  | 'history-next'
  | 'complete'
  | 'interrupt'
  | 'escape'
  | 'clear-screen'
  | 'scroll-page-up'
  | 'scroll-page-down'
  | 'scroll-top'
  | 'scroll-bottom';

/**
 * The prompt's key rules, pure so every IME timing can be tested without a browser. While an
 * IME composes (`isComposing`, or keyCode 229 which Chromium sends for keys the IME consumed, also as key
 * "Enter" on macOS) every key belongs to the IME: nothing here acts, so nothing is sent mid-composition and the
 * textarea's value is never touched. Acted-on keys are matched by `code`, never by `key` alone.
 */
export function promptAction(event: KeyInfo, state: PromptState): PromptAction {
  if (event.isComposing || event.keyCode === 229) return 'default';
  const command = state.mac ? event.metaKey : event.ctrlKey;
  const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
  if (command && !event.shiftKey && !event.altKey) {
    if (event.code === 'KeyC') return state.hasSelection ? 'default' : 'interrupt';
    if (event.code === 'KeyL') return 'clear-screen';
    if (event.key === 'Home') return 'scroll-top';
    if (event.key === 'End') return 'scroll-bottom';
    return 'default';
  }
  // The transcript scrolls from the prompt: PageUp/PageDown, with Shift too (the terminal habit).
  if (!event.ctrlKey && !event.metaKey && !event.altKey) {
    if (event.key === 'PageUp') return 'scroll-page-up';
    if (event.key === 'PageDown') return 'scroll-page-down';
  }
  // Ctrl+C on macOS too: the terminal habit (Cmd+C copies).
  if (state.mac && event.ctrlKey && !event.metaKey && event.code === 'KeyC') return 'interrupt';
  if (!plain) return 'default';
  switch (event.key) {
    case 'Enter':
      return event.shiftKey ? 'default' : 'submit'; // Shift+Enter: a line break in the message
    case 'Escape':
      return 'escape';
    case 'Tab':
      // Shift+Tab, or Tab with nothing typed, moves the focus on (the keyboard's way to the buttons); Tab on a
      // line completes it.
      return event.shiftKey || state.empty ? 'default' : 'complete';
    case 'ArrowUp':
      return state.caretOnFirstLine && !event.shiftKey ? 'history-previous' : 'default';
    case 'ArrowDown':
      return state.caretOnLastLine && !event.shiftKey ? 'history-next' : 'default';
    default:
      return 'default';
  }
}

/**
 * Walks the input history with Up/Down like readline: the line being typed is kept and comes back after the
 * newest entry.
 */
export class HistoryWalker {
  private index = -1;
  private draft = '';

  constructor(private entries: string[] = []) {}

  /**
   * The saved entries (newest first, the shared `history` file), older than anything submitted here meanwhile:
   * the file may arrive after the first lines were sent.
   */
  loadOlder(entries: string[]): void {
    this.entries = [...this.entries, ...entries.filter((e) => !this.entries.includes(e))];
  }

  /** A submitted line becomes the newest entry (a repeat of the newest is not added twice). */
  add(entry: string): void {
    if (entry && this.entries[0] !== entry) this.entries.unshift(entry);
    this.index = -1;
  }

  /** The older entry, or undefined at the oldest. */
  previous(current: string): string | undefined {
    if (this.index + 1 >= this.entries.length) return undefined;
    if (this.index === -1) this.draft = current;
    this.index++;
    return this.entries[this.index];
  }

  /** The newer entry, the draft after the newest, or undefined when not walking. */
  next(): string | undefined {
    if (this.index === -1) return undefined;
    this.index--;
    return this.index === -1 ? this.draft : this.entries[this.index];
  }
}
