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
import { ThinkTagSplitter } from '../think-tags.js';
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
    // One SDK client per call: its fetch carries this call's signal.
    const sdk = new Ollama({ host: model.baseUrl, fetch: ollamaFetch(this.context, () => control.signal) });
    const fail = (error: unknown): ProviderError =>
      control.abortError() ?? mapOllamaError(error, this.context);
    let finished = false;
    let stream: (AsyncIterable<ChatResponse> & { abort(): void }) | undefined;
    const lines: LineWatch = {};
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
      for (;;) {
        // Read in place, not through a helper: one async layer less for each of a long answer's many parts.
        let chunk;
        try {
          chunk = await watchedStep(lines, step);
        } catch (error) {
          if (lines.bad === undefined) throw error;
        }
        if (lines.bad !== undefined)
          throw malformedError(this.context, `a line that is not JSON: ${lines.bad.slice(0, 120)}`);
        if (!chunk) break;
        const message = chunk.message;
        if (message?.thinking) yield log.reasoningPart(message.thinking);
        if (message?.content) {
          // Hot path: once the message is plain text, skip the splitter.
          if (splitter.passthrough) yield log.textPart(message.content);
          else for (const piece of splitter.push(message.content)) yield log.add(piece);
        }
        // Ollama sends each tool call whole; newer servers give it an id.
        if (message?.tool_calls) {
          for (const raw of message.tool_calls as RawToolCall[]) {
            const name = raw.function.name;
            const id = typeof raw.id === 'string' && raw.id ? raw.id : `call_${calls.length}`;
            const call = { id, name, arguments: parseToolArguments(raw.function.arguments, logger, name) };
            calls.push(call);
            yield { type: 'tool-call', call };
          }
        }
        if (chunk.done) {
          doneReason = chunk.done_reason ?? '';
          if (typeof chunk.prompt_eval_count === 'number' || typeof chunk.eval_count === 'number') {
            usage = { inputTokens: chunk.prompt_eval_count ?? 0, outputTokens: chunk.eval_count ?? 0 };
          }
        }
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
