import { createAttachments } from './attachments.js';
import { createChatState } from './chat-state.js';
import { createChoices } from './choices.js';
import { createCodeCopy } from './code-copy.js';
import { keepFocusInside } from './focus-cycle.js';
import { fontStack, loadGridFont } from './fonts.js';
import { InlineViews } from './inline-views.js';
import { createJumpToLatest } from './jump-to-latest.js';
import { labelPage } from './labels.js';
import { createLineMarks } from './line-marks.js';
import { createMessageLog } from './message-log.js';
import type { HacBridge } from './core-types.js';
import { createPromptInput } from './prompt-input.js';
import { createServerForm } from './server-form.js';
import { createSessionList } from './session-list.js';
import { createStatusLine } from './status-line.js';
import { createStopButton } from './stop-button.js';
import { installTestHooks } from './test-hooks.js';
import { createTranscriptOutput } from './transcript-output.js';
import { createTranscriptView } from './transcript-view.js';
import { createWelcome } from './welcome.js';
import { connectWebSocketBridge } from './ws-bridge.js';

declare global {
  interface Window {
    /** The Electron preload's bridge; in a browser (`hac web`) the page makes its own over a WebSocket. */
    hac?: HacBridge;
  }
}

// The page: a transcript above, a prompt below, a status line under it, wired to one conversation's bridge.
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
labelPage(byId);
document.documentElement.style.setProperty('--font', fontStack(navigator.languages));
await loadGridFont();
const bridge = window.hac ?? connectWebSocketBridge(socketUrl(), () => comeBack());
const view = createTranscriptView(byId('transcript'), (url) => void bridge.openLink(url));
const state = createChatState(document.body);
const inlineViews = new InlineViews(view.terminal, bridge, () => byId('prompt').focus());
const output = createTranscriptOutput(
  view,
  createLineMarks(
    view,
    byId('tool-output'),
    // A message's menu sends its command as if typed, and the prompt has the keyboard again.
    (command) => {
      void bridge.submit(command);
      byId('prompt').focus();
    },
    state,
  ),
  inlineViews,
);
const status = createStatusLine(byId('status'), state);
const messages = createMessageLog(byId('messages'));
const prompt = createPromptInput({
  textarea: byId('prompt'),
  completions: byId('completions'),
  bridge,
  view,
  state,
  status,
});
const choices = createChoices(byId('choices'), state, {
  reply(text) {
    void bridge.submit(text);
    prompt.focus();
  },
  restart: () => location.reload(),
});
const stop = createStopButton(byId('stop'), state, () => {
  void bridge.interrupt();
  prompt.focus();
});
const welcome = createWelcome(byId('welcome'));
const attachments = createAttachments({
  chips: byId('attachments'),
  button: byId('attach'),
  picker: byId('attach-file'),
  prompt: byId('prompt'),
  bridge,
});
const form = createServerForm(byId('server-form'), bridge, () => prompt.focus());
const sessions = createSessionList(byId('sessions'), byId('sessions-button'), bridge, () => prompt.focus());
// "Open in a new window" from the session list: this page opens that session once, and forgets the request.
const resume = new URLSearchParams(location.search).get('resume');
if (resume) {
  const url = new URL(location.href);
  url.searchParams.delete('resume');
  history.replaceState(null, '', url.href);
  void bridge.manageSession({ action: 'open', name: resume });
}
const removeJump = createJumpToLatest(view, () => prompt.focus());
const removeCodeCopy = createCodeCopy(view);
const removeTestHooks = installTestHooks(view, output);

/** This tab's session file, once saved: what it offers again when `hac web` comes back after a restart. */
let session: string | undefined;
const stopEvents = bridge.onEvents((events, replay) => {
  output.show(events, replay);
  messages.show(events, replay);
  for (const event of events) {
    if (event.type === 'status') session = event.status.session ?? session;
    // A sign-in page the core asks to open; through the bridge's link rules, like any link.
    if (event.type === 'open-link' && !replay) void bridge.openLink(event.url);
    state.react(event);
    choices.react(event);
    prompt.react(event, replay);
    status.react(event);
    stop.react(event);
    welcome.react(event);
    attachments.react(event);
    form.react(event);
  }
});
byId('tool-output').addEventListener('close', () => prompt.focus());
const removeFocusCycle = keepFocusInside(byId('app'));
// Esc from any button brings the keyboard back to the prompt, and cancels an answer or a question as it does there
// (a dialog closes itself with Esc first; the prompt and a server's form handle their own).
addEventListener('keydown', (event) => {
  if (event.key !== 'Escape' || event.isComposing || event.keyCode === 229 || event.defaultPrevented) return;
  if (document.querySelector('dialog[open]')) return;
  if (document.activeElement === byId('prompt')) return;
  prompt.focus();
  if (state.busy || state.asking) void bridge.interrupt();
});
prompt.focus();

addEventListener('pagehide', () => {
  stopEvents();
  removeTestHooks();
  removeJump();
  removeCodeCopy();
  removeFocusCycle();
  output.dispose();
  inlineViews.dispose();
  prompt.dispose();
  choices.dispose();
  attachments.dispose();
  form.dispose();
  sessions.dispose();
  stop.dispose();
  view.dispose();
});

/** `hac web` is back after a restart: the page starts again and opens this tab's conversation from its file. */
function comeBack(): void {
  const url = new URL(location.href);
  if (session) url.searchParams.set('resume', session);
  location.replace(url.href);
}

function socketUrl(): string {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  return `ws://${location.host}/ws?token=${encodeURIComponent(token)}`;
}
