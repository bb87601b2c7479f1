import type { HacConfig, ModelConfig } from '../config/load-config.js';
import { ProviderError } from '../errors/provider-error.js';
import type { Logger } from '../logging/logger.js';
import { createNativeToolNames, localTimeZone } from '../prompt/index.js';
import type { ChatModel } from '../providers/chat-model.js';
import type { MemoryBook } from '../memory/memory-book.js';
import type { Tool, ToolSource } from '../tools/tool.js';
import type { EngineEvent } from '../types/engine-event.js';
import type { Message, MessageImage, Unanswered, Usage } from '../types/message.js';
import { toolImagesForModel } from './tool-images.js';
import { contextEvents, errorEvent, noVisionMessage } from './turn-events.js';
import {
  newContextTurn,
  prepareAfterOverflow,
  prepareContext,
  summaryRequestMessages,
  type ContextSummary,
  type PrepareContextInput,
} from './context/index.js';
import { compactConversation } from './compact.js';
import type { CompletedTurn, Conversation, TurnStep } from './conversation.js';

/** How much of a tool's result is kept with the answer for `/export`. */
const KEPT_RESULT_CHARS = 4_000;
import { EventChannel, PendingAnswers, type Reply } from './event-channel.js';
import { answerText, callModel, type ModelCallResult } from './model-call.js';
import { resolveNativeCalls, resolvePromptCalls } from './resolve-calls.js';
import { setUpTurn, type TurnSetup } from './turn-setup.js';
import { turnRequest, turnSystemPrompt } from './turn-request.js';
import { acts, fallbackLine } from './fallback.js';
import { raceAbort } from './race-abort.js';
import { runToolCall, TurnToolState, type RequestedCall } from './tool-runner.js';
import { addUsage, estimateUsage } from './usage.js';
import { cancelledNote, declinedNote, failedNote } from './unanswered-notes.js';
import { addModelHint } from '../config/add-model-hint.js';

export const RESPONSE_CANCELLED = 'Response cancelled.';
export const CONNECTING_MCP = 'Connecting to MCP servers...';
export const NO_ACTIVE_MODEL = 'No active model is configured. Use /set-model to choose a model.';

/** What the engine is built from (wired by the runtime). */
export interface EngineDeps {
  config(): HacConfig;
  /** While config.json has no model: waits for the one the environment gives, if any (then in `config()`). */
  modelFromEnvironment?: () => Promise<void>;
  /** Saves the user's "always" for a tool (config.json), for every conversation from now on. */
  allowTool(tool: Tool): Promise<void>;
  /** The trimmed base system prompt, read per turn so edits apply at once. */
  basePrompt(): Promise<string | undefined>;
  chatModel(model: ModelConfig): Promise<ChatModel>;
  toolSource: ToolSource;
  conversation: Conversation;
  logger: Logger;
  now?: () => Date;
  timeZone?: string;
  /** Retry waits; tests inject one that does not sleep. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** How long streamed text collects before it is handed on: 0 a terminal, 16 a window (see coalesceDeltas). */
  deltaBatchMs?: number;
  /** Personal and workspace memory, and how the remember tool writes a fact (absent: no memory at all). */
  memory?: { book: MemoryBook; remember(fact: string): Promise<string> };
}

/**
 * The conversation engine (design: "The event stream"). `run` is one turn: an async generator of plain
 * JSON events; questions it asks are answered through `answer`. It never prints and never reads input.
 */
export class Engine {
  private readonly answers: PendingAnswers;
  private turnCounter = 0;
  /** The tool-limit line is shown once per conversation. */
  private toolLimitShown = false;

  constructor(private readonly deps: EngineDeps) {
    this.answers = new PendingAnswers(deps.logger);
  }

  /**
   * Answers a `confirmation-request` (Y/N text), a `question` (ask_user) or an `elicitation` (the user's
   * `ElicitationAnswer`) by its id. Returns false, and keeps nothing, when that question is not being asked
   * (withdrawn by a cancel, or never asked).
   */
  answer(id: string, reply: Reply): boolean {
    return this.answers.answer(id, reply);
  }

  /**
   * One turn for one user message (with the pictures attached to it). Errors become events; the last event is
   * always `turn-end`.
   */
  async *run(
    text: string,
    signal: AbortSignal,
    images: MessageImage[] = [],
    /** Another configured model for this turn only (`/retry <model>`). */
    modelFor?: ModelConfig,
  ): AsyncGenerator<EngineEvent> {
    const askedAt = this.now();
    if (!modelFor && !this.deps.config().models.length) await this.deps.modelFromEnvironment?.();
    const config = this.deps.config();
    const model = modelFor ?? config.activeModel;
    if (!model) {
      // Nothing is sent, so no "Waiting for response..." either.
      const hint = config.models.length === 0 ? `\n${addModelHint(config.file)}` : '';
      yield { type: 'error', code: 'no-model', message: `${NO_ACTIVE_MODEL}${hint}` };
      yield { type: 'turn-end', status: 'failed' };
      return;
    }
    if (images.length && model.vision === false) {
      yield { type: 'error', code: 'bad-request', message: noVisionMessage(model.label) };
      yield { type: 'turn-end', status: 'failed' };
      return;
    }
    yield { type: 'waiting' };
    // The last answer's save runs behind the prompt: if it failed, this turn says so first.
    const failedSave = this.deps.conversation.takeSaveFailure();
    if (failedSave) yield { type: 'notice', level: 'warn', text: failedSave };
    this.deps.conversation.beginTurn({ user: text, images, askedAt, model: model.id });
    // The answer's text as shown so far: a cancelled or failed turn keeps it with its question.
    let shown = '';
    let kept = false;
    const question = { user: text, images, askedAt, model: model.id };
    try {
      // Also waits for lists a server said changed during the last turn, so this turn offers the new tools.
      if (!this.deps.toolSource.isReady()) yield { type: 'notice', level: 'dim', text: CONNECTING_MCP };
      await raceAbort(this.deps.toolSource.ready(), signal);
      const channel = new EventChannel<EngineEvent>();
      const fallbacks = config.fallbackModels.filter((m) => m !== model);
      for (let current = model; ;) {
        const setup = await this.setup(config, current, channel, signal);
        yield* channel.drainWhile(Promise.resolve()); // lines setup had to say (the tool limit, memory)
        // A model that fails before it has said or done anything is replaced by the next fallback model.
        let acted = false;
        try {
          for await (const event of this.turn({ text, images }, askedAt, setup, channel, signal)) {
            acted ||= acts(event);
            if (event.type === 'text-delta') shown += event.text;
            if (event.type === 'turn-end') {
              kept = true;
              await this.deps.conversation.endTurn();
            }
            yield event;
          }
          return;
        } catch (error) {
          const next = fallbacks.shift();
          const text = next && !acted && !signal.aborted ? fallbackLine(error, current, next) : undefined;
          if (!next || !text) throw error;
          this.deps.logger.warn(`${text} (${error instanceof Error ? error.message : String(error)})`);
          yield { type: 'notice', level: 'dim', text };
          current = next;
        }
      }
    } catch (error) {
      if (signal.aborted) {
        yield { type: 'notice', level: 'info', text: RESPONSE_CANCELLED };
        if (!kept) yield* this.keep({ ...question, answer: cancelledNote(shown) }, 'cancelled');
        await this.deps.conversation.endTurn();
        yield { type: 'turn-end', status: 'cancelled' };
        return;
      }
      this.deps.logger.error(
        `Turn failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      const failure = errorEvent(error, images.length ? model.label : undefined);
      yield failure;
      if (!kept) yield* this.keep({ ...question, answer: failedNote(shown, failure.message) }, 'failed');
      await this.deps.conversation.endTurn();
      yield { type: 'turn-end', status: 'failed' };
    } finally {
      void this.deps.conversation.endTurn(); // a turn left before its end (the window closed mid-answer)
    }
  }

  /** Whether the line that says which servers' tools are left out is still to be said (now it is not). */
  claimToolLimitLine(): boolean {
    const first = !this.toolLimitShown;
    this.toolLimitShown = true;
    return first;
  }

  private setup(
    config: HacConfig,
    model: ModelConfig,
    channel: EventChannel<EngineEvent>,
    signal: AbortSignal,
  ): Promise<TurnSetup> {
    return setUpTurn(config, model, {
      deps: this.deps,
      answers: this.answers,
      channel,
      signal,
      now: this.now(),
      summarise: (messages, summarySignal) => this.summarise(config, model, messages, summarySignal),
      // The tool-limit line is shown once per conversation.
      toolLimitShown: () => !this.claimToolLimitLine(),
    });
  }

  private async *turn(
    { text, images }: { text: string; images: MessageImage[] },
    askedAt: Date,
    setup: TurnSetup,
    channel: EventChannel<EngineEvent>,
    signal: AbortSignal,
  ): AsyncGenerator<EngineEvent> {
    const { config, model } = setup;
    const conversation = this.deps.conversation;
    const question = { user: text, images, askedAt, model: model.id };
    const turn: Message[] = [{ role: 'user', content: text, ...(images.length ? { images } : {}) }];
    const toolState = new TurnToolState();
    const turnId = `t${++this.turnCounter}`;
    const native = model.toolMode === 'native';
    const names = createNativeToolNames(setup.tools.list);
    let turnState = newContextTurn();
    let summary: ContextSummary | undefined;
    let usage: Usage | undefined;
    // What happened on the way to the answer, kept with it for `/export` (never sent to the model again).
    const steps: TurnStep[] = [];

    for (let round = 0; ; round++) {
      toolState.round = round;
      const withhold = round >= config.maxToolRounds;
      const system = turnSystemPrompt(setup, this.timeZone(), withhold);
      const input: PrepareContextInput = {
        system,
        history: conversation.history,
        turn,
        config: {
          contextMaxChars: config.contextMaxChars,
          minRecentMessages: config.minRecentMessages,
          summarize: config.summarize,
          contextWindow: model.contextWindow,
        },
        session: conversation.contextState,
        turnState,
        summarise: (summaryText, summarySignal) =>
          this.summarise(config, model, summaryRequestMessages(summaryText), summarySignal),
        signal,
      };
      let prepared = await prepareContext(input);
      let result: ModelCallResult | undefined;
      for (let overflowRetried = false; ; overflowRetried = true) {
        conversation.contextState = prepared.session;
        conversation.contextPercent = Math.round((100 * prepared.size.chars) / config.contextMaxChars);
        turnState = prepared.turnState;
        summary = prepared.newSummary ?? summary;
        yield* contextEvents(prepared, this.deps.logger);
        const request = turnRequest(setup, this.timeZone(), prepared, withhold, names.entries, native);
        try {
          result = yield* callModel(
            {
              model: setup.chat,
              request,
              promptTools: native ? undefined : withhold ? [] : setup.tools.list,
              logger: this.deps.logger,
              sleep: this.deps.sleep,
              batchMs: this.deps.deltaBatchMs,
            },
            signal,
          );
          break;
        } catch (error) {
          if (signal.aborted) throw error;
          if (!(error instanceof ProviderError) || error.code !== 'context-overflow' || overflowRetried)
            throw error;
          this.deps.logger.warn(`Context overflow reported by ${model.id}; trimming and retrying once.`);
          const smaller = await prepareAfterOverflow(input, prepared);
          if (!smaller) throw error;
          prepared = smaller;
        }
      }
      if (signal.aborted) throw new Error('aborted');
      usage = addUsage(usage, result.usage ?? estimateUsage(prepared.messages, result.content));
      if (result.reasoning) steps.push({ thinking: result.reasoning });

      const calls: RequestedCall[] = withhold
        ? []
        : native
          ? resolveNativeCalls(result.nativeCalls, setup.tools, names)
          : resolvePromptCalls(result.promptCalls, setup.tools, `${turnId}-${round + 1}`);

      if (result.stalled || calls.length === 0) {
        let answer = result.visibleText.trim() ? result.visibleText : result.content;
        if (result.stalled) {
          answer = `${answer}\n\n[response timed out]`;
          yield { type: 'error', code: 'timeout', message: result.stalled.message };
        }
        yield* this.finish({ user: text, images, answer, askedAt, model: model.id, usage, summary, steps });
        return;
      }

      // The model's reasoning goes back within this turn (DeepSeek, gpt-oss), in prompt mode too.
      turn.push({
        role: 'assistant',
        content: result.content,
        ...(result.reasoning ? { reasoning: result.reasoning } : {}),
        ...(native
          ? { toolCalls: result.nativeCalls, ...(result.replay ? { replay: result.replay } : {}) }
          : {}),
      });
      for (const call of calls) {
        const outcome = yield* runToolCall(
          call,
          toolState,
          {
            mode: config.toolCallMode,
            confirmDestructiveTools: config.confirmDestructiveTools,
            allowed: config.allowedTools,
            allow: (tool) => this.deps.allowTool(tool),
            toolOutputMaxChars: config.toolOutputMaxChars,
            answers: this.answers,
            channel,
            onResult: ({ summary, output }, whole) =>
              this.deps.conversation.noteToolResult({
                summary,
                output,
                ...(whole !== undefined && { whole }),
              }),
          },
          signal,
        );
        const kept = { ...question, usage, summary, steps };
        if (outcome.kind === 'declined') {
          this.deps.logger.info(`Tool call ${call.server}/${call.name} declined; the turn ends.`);
          yield* this.keep({ ...kept, answer: declinedNote(result.visibleText, call) }, 'declined');
          yield { type: 'turn-end', status: 'declined' };
          return;
        }
        if (outcome.kind === 'cancelled') throw new Error('aborted');
        if (outcome.kind === 'end-turn') {
          yield { type: 'error', code: 'tool-error', message: outcome.message };
          yield* this.keep({ ...kept, answer: failedNote(result.visibleText, outcome.message) }, 'failed');
          yield { type: 'turn-end', status: 'failed' };
          return;
        }
        this.deps.logger.debug(
          `Tool ${call.server}/${call.name} ${JSON.stringify(call.arguments)} -> ${outcome.text}`,
        );
        steps.push({
          tool: {
            server: call.server,
            name: call.name,
            arguments: call.arguments,
            ok: !outcome.isError,
            result: outcome.text.slice(0, KEPT_RESULT_CHARS),
            ...(outcome.view ? { view: outcome.view } : {}),
          },
        });
        // Native results carry the call id (OpenAI) and the function's name (Ollama's `tool_name`).
        const calledAs = result.nativeCalls.find((c) => c.id === call.id)?.name ?? call.name;
        const pictures = outcome.images?.length
          ? await toolImagesForModel(outcome.images, `${call.server}/${call.name}`, model)
          : { images: [], notes: [] };
        const content = [outcome.text, ...pictures.notes].join('\n');
        const images = pictures.images.length ? { images: pictures.images } : {};
        turn.push(
          native
            ? { role: 'tool', content, toolCallId: call.id, toolName: calledAs, ...images }
            : { role: 'tool', content, toolName: call.name, ...images },
        );
      }
    }
  }

  /** Keeps the answered turn (and its session file) and ends the turn. */
  private async *finish(turn: Omit<CompletedTurn, 'answeredAt'>): AsyncGenerator<EngineEvent> {
    yield* this.keep(turn);
    const context = this.deps.conversation.contextPercent;
    yield {
      type: 'turn-end',
      status: 'answered',
      ...(turn.usage ? { usage: turn.usage } : {}),
      ...(context !== undefined ? { context } : {}),
    };
  }

  /**
   * Keeps a turn in the conversation and its session file: an answered one, or (`unanswered`) a question whose
   * answer is a note of what happened instead, so that nothing the user typed is lost.
   */
  private async *keep(
    turn: Omit<CompletedTurn, 'answeredAt'>,
    unanswered?: Unanswered,
  ): AsyncGenerator<EngineEvent> {
    try {
      await this.deps.conversation.record({
        ...turn,
        answeredAt: this.now(),
        ...(unanswered && { unanswered }),
      });
    } catch (error) {
      const message = `The session file could not be written: ${error instanceof Error ? error.message : String(error)}`;
      this.deps.logger.error(message);
      yield { type: 'notice', level: 'warn', text: message };
    }
  }

  /** `/compact`: the conversation but its last exchange summarised now (see compact.ts). */
  compact(signal: AbortSignal): Promise<string[]> {
    const config = this.deps.config();
    const model = config.activeModel;
    if (!model) return Promise.resolve([NO_ACTIVE_MODEL]);
    return compactConversation(
      this.deps.conversation,
      config.contextMaxChars,
      (text, summarySignal) => this.summarise(config, model, summaryRequestMessages(text), summarySignal),
      this.now(),
      signal,
    );
  }

  /** The summary model's answer: stage 2 of the context window, and memory that outgrew its share. */
  private async summarise(config: HacConfig, active: ModelConfig, messages: Message[], signal: AbortSignal) {
    return answerText(await this.deps.chatModel(config.summaryModel ?? active), messages, signal);
  }

  private timeZone(): string {
    return this.deps.timeZone ?? localTimeZone();
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}
