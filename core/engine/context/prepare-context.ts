import type { Message } from '../../types/message.js';
import { budgetWarning, percentFull, trimNotice } from './budget-warning.js';
import { budgetRatio, messageChars, type ContextBudget, type RequestSize } from './measure.js';
import {
  buildSummaryInput,
  summaryMessage,
  trySummarise,
  type ContextSummary,
  type Summariser,
} from './summarize.js';
import { loadTokenCounter, REPLY_PRIMING_TOKENS, type TokenCounter } from './token-estimate.js';
import { trimToBudget, type TrimResult } from './trim.js';
import { cutNotice, cutOversized } from './oversized.js';

/** The tuning keys of config.json this module reads, plus the active model's `contextWindow`. */
export interface ContextConfig {
  /** Characters of system + messages (default 80,000). */
  contextMaxChars: number;
  /** Newest messages always kept (default 5). */
  minRecentMessages: number;
  /** Stage 2 on/off (default true). */
  summarize: boolean;
  /** Tokens the request may use, when known (the model's contextWindow, minus any room kept for the answer). */
  contextWindow?: number;
}

/** Per-session state: keep the latest one (from `PreparedContext.session`) and start anew on /new or /resume. */
export interface ContextSessionState {
  /** The 80% warning was shown in this session. */
  readonly warned: boolean;
  /** The latest summary, standing for the first `covers` history messages. */
  readonly summary?: ContextSummary;
  /** Leading history messages already reported as trimmed (so the trim line says only what is new). */
  readonly reportedHistory: number;
  /** Earlier messages the user was told go cut (each is told of once). */
  readonly reportedCuts?: number;
}

/** Per-turn state: start each turn with `newContextTurn()`, then keep the latest `PreparedContext.turnState`. */
export interface ContextTurnState {
  /** The one summary call of this turn was made, whatever its outcome. */
  readonly summaryTried: boolean;
  /** Turn messages already reported as trimmed. */
  readonly reportedTurn: number;
}

/**
 * A fresh session state; pass the latest summary of a resumed session file so it stands in again (its messages
 * were reported when they were summarised, so resuming says nothing about them).
 */
export function newContextSession(summary?: ContextSummary): ContextSessionState {
  return summary
    ? { warned: false, summary, reportedHistory: summary.covers }
    : { warned: false, reportedHistory: 0 };
}

/** A fresh turn state, for the first LLM call of each turn. */
export function newContextTurn(): ContextTurnState {
  return { summaryTried: false, reportedTurn: 0 };
}

/** Everything `prepareContext` needs for one LLM call. */
export interface PrepareContextInput {
  /** The composed system prompt without `Last user query` (base prompt, date, tools). */
  system: string;
  /** Earlier turns, oldest first (user messages and final answers); the same objects from call to call. */
  history: readonly Message[];
  /** The current turn: its user message first, then the tool chains so far. */
  turn: readonly Message[];
  config: ContextConfig;
  session: ContextSessionState;
  turnState: ContextTurnState;
  /** Stage 2's summary writer; without it (or with `summarize: false`) only stage 1 runs. */
  summarise?: Summariser;
  signal: AbortSignal;
}

/** Something the engine turns into an event or a log line. */
export type ContextNotice =
  /** The budget is 80% full: shown dim, once per session. */
  | { type: 'budget-warning'; percent: number; text: string }
  /** The budget is full: messages newly left out of the request (`removed` includes `summarised`). */
  | { type: 'trimmed'; removed: number; summarised: number; text: string }
  /** The summary was not used; log at warn, do not show. */
  | { type: 'summary-skipped'; reason: 'failed' | 'longer' | 'empty'; text: string }
  /** Earlier messages larger than the whole budget now go cut: shown dim, once. */
  | { type: 'cut'; text: string };

/** The request to send and what happened to the context. */
export interface PreparedContext {
  /** Messages to send after the system message: a summary message first if one is used, then the newest part. */
  messages: Message[];
  /** Set when the turn's user message is not in `messages`: add `Last user query: <text>` to the system prompt. */
  lastUserQuery?: string;
  notices: ContextNotice[];
  /** The session state to pass next time. */
  session: ContextSessionState;
  /** The turn state to pass to the next call of this turn. */
  turnState: ContextTurnState;
  /** A summary written by this call, for the session file's `summaries`. */
  newSummary?: ContextSummary;
  /** Size as sent: system (with `Last user query`) + messages. `tokens` only with a contextWindow. */
  size: RequestSize;
  /** How full the untrimmed request was, in whole percent (over 100 when it had to be trimmed). */
  percent: number;
  /** Messages not sent as themselves: history ones (summarised included) and turn ones. */
  removed: { history: number; turn: number };
  /** Even the messages that must stay exceed the budget; the provider may still accept it. */
  overBudget: boolean;
}

/** The share of the budget a request falls to once a new summary is written (room for the next turns). */
export const SUMMARY_HEADROOM = 0.6;

function withHeadroom(budget: ContextBudget): ContextBudget {
  const maxChars = Math.floor(budget.maxChars * SUMMARY_HEADROOM);
  return budget.maxTokens === undefined
    ? { maxChars }
    : { maxChars, maxTokens: Math.floor(budget.maxTokens * SUMMARY_HEADROOM) };
}

/** The budget of a config: characters always, tokens when the model's window is known. */
export function budgetOf(config: ContextConfig): ContextBudget {
  return config.contextWindow === undefined
    ? { maxChars: config.contextMaxChars }
    : { maxChars: config.contextMaxChars, maxTokens: config.contextWindow };
}

/**
 * The context window before each LLM call: measure, trim (stage 1), summarise at most once per turn (stage 2), warn.
 * Pure apart from the injected summariser and the lazily loaded tokenizer; never throws except on abort.
 */
export async function prepareContext(input: PrepareContextInput): Promise<PreparedContext> {
  return prepare(input, budgetOf(input.config), true);
}

/** The share of the last request's size a context-overflow retry aims for (an overflow is retried only once). */
export const OVERFLOW_SHRINK = 0.5;

/**
 * After a `context-overflow`: the request `sent` was too big for the server; build a smaller one (about half,
 * or 90% of `hint.maxTokens` when the server said its limit) for the single retry. Session and turn state are
 * taken from `sent`. Undefined when nothing more can go (the caller then reports the error).
 */
export async function prepareAfterOverflow(
  input: PrepareContextInput,
  sent: PreparedContext,
  hint?: { maxTokens?: number },
): Promise<PreparedContext | undefined> {
  const maxChars = Math.min(input.config.contextMaxChars, Math.floor(sent.size.chars * OVERFLOW_SHRINK));
  let maxTokens = input.config.contextWindow;
  if (hint?.maxTokens !== undefined)
    maxTokens = Math.min(maxTokens ?? Infinity, Math.floor(hint.maxTokens * 0.9));
  else if (sent.size.tokens !== undefined)
    maxTokens = Math.min(maxTokens ?? Infinity, Math.floor(sent.size.tokens * OVERFLOW_SHRINK));
  const budget: ContextBudget = maxTokens === undefined ? { maxChars } : { maxChars, maxTokens };
  const retry = await prepare({ ...input, session: sent.session, turnState: sent.turnState }, budget, false);
  return retry.size.chars < sent.size.chars ? retry : undefined;
}

async function prepare(
  input: PrepareContextInput,
  budget: ContextBudget,
  mayWarn: boolean,
): Promise<PreparedContext> {
  const { config, turn, signal } = input;
  signal.throwIfAborted();
  const counter = budget.maxTokens === undefined ? undefined : await loadTokenCounter();
  signal.throwIfAborted();

  let session = input.session;
  let turnState = input.turnState;
  const notices: ContextNotice[] = [];
  // A message larger than the whole budget went whole in its own turn; later turns send its start only.
  const { history, cut } = cutOversized(input.history, budget, counter);
  if (cut > (session.reportedCuts ?? 0)) {
    notices.push({ type: 'cut', text: cutNotice(cut) });
    session = { ...session, reportedCuts: cut };
  }
  // A summary from another history (e.g. after /new without a fresh state) would stand for the wrong messages.
  const previous = validSummary(session.summary, history.length);

  const full = fullSize(input.system, previous, history, turn, budget, counter);
  const ratio = budgetRatio(full, budget);
  const warning = mayWarn ? budgetWarning(ratio, session.warned, config.summarize) : undefined;
  if (warning) {
    notices.push({ type: 'budget-warning', percent: percentFull(ratio), text: warning });
    session = { ...session, warned: true };
  }

  const stage1 = (summary: ContextSummary | undefined, within = budget): TrimResult =>
    trimToBudget({
      system: input.system,
      history,
      historyStart: summary?.covers ?? 0,
      turn,
      summary: summary ? summaryMessage(summary) : undefined,
      budget: within,
      minRecentMessages: config.minRecentMessages,
      counter,
    });

  let summary = previous;
  let trim = stage1(summary);
  let newSummary: ContextSummary | undefined;

  if (trim.droppedHistory > 0 && config.summarize && input.summarise && !turnState.summaryTried) {
    turnState = { ...turnState, summaryTried: true };
    const from = summary?.covers ?? 0;
    // The summary takes in enough that the request falls well under the budget, so the next turns fit without
    // another summary call; the previous summary's size stands in for the new one's.
    const gone = Math.max(trim.droppedHistory, stage1(summary, withHeadroom(budget)).droppedHistory);
    const dropped = history.slice(from, from + gone);
    const summaryInput = buildSummaryInput(summary, dropped, budget.maxChars);
    const outcome = await trySummarise(input.summarise, summaryInput, signal);
    if (outcome.ok) {
      newSummary = { text: outcome.text, covers: from + gone };
      summary = newSummary;
      session = { ...session, summary: newSummary };
      trim = stage1(summary);
    } else {
      notices.push({ type: 'summary-skipped', reason: outcome.reason, text: outcome.warning });
    }
  }

  const covered = summary?.covers ?? 0;
  const historyGone = covered + trim.droppedHistory;
  const newHistory = Math.max(0, historyGone - session.reportedHistory);
  const newTurn = Math.max(0, trim.droppedTurn - turnState.reportedTurn);
  if (newHistory + newTurn > 0) {
    const summarised = trim.summaryKept
      ? Math.max(0, Math.min(historyGone, covered) - session.reportedHistory)
      : 0;
    const removed = newHistory + newTurn;
    const stillOver = trim.overBudget ? budgetRatio(trim.size, budget) : undefined;
    notices.push({ type: 'trimmed', removed, summarised, text: trimNotice(removed, summarised, stillOver) });
  }
  session = { ...session, reportedHistory: historyGone };
  turnState = { ...turnState, reportedTurn: trim.droppedTurn };

  const result: PreparedContext = {
    messages: trim.messages,
    notices,
    session,
    turnState,
    size: trim.size,
    percent: percentFull(ratio),
    removed: { history: historyGone, turn: trim.droppedTurn },
    overBudget: trim.overBudget,
  };
  if (trim.lastUserQuery !== undefined) result.lastUserQuery = trim.lastUserQuery;
  if (newSummary) result.newSummary = newSummary;
  return result;
}

function validSummary(
  summary: ContextSummary | undefined,
  historyLength: number,
): ContextSummary | undefined {
  if (!summary || summary.text.trim() === '') return undefined;
  return summary.covers > 0 && summary.covers <= historyLength ? summary : undefined;
}

/**
 * The untrimmed request's size, for the 80% line. Characters are cheap to sum over any history; tokens are
 * counted only when the characters fit (else the request is over budget anyway and tokens change nothing).
 */
function fullSize(
  system: string,
  summary: ContextSummary | undefined,
  history: readonly Message[],
  turn: readonly Message[],
  budget: ContextBudget,
  counter: TokenCounter | undefined,
): RequestSize {
  const from = summary?.covers ?? 0;
  const head = summary ? summaryMessage(summary) : undefined;
  let chars = system.length + (head ? messageChars(head) : 0);
  for (let i = from; i < history.length; i++) chars += messageChars(history[i] as Message);
  for (const message of turn) chars += messageChars(message);
  if (!counter || chars > budget.maxChars) return { chars };
  let tokens = REPLY_PRIMING_TOKENS + counter.system(system) + (head ? counter.message(head) : 0);
  for (let i = from; i < history.length; i++) tokens += counter.message(history[i] as Message);
  for (const message of turn) tokens += counter.message(message);
  return { chars, tokens };
}
