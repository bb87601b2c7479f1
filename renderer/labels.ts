/**
 * Every word the window itself shows or says (button texts, accessible names, tooltips, hints, the status line's
 * words), in one table, so the window can one day follow the user's language. What the conversation prints comes
 * from hac's core and is not here.
 */
export const LABELS = {
  // The page's own controls (set on them at start, see labelPage).
  page: 'hac',
  heading: 'hac, a conversation with a model',
  conversation: 'Conversation',
  gettingStarted: 'Getting started',
  completions: 'Completions',
  serverForm: 'What an MCP server asks',
  attachments: 'Pictures for the next message',
  prompt: 'Message, command or reply',
  sessions: 'Sessions',
  sessionsTitle: 'Sessions (Ctrl+K)',
  attach: 'Attach a picture',
  attachTitle: 'Attach a picture (or paste or drop one)',
  stop: '■ Stop',
  stopTitle: 'Stop the answer (Esc)',
  messages: 'Messages',
  toolOutput: 'What the tool returned',
  close: 'Close',
  status: 'Status',
  choices: 'Answers to the question',

  // Buttons on the transcript's lines.
  messageMenu: 'Message actions',
  messageMenuTitle: 'Ask again, edit or take back this message',
  show: 'Show',
  showOutputTitle: 'Show what the tool returned',
  hide: 'Hide',
  showThinkingTitle: 'Show the model’s thinking',
  hideThinkingTitle: 'Hide the model’s thinking',
  takenBack: 'Taken back: the model no longer sees this exchange',
  copy: 'Copy',
  copied: 'Copied',
  copyTitle: 'Copy this code',
  latest: '↓ Latest',
  codeBlock: (language: string) => (language ? `Code, ${language}` : 'Code'),
  // A tool's view (MCP Apps) in the transcript.
  viewFullWindow: 'Full window',
  viewFullWindowTitle: 'Show this view over the whole window (Esc comes back)',
  viewBack: 'Back to the conversation',
  viewFailed: (reason: string) => `This view cannot be shown: ${reason}`,
  latestTitle: 'Scroll to the newest lines (Ctrl+End)',

  // A message's menu.
  askAgain: 'Ask again',
  edit: 'Edit',
  takeBack: 'Take back',
  takeBackFromHere: (exchanges: number) => `Take back from here (${exchanges} exchanges)`,
  alreadyTakenBack: 'Already taken back',

  // Questions and their answers.
  yes: 'Yes',
  no: 'No',
  always: 'Always',
  newConversation: 'Start a new conversation',
  confirmHint: 'Y, N or A (always)',
  choiceHint: 'a number',

  // What the message log calls each message, for a screen reader.
  you: 'You',
  thinking: 'Thinking',
  answer: 'Answer',
  toolResult: 'Tool result',
  toolCall: 'Tool call',
  question: 'Question',
  output: 'Output',
  notice: 'Notice',
  error: 'Error',
  moreCharacters: (count: number) =>
    `(${count.toLocaleString('en-US')} more characters, in the transcript and the session file)`,

  // A server's form.
  serverAsks: (server: string, message: string) => `MCP server "${server}" asks: ${message}`,
  serverAsksToOpen: (server: string, message: string) =>
    `MCP server "${server}" asks you to open a page: ${message}`,
  draftRestored: 'Your unsent text is back in the prompt (Ctrl+C clears it).',
  submit: 'Submit',
  openPage: 'Open page',
  pageHost: 'host: ',
  notOpenable: 'hac opens only http and https addresses: this one is shown, not opened.',
  done: 'Done',
  decline: 'Decline',
  cancel: 'Cancel',
  dateTimeHint: 'YYYY-MM-DDTHH:MM:SSZ',

  // Pictures.
  removePicture: (name: string) => `Remove ${name}`,
  openPicture: (name: string) => `${name} (click to open)`,

  // The session list.
  searchSessions: 'Search sessions',
  searchSessionsHint: 'Search sessions (all the words)',
  noMatch: 'No session holds all those words.',
  noSessions: 'No saved sessions yet.',
  downloaded: (file: string) => `Downloaded ${file}.`,
  thisWindow: ' (this window)',
  unreadable: (why: string) => `unreadable: ${why}`,
  messageCount: (when: string, count: number) => `${when} · ${count} messages`,
  sessionActionsMenu: 'Session actions',
  sessionActions: (title: string) => `Actions for “${title}”`,
  openSession: (title: string) => `Open “${title}”`,
  openInNewWindow: (title: string) => `Open “${title}” in a new window`,
  renameSession: (title: string) => `Rename “${title}”`,
  exportMarkdown: (title: string) => `Export “${title}” as Markdown (.md)`,
  exportJson: (title: string) => `Export “${title}” as JSON (.json)`,
  deleteSession: (title: string) => `Delete “${title}”`,
  deleteSure: (title: string) => `Choose again to delete “${title}”`,
  newTitle: 'New title',

  // The status line.
  webStopped: 'hac web has stopped: this tab comes back by itself when it runs again on this port.',
  ended: 'This conversation has ended.',
  noModel: 'no model: /set-model',
  needSignIn: (count: number) => ` (${count} need sign-in: /mcp login)`,
  noServers: 'no MCP servers',
  waitingForAnswer: 'waiting for your answer (Esc cancels)',
  working: 'working… (Esc cancels)',
  ready: 'ready',

  // The welcome of an empty window.
  hints: [
    ['/help', 'every command, and what it does'],
    ['/set-model', 'choose the model (OpenAI, Anthropic, Ollama: config.json in hac’s home folder)'],
    ['/mcp', 'the MCP servers and their tools (add servers to mcp-servers.json beside config.json)'],
  ],
  serversConnected: (connected: number, configured: number) =>
    `${connected} of ${configured} MCP servers connected`,
  noModelAsked: (servers: string) => `No model yet: answer the question above to set one up (${servers}).`,
  noModelYet: (servers: string) => `No model yet: choose one with /set-model; ${servers}.`,
  readyWith: (model: string, provider: string | undefined, servers: string) =>
    `Ready with ${model} (${provider}); ${servers}.`,
} as const;

/** The names and tooltips of the page's own elements (index.html holds no words), set from the table at start. */
export function labelPage(byId: (id: string) => HTMLElement): void {
  document.title = LABELS.page;
  byId('heading').textContent = LABELS.heading;
  const name = (id: string, label: string, title?: string) => {
    byId(id).setAttribute('aria-label', label);
    if (title) byId(id).title = title;
  };
  name('transcript', LABELS.conversation);
  name('welcome', LABELS.gettingStarted);
  name('completions', LABELS.completions);
  name('server-form', LABELS.serverForm);
  name('choices', LABELS.choices);
  name('attachments', LABELS.attachments);
  name('prompt', LABELS.prompt);
  name('sessions-button', LABELS.sessions, LABELS.sessionsTitle);
  name('attach', LABELS.attach, LABELS.attachTitle);
  name('status', LABELS.status);
  name('messages', LABELS.messages);
  name('sessions', LABELS.sessions);
  name('tool-output', LABELS.toolOutput);
  byId('stop').textContent = LABELS.stop; // its name: the word says what it does
  byId('stop').title = LABELS.stopTitle;
  byId('tool-output').querySelector('button')!.textContent = LABELS.close;
}
