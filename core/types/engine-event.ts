import type { ElicitationRequest } from './elicitation.js';
import type { Usage } from './message.js';

/**
 * A tool call's view (MCP Apps): its server's `ui://` resource, and what the view is given, the call's arguments
 * and its whole result as the server sent it. Plain JSON: it is kept with the conversation to be shown again.
 */
export interface ToolCallView {
  server: string;
  tool: string;
  resourceUri: string;
  input: Record<string, unknown>;
  result: Record<string, unknown>;
}

/** The normalised failure classes of every provider. */
export type ProviderErrorCode =
  | 'auth'
  | 'model-not-found'
  | 'rate-limit'
  | 'unavailable'
  | 'timeout'
  | 'context-overflow'
  | 'bad-request'
  | 'cancelled';

/** What an `error` event is about: a provider class, or one of hac's own. */
export type ErrorCode = ProviderErrorCode | 'no-model' | 'tool-error' | 'command-failed' | 'internal';

/** How a turn ended. Only `answered` (and a kept timed-out partial answer) reaches the context and the session. */
export type TurnStatus = 'answered' | 'cancelled' | 'declined' | 'failed';

/**
 * What the engine tells a host during a turn. Plain JSON: printed by the CLI, sent over Electron IPC,
 * and written one per line by `hac -p --output jsonl`.
 */
export type EngineEvent =
  | { type: 'waiting' }
  | { type: 'notice'; level: 'info' | 'dim' | 'warn'; text: string }
  | { type: 'thinking-start' }
  | { type: 'thinking-delta'; text: string }
  | { type: 'thinking-end' }
  | { type: 'text-delta'; text: string }
  | {
      type: 'tool-call';
      id: string;
      server: string;
      serverDescription?: string;
      tool: string;
      /** First line of the tool's description. */
      toolDescription?: string;
      arguments: Record<string, unknown>;
      needsConfirmation: boolean;
    }
  /**
   * Y/N for tool call `callId`. Answer with `engine.answer(id, reply)`: `id` is a question id, unique for the
   * life of the process; the engine repeats the request (with a new id) after an invalid reply.
   */
  | { type: 'confirmation-request'; id: string; callId: string }
  /** ask_user: answer with `engine.answer(id, text)`; with options, a number or the option text. */
  | { type: 'question'; id: string; question: string; options?: string[] }
  /**
   * An MCP server asks the user something while tool call `callId` runs (elicitation): a form or a page to open.
   * A person answers, never the model: `engine.answer(id, answer)` with an `ElicitationAnswer`.
   */
  | { type: 'elicitation'; id: string; callId: string; server: string; request: ElicitationRequest }
  /**
   * A call's outcome: one line for the screen, and `output`, what the model was given (a window shows it on
   * demand); `view`, where the tool has one to show (MCP Apps).
   */
  | { type: 'tool-result'; id: string; ok: boolean; summary: string; output: string; view?: ToolCallView }
  /** A running call's progress as its server reports it: shown on one line that each report redraws. */
  | {
      type: 'tool-progress';
      id: string;
      server: string;
      tool: string;
      progress: number;
      total?: number;
      message?: string;
    }
  | { type: 'tool-skipped'; id: string; reason: 'duplicate' | 'declined' | 'stopped'; text: string }
  /** A failed attempt before any output; `message` is one line for the user, saying when it retries. */
  | { type: 'retry'; attempt: number; code: ProviderErrorCode; delayMs: number; message: string }
  | { type: 'context-trimmed'; removed: number; summarised: boolean; text: string }
  | { type: 'error'; code: ErrorCode; message: string }
  /** `context`: how full the last request was, in percent of contextMaxChars. */
  | { type: 'turn-end'; status: TurnStatus; usage?: Usage; context?: number };
