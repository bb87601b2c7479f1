import { Ollama, type ChatRequest as OllamaChatRequest, type ChatResponse } from 'ollama';
import type { ChatStreamPart } from '../../types/chat-stream.js';
import { malformedError } from '../provider-errors.js';
import { watchedStep, watchLines, type LineWatch } from './invalid-lines.js';
import type { NativeToolCall, Usage } from '../../types/message.js';
import type { ProviderError } from '../../errors/provider-error.js';
import type { ChatModel, ChatRequest } from '../chat-model.js';
import type { ChatModelOptions } from '../chat-model-options.js';
import type { ErrorContext } from '../provider-errors.js';
import { parseToolArguments } from '../parse-tool-arguments.js';
import { AnswerLog } from '../answer-log.js';
import { toFinishReason } from '../finish-reason.js';
import { JoinedPieces, ThinkTagSplitter } from '../think-tags.js';
import { callControlFor } from '../timeouts.js';
import { toOllamaMessages, toOllamaTools } from './convert-messages.js';
import { mapOllamaError } from './map-ollama-error.js';
import { ollamaFetch } from './ollama-fetch.js';

type StreamingRequest = OllamaChatRequest & { stream: true };
type RawToolCall = { id?: unknown; function: { name: string; arguments: unknown } };

/** The Ollama `/api/chat` adapter: streams one answer through the official SDK. */
export class OllamaChatModel implements ChatModel {
  readonly provider = 'ollama' as const;
  readonly modelId: string;
  private readonly context: ErrorContext;

  constructor(private readonly options: ChatModelOptions) {
    this.modelId = options.model.id;
    this.context = { model: options.model, configFile: options.configFile };
  }

  /** The request body sent for a ChatRequest: never a `tools` field unless the request has native tools. */
  buildBody(request: ChatRequest): StreamingRequest {
    const { think } = this.options.model;
    return {
      model: this.modelId,
      messages: toOllamaMessages(request.messages),
      stream: true,
      options: { temperature: 0.1 },
      ...(think !== undefined ? { think } : {}),
      ...(request.tools?.length ? { tools: toOllamaTools(request.tools) } : {}),
    };
  }

  async *stream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatStreamPart> {
    const { model, logger } = this.options;
    const body = this.buildBody(request);
    // Only at logLevel debug: the body is the whole context (80 KB and more), serialised twice a turn otherwise.
    if (this.options.logResponses ?? true)
      logger.debug(`ollama request to ${model.baseUrl}/api/chat: ${JSON.stringify(body)}`);
    const control = callControlFor(signal, this.options, this.context);
    const lines: LineWatch = { passed: 0 };
    // One SDK client per call: its fetch carries this call's signal.
    const sdk = new Ollama({
      host: model.baseUrl,
      fetch: ollamaFetch(this.context, () => control.signal, lines),
    });
    const fail = (error: unknown): ProviderError =>
      control.abortError() ?? mapOllamaError(error, this.context);
    let finished = false;
    let stream: (AsyncIterable<ChatResponse> & { abort(): void }) | undefined;
    const stopWatching = watchLines(lines);
    try {
      let iterator: AsyncIterator<ChatResponse>;
      try {
        stream = await sdk.chat(body);
        iterator = stream[Symbol.asyncIterator]();
      } catch (error) {
        throw fail(error);
      }
      const splitter = new ThinkTagSplitter();
      const log = new AnswerLog(this.options.logResponses ?? true);
      const calls: NativeToolCall[] = [];
      let usage: Usage | undefined;
      let doneReason = '';
      // A line the SDK dropped is the error, even when the SDK then fails for the want of it (no "done").
      const step = () => control.next(iterator, fail);
      // The rest of a read is here already: no wait to time, one async layer less for each of its lines.
      const buffered = () => iterator.next();
      /** Items taken from the SDK: one per complete line, so fewer than `lines.passed` means the next is here. */
      let taken = 0;
      let ended = false;
      while (!ended) {
        // What one network read brought, consecutive text (or thinking) joined: every layer above costs per part.
        const pieces = new JoinedPieces();
        const newCalls: NativeToolCall[] = [];
        let failure: ProviderError | undefined;
        do {
          let chunk: ChatResponse | undefined;
          try {
            if (taken < lines.passed) {
              const next = await watchedStep(lines, buffered);
              if (control.signal.aborted) throw new Error('aborted');
              chunk = next.done ? undefined : next.value;
            } else chunk = await watchedStep(lines, step);
          } catch (error) {
            if (lines.bad === undefined) failure = fail(error);
          }
          if (lines.bad !== undefined)
            failure = malformedError(this.context, `a line that is not JSON: ${lines.bad.slice(0, 120)}`);
          if (failure || !chunk) {
            ended = true;
            break;
          }
          taken++;
          const message = chunk.message;
          if (message?.thinking) pieces.add('reasoning', message.thinking);
          if (message?.content) {
            // Hot path: once the message is plain text, skip the splitter.
            if (splitter.passthrough) pieces.add('text', message.content);
            else for (const piece of splitter.push(message.content)) pieces.add(piece.kind, piece.text);
          }
          // Ollama sends each tool call whole; newer servers give it an id.
          for (const raw of (message?.tool_calls ?? []) as RawToolCall[]) {
            const name = raw.function.name;
            const id =
              typeof raw.id === 'string' && raw.id ? raw.id : `call_${calls.length + newCalls.length}`;
            newCalls.push({ id, name, arguments: parseToolArguments(raw.function.arguments, logger, name) });
          }
          if (chunk.done) {
            doneReason = chunk.done_reason ?? '';
            if (typeof chunk.prompt_eval_count === 'number' || typeof chunk.eval_count === 'number') {
              usage = { inputTokens: chunk.prompt_eval_count ?? 0, outputTokens: chunk.eval_count ?? 0 };
            }
          }
          // A read ends early at tool calls, so the parts keep the order in which they came.
        } while (taken < lines.passed && !newCalls.length);
        // What came before a failure is delivered first: the partial answer is kept.
        for (const piece of pieces.list) yield log.add(piece);
        for (const call of newCalls) {
          calls.push(call);
          yield { type: 'tool-call', call };
        }
        if (failure) throw failure;
      }
      const aborted = control.abortError();
      if (aborted) throw aborted;
      for (const piece of splitter.flush()) yield log.add(piece);
      if (usage) yield { type: 'usage', usage };
      finished = true;
      logger.debug(
        `ollama response from ${this.modelId} (${doneReason}): ${log.summary({ toolCalls: calls, usage })}`,
      );
      yield { type: 'finish', reason: calls.length ? 'tool-calls' : toFinishReason(doneReason) };
    } finally {
      stopWatching();
      control.dispose(finished);
      // `break` does not cancel the SDK's request: abort it too.
      if (!finished) stream?.abort();
    }
  }
}
