import type { ChatState } from './chat-state.js';
import { createCompletionList } from './completion-list.js';
import { PastedText, PasteFolds, type HacBridge, type HostEvent } from './core-types.js';
import { HistoryWalker, promptAction } from './prompt-keys.js';
import type { StatusLine } from './status-line.js';
import type { TranscriptView } from './transcript-view.js';
import { LABELS } from './labels.js';

/** Where the tab keeps what is typed but not sent. */
const DRAFT_KEY = 'hac-draft';
/** A second Ctrl+C on an empty prompt within this time ends the conversation. */
const QUIT_WINDOW_MS = 2_000;

export interface PromptInputParts {
  textarea: HTMLTextAreaElement;
  /** Where Tab's candidates are listed. */
  completions: HTMLElement;
  bridge: HacBridge;
  view: TranscriptView;
  state: ChatState;
  status: StatusLine;
}

/** The prompt: a native textarea, so the IME composes undisturbed; what its keys do is decided in prompt-keys. */
export interface PromptInput {
  /** `replay`: the event is redrawn after a reload, not new (a `/edit` of before must not refill the prompt). */
  react(event: HostEvent, replay?: boolean): void;
  focus(): void;
  dispose(): void;
}

export function createPromptInput({
  textarea,
  completions,
  bridge,
  view,
  state,
  status,
}: PromptInputParts): PromptInput {
  const mac = /Mac|iPhone|iPad/.test(navigator.platform);
  const history = new HistoryWalker();
  /** Long pastes of this page, each standing in the prompt as a placeholder until the line is sent. */
  const folds = new PasteFolds();
  void bridge.history().then((entries) => history.loadOlder(entries));
  let lastIdleInterrupt = 0;
  /** What the question being asked is about: Escape declines what a server asks, and cancels the rest. */
  let asked: Extract<HostEvent, { type: 'prompt' }>['kind'] | 'form' | undefined;

  const fit = () => {
    textarea.style.height = 'auto';
    textarea.style.height = `${textarea.scrollHeight}px`;
  };
  // The draft survives a reload of the tab (sessionStorage is per tab).
  const saveDraft = () => sessionStorage.setItem(DRAFT_KEY, textarea.value);
  const candidates = createCompletionList(completions, textarea);
  const onInput = () => {
    candidates.close(); // typed on: the candidates were for what stood there before
    fit();
    saveDraft();
  };
  const setValue = (value: string) => {
    textarea.value = value;
    textarea.setSelectionRange(value.length, value.length);
    onInput();
  };
  // The draft comes back after the page has drawn (the first touch of sessionStorage can block for a while).
  // Exactly what the prompt held: an emptied prompt stays empty; a draft brought back says so.
  setTimeout(() => {
    const draft = sessionStorage.getItem(DRAFT_KEY);
    if (!draft || textarea.value) return;
    setValue(draft);
    // Said until the user changes or sends it, so text that reappears is never a surprise.
    status.hold(LABELS.draftRestored);
    textarea.addEventListener('input', () => status.release(), { once: true });
  });

  const submit = () => {
    const text = textarea.value;
    if (state.asking && asked === 'form' && text.trim()) {
      // A server's form has its own buttons: the line stays here for after it.
      status.say('Answer the form above first (Submit, Decline or Esc): your line stays here.');
      return;
    }
    if (state.busy && !state.asking && text.trim()) {
      // Typed ahead: the line stays in the prompt until the answer is done (no second turn mid-turn).
      status.say('Still answering: your message stays here until it is done (Esc cancels the answer).');
      return;
    }
    if (!state.asking && text.trim()) history.add(text.trim());
    status.release();
    setValue('');
    view.terminal.scrollToBottom(); // the message and its answer in view, wherever the transcript was scrolled
    void bridge.submit(folds.expand(text));
    textarea.focus();
  };

  const complete = async () => {
    const typed = textarea.value;
    const found = await bridge.complete(typed);
    if (textarea.value !== typed) return; // typed on meanwhile
    if (found.length === 1) setValue(`${found[0]} `);
    else if (found.length > 1) candidates.show(found, (candidate) => setValue(`${candidate} `));
  };

  /** Ctrl+C: cancels or answers no; at an idle prompt clears it, and a second press on an empty one quits. */
  const interrupt = async () => {
    const result = await bridge.interrupt();
    if (result !== 'idle') return;
    if (textarea.value) {
      status.release();
      return setValue('');
    }
    const now = Date.now();
    if (now - lastIdleInterrupt <= QUIT_WINDOW_MS) return void bridge.submit('/exit');
    lastIdleInterrupt = now;
    status.say('Press Ctrl+C again to end this conversation.');
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (state.ended || candidates.key(event)) return;
    const hasSelection = view.terminal.hasSelection() || textarea.selectionStart !== textarea.selectionEnd;
    const action = promptAction(event, {
      caretOnFirstLine: !textarea.value.slice(0, textarea.selectionStart).includes('\n'),
      caretOnLastLine: !textarea.value.slice(textarea.selectionEnd).includes('\n'),
      hasSelection,
      mac,
      empty: textarea.value === '',
    });
    switch (action) {
      case 'default': {
        // Copy copies what is selected where the user selected it: the prompt's own selection natively, else
        // the transcript's (there is only ever one of the two, see below).
        const copy = (mac ? event.metaKey : event.ctrlKey) && event.code === 'KeyC';
        const promptSelection = textarea.selectionStart !== textarea.selectionEnd;
        if (copy && !promptSelection && view.terminal.hasSelection()) {
          event.preventDefault();
          void navigator.clipboard.writeText(view.terminal.getSelection());
        }
        return;
      }
      case 'submit':
        event.preventDefault();
        return submit();
      case 'history-previous':
      case 'history-next': {
        const entry = action === 'history-previous' ? history.previous(textarea.value) : history.next();
        if (entry === undefined) return;
        event.preventDefault();
        setValue(entry);
        return;
      }
      case 'complete':
        event.preventDefault();
        return void complete();
      case 'interrupt':
        event.preventDefault();
        return void interrupt();
      case 'escape':
        if (!state.busy && !state.asking) return;
        event.preventDefault();
        if (state.asking && asked === 'field') return void bridge.answerForm({ action: 'decline' });
        return void bridge.interrupt();
      case 'clear-screen':
        // The screen only: what was on it goes into the scrollback (scrollOnEraseInDisplay), nothing is lost.
        event.preventDefault();
        void view.write('\x1b[2J\x1b[H');
        return;
      case 'scroll-page-up':
      case 'scroll-page-down':
        event.preventDefault();
        view.terminal.scrollPages(action === 'scroll-page-up' ? -1 : 1);
        return;
      case 'scroll-top':
        event.preventDefault();
        view.terminal.scrollToTop();
        return;
      case 'scroll-bottom':
        event.preventDefault();
        view.terminal.scrollToBottom();
        return;
    }
  };
  // Typing always lands in the prompt: a click or a selection in the transcript gives the focus back (xterm keeps
  // its selection), so the next keys, Ctrl+C included, reach the prompt's rules.
  const onTranscriptClick = () => textarea.focus({ preventScroll: true });
  // One selection at a time, so Copy knows which one the user means: selecting in one place drops the other.
  const onTranscriptSelection = view.terminal.onSelectionChange(() => {
    if (view.terminal.hasSelection())
      textarea.setSelectionRange(textarea.selectionEnd, textarea.selectionEnd);
  });
  const onPromptSelection = () => {
    if (textarea.selectionStart !== textarea.selectionEnd) view.terminal.clearSelection();
  };
  // Pasted text stays text: a copied log's colour codes and control bytes are dropped, as in the terminal, and a
  // long paste stands in the prompt as one placeholder (sent whole). Any other paste goes in the browser's own way;
  // these are inserted, still as one step of Undo.
  const onPaste = (event: ClipboardEvent) => {
    const text = event.clipboardData?.getData('text/plain');
    if (event.defaultPrevented || !text) return; // a picture (see attachments), or nothing to paste
    const inserted = folds.fold(new PastedText().push(text));
    if (inserted === text.replace(/\r\n?/g, '\n')) return;
    event.preventDefault();
    document.execCommand('insertText', false, inserted);
  };
  textarea.addEventListener('keydown', onKeyDown);
  textarea.addEventListener('input', onInput);
  textarea.addEventListener('paste', onPaste);
  textarea.addEventListener('select', onPromptSelection);
  view.element.addEventListener('mouseup', onTranscriptClick);

  return {
    react(event, replay = false) {
      if (event.type === 'prompt' || event.type === 'form')
        asked = event.type === 'form' ? 'form' : event.kind;
      if (event.type === 'prompt')
        textarea.placeholder =
          event.kind === 'confirm' ? LABELS.confirmHint : event.kind === 'choice' ? LABELS.choiceHint : '';
      else if (event.type === 'input' || event.type === 'prompt-withdrawn') textarea.placeholder = '';
      else if (event.type === 'exit') textarea.disabled = true;
      else if (event.type === 'draft' && !replay) {
        setValue(event.text);
        textarea.focus();
      }
    },
    focus: () => textarea.focus(),
    dispose() {
      candidates.dispose();
      textarea.removeEventListener('keydown', onKeyDown);
      textarea.removeEventListener('input', onInput);
      textarea.removeEventListener('paste', onPaste);
      textarea.removeEventListener('select', onPromptSelection);
      view.element.removeEventListener('mouseup', onTranscriptClick);
      onTranscriptSelection.dispose();
    },
  };
}
