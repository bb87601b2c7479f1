import type { EngineEvent } from './engine-event.js';
import type { MessageImage } from './message.js';
import type { FormField } from './elicitation.js';

/** The one-line state a window shows under its prompt. */
export interface ChatStatus {
  /** The active model's name and provider; absent when none is configured. */
  model?: string;
  provider?: string;
  toolMode: 'manual' | 'auto';
  /** config.json's `markdown`: answers shown styled. */
  markdown: boolean;
  /** Enabled servers, those connected, and those waiting for the user to sign in (`/mcp login`). */
  mcp: { connected: number; configured: number; needSignIn?: number };
  busy: boolean;
  /** How full the last request was (percent of contextMaxChars), and the conversation's tokens so far. */
  context?: number;
  tokens?: number;
  /** The folder whose AGENTS.md files are this conversation's workspace memory (`~` for the home folder). */
  workspace?: string;
  /** The ids of the messages whose exchanges the conversation holds now, oldest first (see `input`). */
  held?: readonly number[];
  /** The conversation's session file, by its name in `sessions/`, once its first answer saved it. */
  session?: string;
}

/** What Ctrl+C did; on `idle` the front end does its own idle action (exit, clear input). */
export type InterruptResult = 'cancelled' | 'answered-no' | 'question-cancelled' | 'idle';

/**
 * What a question is about: a tool call's Y/N, a command's numbered choice, the model's `ask_user`, one field of
 * what an MCP server asks (or the confirmation that its page is done), or a server's whole form (a window).
 */
export type PromptKind = 'confirm' | 'choice' | 'ask' | 'field' | 'form';

/** One problem in a user's file, as plain data: where, what, and how to fix it. */
export interface ReportedProblem {
  at: string;
  message: string;
  fix?: string;
}

/**
 * An error as plain data, so it survives `structuredClone`, IPC and JSON with everything a user needs:
 * a config report keeps its file, problems and fixes.
 */
export interface ErrorReport {
  code: string;
  message: string;
  file?: string;
  problems?: ReportedProblem[];
}

/**
 * What a chat controller tells its front end, in order: the engine's events plus what a front end shows besides
 * a turn. Plain JSON only: printed by the CLI, sent over Electron IPC and WebSocket, written as JSON lines.
 */
export type HostEvent =
  | EngineEvent
  /** The submitted line, echoed: a message or command after the prompt, or the reply to a question. */
  /** `id`: a message's id, for its ⋯ menu (which of them the conversation still holds: the status's `held`). */
  /** `resumed`: a message of a resumed conversation drawn again, which no one typed just now (a terminal prints it). */
  | { type: 'input'; text: string; reply: boolean; id?: number; resumed?: boolean }
  /** What a command printed. */
  | { type: 'command-output'; lines: string[] }
  /**
   * The tool call just shown has a view (MCP Apps), the conversation's `number`th: `/view <number>` shows it;
   * `text` says so in one line.
   */
  | { type: 'view'; number: number; server: string; tool: string; text: string }
  /** `/view <n>` was asked for and the view can be read: the front end shows it (`connectView`), titled `title`. */
  | { type: 'open-view'; number: number; title: string }
  /** The pictures waiting for the next message (a window shows them as removable chips). */
  | { type: 'attachments'; images: MessageImage[] }
  /** The pictures sent with the message just echoed: a line each, and the picture itself in a window. */
  | { type: 'images'; images: MessageImage[] }
  /**
   * Input is expected: `text` goes before the reply (`Call now? (Y/N): `); `choices` may be clicked (1-based);
   * `secret`: what is typed is not shown (a server's write-only field).
   */
  | { type: 'prompt'; kind: PromptKind; text: string; choices?: string[]; secret?: true }
  /**
   * A window's form for what an MCP server asks (the `elicitation` event before it said who and why): answer it
   * with the bridge's `answerForm`. Sent again with `errors` (by field name) when an answer does not fit.
   */
  | {
      type: 'form';
      server: string;
      message: string;
      fields: FormField[];
      errors?: Record<string, string>;
      /**
       * A page to open instead of fields (a payment, a sign-in), its whole address as it would be opened: opened
       * only when the user says so (Open), then answered with Done; or Decline.
       */
      url?: string;
      /** About that page: its host (shown apart), a warning about it, and whether hac may open it at all. */
      page?: { host: string; warning?: string; openable: boolean };
    }
  /** Text for the prompt line, to change and send (`/edit`): the front end puts it there, the cursor at its end. */
  | { type: 'draft'; text: string }
  /** The question being asked was withdrawn (Ctrl+C, Escape): it wants no reply any more. */
  | { type: 'prompt-withdrawn' }
  /** A line was submitted while a turn or command runs, and was not taken. */
  | { type: 'busy'; text: string }
  /**
   * An MCP problem, reported once: a broken mcp-servers.json (no `server`), a server that failed or needs
   * sign-in; or (`ok`) good news a user waits for: a sign-in finished.
   */
  | { type: 'mcp-status'; server?: string; text: string; ok?: boolean }
  /** A link for the user to open (a sign-in page): the front end opens it in a browser where it can. */
  | { type: 'open-link'; url: string }
  /** The answered turn was written to its session file. */
  | { type: 'session-saved'; file: string }
  /** Start-up or a command failed in a way the user must fix (config.json broken): shown instead of a chat. */
  | { type: 'fatal'; report: ErrorReport }
  /** The state changed (model, tool mode, MCP servers, busy or idle). */
  | { type: 'status'; status: ChatStatus }
  /**
   * `/exit`: the front end closes this conversation (and the process, if it was the last). A page's bridge also
   * says `hacEnded` when its connection to hac closed: nothing more can be done there.
   */
  | { type: 'exit'; hacEnded?: boolean };

export type HostEventType = HostEvent['type'];
