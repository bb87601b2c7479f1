import {
  ANSI_STYLES,
  loadHighlighter,
  TranscriptRenderer,
  type ChatStatus,
  type HacBridge,
  type HostEvent,
} from './core-types.js';
import { HistoryWalker, promptAction } from './prompt-keys.js';
import { createTranscriptView } from './transcript-view.js';
import { connectWebSocketBridge } from './ws-bridge.js';

declare global {
  interface Window {
    /** The Electron preload's bridge; in a browser (`hac web`) the page makes its own over a WebSocket. */
    hac?: HacBridge;
    /** Resolves when everything received so far is on screen (tests and the bench wait on it). */
    hacIdle?: () => Promise<void>;
    /** Read-only view of the transcript buffer for tests: every line's text, one line's cell widths and styles. */
    hacTranscript?: { lines(): string[]; widths(line: number): number[]; styles(line: number): string[] };
  }
}

const QUIT_WINDOW_MS = 2_000;
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const prompt = byId<HTMLTextAreaElement>('prompt');
const choices = byId<HTMLDivElement>('choices');
const statusBar = byId<HTMLElement>('status');
const mac = /Mac|iPhone|iPad/.test(navigator.platform);

const bridge: HacBridge = window.hac ?? connectWebSocketBridge(socketUrl());
const view = createTranscriptView(byId('transcript'), (url) => void bridge.openLink(url));
const transcript = new TranscriptRenderer(ANSI_STYLES);
const history = new HistoryWalker();
void bridge.history().then((entries) => history.loadOlder(entries));

let asking = false;
let busy = false;
let ended = false;
let lastIdleInterrupt = 0;
let drawn = Promise.resolve();
window.hacIdle = () => drawn;
window.hacTranscript = {
  lines() {
    const buffer = view.terminal.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < buffer.length; y++) {
      const line = buffer.getLine(y);
      const text = line?.translateToString(true) ?? '';
      if (line?.isWrapped && out.length) out[out.length - 1] += text;
      else out.push(text);
    }
    return out;
  },
  widths(y) {
    const line = view.terminal.buffer.active.getLine(y);
    const widths: number[] = [];
    for (let x = 0; line && x < line.length; x++) {
      const width = line.getCell(x)?.getWidth() ?? 0;
      if (width > 0 && line.getCell(x)?.getChars()) widths.push(width);
    }
    return widths;
  },
  styles(y) {
    // One entry per character: its text and the styles it is drawn with (b bold, i italic, u underline, c colour).
    const line = view.terminal.buffer.active.getLine(y);
    const styles: string[] = [];
    for (let x = 0; line && x < line.length; x++) {
      const cell = line.getCell(x);
      if (!cell?.getChars()) continue;
      const flags = [
        cell.isBold() && 'b',
        cell.isItalic() && 'i',
        cell.isUnderline() && 'u',
        !cell.isFgDefault() && 'c',
      ];
      styles.push(`${cell.getChars()}:${flags.filter(Boolean).join('')}`);
    }
    return styles;
  },
};

bridge.onEvents((events) => {
  let text = '';
  for (const event of events) {
    text += transcript.render(event);
    react(event);
  }
  // Written at once (xterm queues and parses in order); the last write's callback means all is on screen.
  if (text) drawn = view.write(text);
});

let markdown: boolean | undefined;

/** Answers as styled Markdown, as config.json says (issue 21); xterm.js shows OSC 8 links. */
function showMarkdown(on: boolean): void {
  if (on === markdown) return;
  markdown = on;
  transcript.markdown = on ? { hyperlinks: true } : undefined;
  if (on)
    void loadHighlighter().then(
      (highlight) => (transcript.highlighter = highlight),
      () => undefined, // unhighlighted code is still code
    );
}

/** What an event changes besides the transcript. */
function react(event: HostEvent): void {
  switch (event.type) {
    case 'prompt':
      asking = true;
      showState();
      showChoices(event.choices ?? []);
      prompt.placeholder = event.kind === 'confirm' ? 'Y or N' : event.kind === 'choice' ? 'a number' : '';
      return;
    case 'input':
      asking = false;
      showState();
      showChoices([]);
      prompt.placeholder = '';
      return;
    case 'status':
      busy = event.status.busy;
      showMarkdown(event.status.markdown);
      showState();
      statusBar.textContent = statusLine(event.status);
      return;
    case 'exit':
      ended = true;
      prompt.disabled = true;
      statusBar.textContent = 'hac has ended. You can close this window.';
      return;
  }
}

function statusLine(status: ChatStatus): string {
  const model = status.model ? `${status.model} (${status.provider})` : 'no model: /set-model';
  const mcp = status.mcp.configured
    ? `MCP ${status.mcp.connected}/${status.mcp.configured}`
    : 'no MCP servers';
  return [model, `tools: ${status.toolMode}`, mcp, status.busy ? 'working… (Esc cancels)' : 'ready'].join(
    '  ·  ',
  );
}

function showChoices(options: string[]): void {
  choices.replaceChildren(
    ...options.map((label, i) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = `${i + 1}) ${label}`;
      button.addEventListener('click', () => {
        void bridge.submit(String(i + 1));
        prompt.focus();
      });
      return button;
    }),
  );
  choices.hidden = options.length === 0;
}

prompt.addEventListener('keydown', (event) => {
  if (ended) return;
  const hasSelection = view.terminal.hasSelection() || prompt.selectionStart !== prompt.selectionEnd;
  const action = promptAction(event, {
    caretOnFirstLine: !prompt.value.slice(0, prompt.selectionStart).includes('\n'),
    caretOnLastLine: !prompt.value.slice(prompt.selectionEnd).includes('\n'),
    hasSelection,
    mac,
  });
  switch (action) {
    case 'default':
      if ((mac ? event.metaKey : event.ctrlKey) && event.code === 'KeyC' && view.terminal.hasSelection()) {
        event.preventDefault();
        void navigator.clipboard.writeText(view.terminal.getSelection());
      }
      return;
    case 'submit':
      event.preventDefault();
      return submit();
    case 'history-previous':
    case 'history-next': {
      const entry = action === 'history-previous' ? history.previous(prompt.value) : history.next();
      if (entry === undefined) return;
      event.preventDefault();
      setPrompt(entry);
      return;
    }
    case 'complete':
      event.preventDefault();
      return void complete();
    case 'interrupt':
      event.preventDefault();
      return void interrupt();
    case 'escape':
      if (!busy) return;
      event.preventDefault();
      return void bridge.interrupt();
    case 'clear-screen':
      event.preventDefault();
      view.terminal.clear();
      return;
  }
});
prompt.addEventListener('input', fitPrompt);
// A click on the transcript (not a selection) gives the prompt its focus back.
byId('transcript').addEventListener('mouseup', () => {
  if (!view.terminal.hasSelection()) prompt.focus();
});
prompt.focus();

/** `data-state` on <body>: ready, working (a turn or command runs) or asking (a question waits for a reply). */
function showState(): void {
  document.body.dataset.state = asking ? 'asking' : busy ? 'working' : 'ready';
}

function submit(): void {
  const text = prompt.value;
  if (busy && !asking && text.trim()) {
    // Typed ahead: the line stays in the prompt until the answer is done (no second turn mid-turn).
    statusBar.textContent =
      'Still answering: your message stays here until it is done (Esc cancels the answer).';
    return;
  }
  if (!asking && text.trim()) history.add(text.trim());
  setPrompt('');
  void bridge.submit(text);
  prompt.focus();
}

async function complete(): Promise<void> {
  const typed = prompt.value;
  const found = await bridge.complete(typed);
  if (prompt.value !== typed) return; // typed on meanwhile
  if (found.length === 1) setPrompt(`${found[0]} `);
  else if (found.length > 1) drawn = view.write(`\n${found.join('  ')}\n`);
}

/** Ctrl+C (R-DESK-3): cancels, answers no; at an idle prompt clears it, and a second press on empty quits. */
async function interrupt(): Promise<void> {
  const result = await bridge.interrupt();
  if (result !== 'idle') return;
  if (prompt.value) return setPrompt('');
  const now = Date.now();
  if (now - lastIdleInterrupt <= QUIT_WINDOW_MS) return void bridge.submit('/exit');
  lastIdleInterrupt = now;
  statusBar.textContent = 'Press Ctrl+C again to quit.';
}

function setPrompt(value: string): void {
  prompt.value = value;
  prompt.setSelectionRange(value.length, value.length);
  fitPrompt();
}

function fitPrompt(): void {
  prompt.style.height = 'auto';
  prompt.style.height = `${prompt.scrollHeight}px`;
}

function socketUrl(): string {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  return `ws://${location.host}/ws?token=${encodeURIComponent(token)}`;
}
