import type { HostEvent, InterruptResult } from '../types/host-event.js';

/**
 * `window.hac`: the one object the page talks to, the same in the Electron window (preload over IPC)
 * and in `hac web` (one WebSocket), so the renderer code is identical. Named methods only; calls reach the
 * conversation in the order they were made; events arrive in batches.
 */
export interface HacBridge {
  /** A line typed at the prompt: a command, a message, or the reply to what is being asked. */
  submit(text: string): Promise<void>;
  /** Ctrl+C / Escape; on `idle` the page does its own idle action (clear the input, quit on a second press). */
  interrupt(): Promise<InterruptResult>;
  /** Tab: the completions of what is typed. */
  complete(prefix: string): Promise<string[]>;
  /** The input history shared with the CLI, newest first. */
  history(): Promise<string[]>;
  /** Opens an http(s) link in the system browser (after the host's checks). */
  openLink(url: string): Promise<void>;
  /** A picture pasted, dropped or picked in the window (base64), for the next message; resolves with whether it was taken. */
  attach(name: string, data: string): Promise<boolean>;
  /** Removes attachment `index` (0-based, as the last `attachments` event listed them). */
  detach(index: number): Promise<void>;
  /**
   * The answer to an MCP server's form (the last `form` event): the values as the inputs hold them (text as typed,
   * yes/no as booleans, several choices as a list), or decline / cancel. Resolves with whether it was taken; values
   * that do not fit come back as a `form` event with `errors`.
   */
  answerForm(answer: FormReply): Promise<boolean>;
  /** The session list: the recent sessions, or those holding every word of `query`. */
  sessions(query: string): Promise<SessionView[]>;
  /** Opens, renames, deletes (to the trash) or exports a session of the list; resolves with one line saying what happened. */
  manageSession(request: SessionRequest): Promise<string>;
  /**
   * A session of the list as a file for the page to download (the page's machine may not be hac's: `hac web` over
   * SSH): Markdown with its pictures inside, or the session file as saved.
   */
  downloadSession(name: string, format: 'md' | 'json'): Promise<SessionDownload>;
  /** Opens a session of the list in a window of its own (Electron; a browser opens a new tab itself). */
  openWindow(resume: string): Promise<void>;
  /**
   * View `number` of this conversation (MCP Apps), to draw in the transcript in the window's theme: the address of
   * its page (its sandbox inside), which only this window may frame; or why it cannot be shown.
   */
  showView(number: number, theme: 'light' | 'dark'): Promise<{ url: string } | { error: string }>;
  /**
   * Every host event of this window's conversation, in order, in batches; returns the unsubscribe. A `replay`
   * batch is the whole conversation again (the page was reloaded or reconnected): draw it afresh.
   */
  onEvents(listener: (events: HostEvent[], replay?: boolean) => void): () => void;
}

/** The bridge's methods that are calls (everything but the event subscription). */
export type BridgeMethod = Exclude<keyof HacBridge, 'onEvents'>;

/** What one call carries, by method. */
export interface BridgeParams {
  submit: { text: string };
  interrupt: Record<string, never>;
  complete: { prefix: string };
  history: Record<string, never>;
  openLink: { url: string };
  attach: { name: string; data: string };
  detach: { index: number };
  answerForm: FormReply;
  sessions: { query: string };
  manageSession: SessionRequest;
  downloadSession: { name: string; format: 'md' | 'json' };
  openWindow: { resume: string };
  showView: { number: number; theme: 'light' | 'dark' };
}

/** A session as a file to download: its name and text, or why it could not be made. */
export type SessionDownload = { file: string; text: string } | { error: string };

/** One session as the window's list shows it. */
export interface SessionView {
  /** The file's name in `sessions/`: how the list asks for it. */
  name: string;
  title: string;
  /** When it last changed, ISO 8601. */
  modified: string;
  messages: number;
  /** A search's hit: the first line holding one of the words. */
  match?: string;
  /** Why it cannot be opened (it is listed, never changed). */
  unreadable?: string;
  /** It is this window's conversation. */
  current: boolean;
}

/** What the session list asks of a session. */
export type SessionRequest =
  | { action: 'open' | 'delete'; name: string }
  | { action: 'rename'; name: string; title: string }
  | { action: 'export'; name: string; format: 'md' | 'json' };

/** A window's reply to a server's form. */
export type FormReply =
  | { action: 'accept'; values: Record<string, string | boolean | string[]> }
  | { action: 'decline' | 'cancel' };

/** A call from the page, in order, numbered by the page. */
export type BridgeCall = {
  [M in BridgeMethod]: { id: number; method: M; params: BridgeParams[M] };
}[BridgeMethod];

/**
 * What the host sends the page: a call's result or failure, a batch of host events (`replay`: the conversation
 * from its start, after a reload), or the id of the page's conversation, to reattach to it after a reload.
 */
export type BridgeMessage =
  | { type: 'result'; id: number; value: unknown }
  | { type: 'failure'; id: number; message: string }
  | { type: 'events'; events: HostEvent[]; replay?: boolean }
  | { type: 'chat'; id: string };

/** Payload limits: a 1 MB paste is fine; anything bigger is refused, not buffered. */
export const BRIDGE_LIMITS = {
  textChars: 1_000_000,
  prefixChars: 1_000,
  urlChars: 2_048,
  /** A 20 MB picture in base64. */
  imageChars: 28_000_000,
  nameChars: 255,
  /** One field of a server's form. */
  fieldChars: 100_000,
  formFields: 100,
} as const;
