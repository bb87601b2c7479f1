import {
  approvalKey,
  isAllowed,
  isAskUser,
  needsConfirmation,
  readConfirmation,
  type AllowedTools,
  type ToolCallMode,
} from '../tools/approval.js';
import type { Tool, ToolCallContext, ToolImage, ToolResult } from '../tools/tool.js';
import type { EngineEvent, ToolCallView } from '../types/engine-event.js';
import { canonicalJson } from './canonical-json.js';
import { nextQuestionId } from './question-ids.js';
import type { EventChannel, PendingAnswers } from './event-channel.js';
import { firstLine } from '../text/first-line.js';
import { cutToolOutput } from './tool-output.js';

/** A call the model asked for, resolved to a tool, or an attempted call that could not be. */
export interface RequestedCall {
  /** Unique within the turn; the native call id when the model gave one. */
  id: string;
  server: string;
  name: string;
  arguments: Record<string, unknown>;
  tool?: Tool;
  /** Why the call cannot run (unknown tool, ambiguous name, bad arguments): sent to the model as the error. */
  error?: string;
  serverDescription?: string;
}

/** What running one call came to. `text` is what the model gets as the tool result. */
export type CallOutcome =
  | { kind: 'result'; text: string; isError: boolean; images?: ToolImage[]; view?: ToolCallView }
  | { kind: 'declined' }
  | { kind: 'cancelled' }
  /** A second call after the stop notice: the turn ends with this error. */
  | { kind: 'end-turn'; message: string };

export const STOPPED_AFTER_ERROR = 'Tool calls are stopped after an error. Answer the user.';
export const DECLINED_TEXT = 'MCP call cancelled by user.';
export const INVALID_CONFIRMATION = 'Please answer with Y or N (or A: always).';

/** The line for a call that runs without its Y/N because the user answered "always" for its tool once. */
export function ranWithoutAsking(tool: { server: string; name: string }): string {
  return `${approvalKey(tool)} ran without asking: always allowed (/permissions).`;
}

/** The line before the Y/N question that names the third answer. */
export function alwaysHint(tool: { server: string; name: string }): string {
  return `A: yes, and call ${approvalKey(tool)} without asking from now on (/permissions lists and removes these).`;
}

/** Per-turn memory of the tool loop: earlier results and the error stop. */
export class TurnToolState {
  readonly results = new Map<string, string>();
  firstError: string | undefined;
  /** The round (one assistant message's calls) being run; the engine counts them. */
  round = 0;
  /** The round of the first error, and the later round whose calls were answered with the stop notice. */
  private errorRound: number | undefined;
  private noticeRound: number | undefined;

  failed(text: string): void {
    if (this.firstError !== undefined) return;
    this.firstError = text;
    this.errorRound = this.round;
  }

  /**
   * After an error: the other calls of that message, and every call of the next message the model
   * sends, get the stop notice; a call in any round after that ends the turn.
   */
  afterError(): 'notice' | 'end-turn' | undefined {
    if (this.firstError === undefined) return undefined;
    if (this.round === this.errorRound) return 'notice';
    this.noticeRound ??= this.round;
    return this.round === this.noticeRound ? 'notice' : 'end-turn';
  }
}

export interface ToolRunnerOptions {
  mode: ToolCallMode;
  confirmDestructiveTools: boolean;
  /** Tools the user allowed for good, and how a new one is added (`a` at the question). */
  allowed: AllowedTools;
  allow(tool: Tool): Promise<void>;
  toolOutputMaxChars: number;
  answers: PendingAnswers;
  channel: EventChannel<EngineEvent>;
  /** Called with each result shown, and the whole of it when the model got a part, so `/tool` can show it again. */
  onResult?(result: ToolResultEvent, whole?: string): void;
}

type ToolResultEvent = Extract<EngineEvent, { type: 'tool-result' }>;

/**
 * Runs one requested call under the tool loop's rules (summary, confirmation, duplicates, timeouts, errors), yielding the events a host shows
 * (summary, Y/N, result) and returning what the model gets.
 */
export async function* runToolCall(
  call: RequestedCall,
  state: TurnToolState,
  options: ToolRunnerOptions,
  signal: AbortSignal,
): AsyncGenerator<EngineEvent, CallOutcome> {
  const stopped = state.afterError();
  if (stopped === 'end-turn') return { kind: 'end-turn', message: state.firstError! };
  if (stopped === 'notice') {
    yield {
      type: 'tool-skipped',
      id: call.id,
      reason: 'stopped',
      text: `Skipped call to ${call.server}/${call.name}: tool calls are stopped after an error.`,
    };
    return { kind: 'result', text: STOPPED_AFTER_ERROR, isError: true };
  }

  if (call.error !== undefined || !call.tool) {
    const text = `Error: ${call.error ?? `unknown tool ${call.name}`}`;
    state.failed(text);
    yield shown(options, {
      type: 'tool-result',
      id: call.id,
      ok: false,
      summary: `${call.server ? `${call.server}/${call.name}` : call.name}: ${firstLine(text)}`,
      output: text,
    });
    return { kind: 'result', text, isError: true };
  }

  const key = canonicalJson([call.server, call.name, call.arguments]);
  const earlier = state.results.get(key);
  if (earlier !== undefined) {
    yield {
      type: 'tool-skipped',
      id: call.id,
      reason: 'duplicate',
      text: `Skipped duplicate call to ${call.server}/${call.name}.`,
    };
    return { kind: 'result', text: `${earlier}\n\n(duplicate call: result reused)`, isError: false };
  }

  const tool = call.tool;
  // ask_user is a conversation with the user, not an MCP call: no summary, no result line.
  const builtin = isAskUser(tool);
  const asks = needsConfirmation(tool, options.mode, options.confirmDestructiveTools);
  const confirm = asks && !isAllowed(tool, options.allowed);
  if (!builtin)
    yield {
      type: 'tool-call',
      id: call.id,
      server: call.server,
      serverDescription: call.serverDescription,
      tool: call.name,
      toolDescription: firstLine(tool.description) || undefined,
      arguments: call.arguments,
      needsConfirmation: confirm,
    };
  // A call that would have asked says why it did not, so nothing runs unseen.
  if (asks && !confirm) yield { type: 'notice', level: 'dim', text: ranWithoutAsking(tool) };
  if (confirm) {
    yield { type: 'notice', level: 'dim', text: alwaysHint(tool) };
    for (;;) {
      const id = nextQuestionId();
      const answered = options.answers.expect(id, signal);
      yield { type: 'confirmation-request', id, callId: call.id };
      let reply: string;
      try {
        const given = await answered;
        reply = typeof given === 'string' ? given : 'n';
      } catch {
        reply = 'n'; // Ctrl+C at the question counts as "n"
      }
      const verdict = readConfirmation(reply);
      if (verdict === 'always') await options.allow(tool);
      if (verdict === 'yes' || verdict === 'always') break;
      if (verdict === 'no') {
        yield { type: 'tool-skipped', id: call.id, reason: 'declined', text: DECLINED_TEXT };
        return { kind: 'declined' };
      }
      yield { type: 'notice', level: 'info', text: INVALID_CONFIRMATION };
    }
  }

  let text: string;
  let isError: boolean;
  let images: ToolImage[] | undefined;
  let viewResult: ToolResult['view'];
  let view: ToolCallView | undefined;
  try {
    const result = yield* options.channel.drainWhile(
      tool.call(call.arguments, signal, {
        elicit: serverQuestions(call, options),
        onProgress: (progress) =>
          options.channel.push({
            type: 'tool-progress',
            id: call.id,
            server: call.server,
            tool: call.name,
            ...progress,
          }),
      }),
    );
    ({ text, isError, images, view: viewResult } = result);
  } catch (error) {
    if (signal.aborted) return { kind: 'cancelled' };
    text = error instanceof Error ? error.message : String(error);
    isError = true;
  }
  if (signal.aborted) return { kind: 'cancelled' };

  const returned = text.length;
  const whole = returned > options.toolOutputMaxChars ? text : undefined;
  text = cutToolOutput(text, options.toolOutputMaxChars);
  if (isError) {
    text = text.startsWith('Error: ') ? text : `Error: ${text}`;
    state.failed(text);
    yield shown(
      options,
      {
        type: 'tool-result',
        id: call.id,
        ok: false,
        summary: failureSummary(call, text),
        output: text,
      },
      whole,
    );
  } else {
    state.results.set(key, text);
    view = viewResult && { server: call.server, tool: call.name, input: call.arguments, ...viewResult };
    yield shown(
      options,
      {
        type: 'tool-result',
        id: call.id,
        ok: true,
        summary: `${call.server}/${call.name} ${returnedSize(returned, options.toolOutputMaxChars)}${images?.length ? ` and ${images.length === 1 ? 'an image' : `${images.length} images`}` : ''}.`,
        output: text,
        ...(view ? { view } : {}),
      },
      whole,
    );
  }
  return {
    kind: 'result',
    text,
    isError,
    ...(images?.length && !isError ? { images } : {}),
    ...(view ? { view } : {}),
  };
}

/**
 * How a server's question reaches the user while its call runs: an `elicitation` event in the turn's stream, the
 * answer awaited like any other (a cancelled turn cancels it).
 */
function serverQuestions(call: RequestedCall, options: ToolRunnerOptions): ToolCallContext['elicit'] {
  return async (request, signal) => {
    const id = nextQuestionId();
    const answered = options.answers.expect(id, signal);
    options.channel.push({ type: 'elicitation', id, callId: call.id, server: call.server, request });
    const given = await answered;
    return typeof given === 'string' ? { action: 'cancel' } : given;
  };
}

/** How much a tool returned, and how much of it the model gets when that is less: `returned 174,391 characters; 10,000 sent to the model`. */
function returnedSize(chars: number, max: number): string {
  const count = (n: number) => n.toLocaleString('en-US');
  return `returned ${count(chars)} characters${chars > max ? `; ${count(max)} sent to the model` : ''}`;
}

function shown(options: ToolRunnerOptions, result: ToolResultEvent, whole?: string): ToolResultEvent {
  options.onResult?.(result, whole);
  return result;
}

/** A failed call in one line that names the tool once: hac's own reasons already do, a server's words do not. */
function failureSummary(call: { server: string; name: string }, text: string): string {
  const said = firstLine(text.slice('Error: '.length));
  const tool = `${call.server}/${call.name}`;
  return said.includes(tool) ? said : `${tool} failed: ${said}`;
}
