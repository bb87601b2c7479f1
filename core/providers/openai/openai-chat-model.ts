import OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import type { ChatStreamPart } from '../../types/chat-stream.js';
import type { Usage } from '../../types/message.js';
import { envReferenceName, missingKeyText, resolveApiKey } from '../../config/load-config.js';
import { ProviderError } from '../../errors/provider-error.js';
import type { ChatModel, ChatRequest } from '../chat-model.js';
import type { ChatModelOptions } from '../chat-model-options.js';
import { truncatedError, type ErrorContext } from '../provider-errors.js';
import { guardedFetch, sdkClientOptions } from '../sdk-client.js';
import { activityFetch } from '../activity-fetch.js';
import { AnswerLog } from '../answer-log.js';
import { toFinishReason } from '../finish-reason.js';
import { JoinedPieces, ThinkTagSplitter } from '../think-tags.js';
import { callControlFor } from '../timeouts.js';
import { toOpenAIMessages, toOpenAITools } from './convert-messages.js';
import { mapOpenAIError } from './map-openai-error.js';
import { modelRules, rejectsTemperature, type ModelRules } from './model-rules.js';
import { readDelta } from './read-delta.js';
import { chunkBatches } from './sse-chunks.js';
import { ToolCallAssembler } from './tool-call-assembler.js';

const OFFICIAL_API = 'https://api.openai.com/v1';

/** What `think` becomes: `true` → `medium` (OpenAI's own default effort); `false` or absent → no field. */
export function reasoningEffort(
  think: boolean | 'low' | 'medium' | 'high' | undefined,
): 'low' | 'medium' | 'high' | undefined {
  if (think === true) return 'medium';
  return think === false ? undefined : think;
}

/** The OpenAI Chat Completions adapter: streams one answer through the official SDK. */
export class OpenAIChatModel implements ChatModel {
  readonly provider = 'openai' as const;
  /** Chat Completions refuses more (`400 … array too long`). */
  readonly maxTools = 128;
  readonly modelId: string;
  private readonly context: ErrorContext;
  private readonly fetch: typeof fetch;
  private client: { key: string; sdk: OpenAI } | undefined;
  /** Known (by family) or learnt (a 400 naming it) to refuse a temperature; kept until exit. */
  private noTemperature: boolean;
  private readonly rules: ModelRules;

  constructor(private readonly options: ChatModelOptions) {
    this.modelId = options.model.id;
    this.context = { model: options.model, configFile: options.configFile };
    this.fetch = guardedFetch(this.context, { refuseJson: true });
    this.rules = modelRules(this.modelId);
    this.noTemperature = !this.rules.temperature;
  }

  /** The request body sent for a ChatRequest. */
  buildBody(request: ChatRequest): ChatCompletionCreateParamsStreaming {
    const effort = reasoningEffort(this.options.model.think);
    return {
      // Extra fields first: what hac fixes (stream, usage, temperature 0.1) cannot be overridden.
      ...this.options.extraBody,
      model: this.modelId,
      messages: toOpenAIMessages(request.messages, { reasoningPassBack: this.rules.reasoningPassBack }),
      stream: true,
      stream_options: { include_usage: true },
      ...(this.noTemperature ? {} : { temperature: 0.1 }),
      ...(effort ? { reasoning_effort: effort } : {}),
      ...(request.tools?.length ? { tools: toOpenAITools(request.tools) } : {}),
    };
  }

  async *stream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatStreamPart> {
    const { model, logger } = this.options;
    const body = this.buildBody(request);
    // Only at logLevel debug: the body is the whole context (80 KB and more), serialised twice a turn otherwise.
    if (this.options.logResponses ?? true)
      logger.debug(`openai request to ${model.baseUrl}/chat/completions: ${JSON.stringify(body)}`);

    const control = callControlFor(signal, this.options, this.context);
    const fail = (error: unknown): ProviderError =>
      control.abortError() ?? mapOpenAIError(error, this.context);
    // This call's client watches the body's bytes, keep-alive comments included, for the timers.
    const sdk = this.sdkClient().withOptions({
      fetch: activityFetch(() => control.gotBytes(), this.fetch),
    });
    let finished = false;
    let iterator: AsyncIterator<ChatCompletionChunk[]> | undefined;
    try {
      try {
        iterator = await this.open(sdk, body, control.signal);
      } catch (error) {
        if (!this.temperatureRefused(error, body)) throw fail(error);
        // This model takes only its default temperature. Once more without it, and never again.
        this.noTemperature = true;
        logger.info(
          `${model.label} refused temperature ${body.temperature}; sending it without from now on.`,
        );
        yield { type: 'notice', text: `${model.label} does not accept a temperature; using its default.` };
        const { temperature: _dropped, ...rest } = body;
        try {
          iterator = await this.open(sdk, rest, control.signal);
        } catch (retryError) {
          throw fail(retryError);
        }
      }
      const splitter = new ThinkTagSplitter();
      const toolCalls = new ToolCallAssembler();
      const log = new AnswerLog(this.options.logResponses ?? true);
      let usage: Usage | undefined;
      let finishReason: string | undefined;
      for (
        let batch = await control.next(iterator, fail);
        batch;
        batch = await control.next(iterator, fail)
      ) {
        // What one network read brought, consecutive text (or thinking) joined: every layer above costs per part.
        const pieces = new JoinedPieces();
        for (const chunk of batch) {
          // Nothing more once the call is cancelled, not even the rest of what one read brought.
          if (control.signal.aborted) break;
          if (chunk.usage)
            usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
          // The answer is choice 0; a server or proxy that sends more choices (n > 1) adds nothing to it.
          const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
          if (!choice) continue;
          const delta = choice.delta as Record<string, unknown> | undefined;
          if (delta) {
            const { text, reasoning } = readDelta(delta);
            if (reasoning) pieces.add('reasoning', reasoning);
            if (text) {
              // Hot path: once the message is plain text, skip the splitter.
              if (splitter.passthrough) pieces.add('text', text);
              else for (const piece of splitter.push(text)) pieces.add(piece.kind, piece.text);
            }
            if (choice.delta.tool_calls) toolCalls.add(choice.delta.tool_calls);
          }
          if (choice.finish_reason) finishReason = choice.finish_reason;
        }
        for (const piece of pieces.list) yield log.add(piece);
      }
      // A cancelled call ends the loop without an error: say why.
      const aborted = control.abortError();
      if (aborted) throw aborted;
      if (!finishReason) throw truncatedError(this.context, 'no finish_reason');
      for (const piece of splitter.flush()) yield log.add(piece);
      const calls = toolCalls.finish(logger);
      for (const call of calls) yield { type: 'tool-call', call };
      if (usage) yield { type: 'usage', usage };
      finished = true;
      logger.debug(
        `openai response from ${this.modelId} (${finishReason}): ${log.summary({ toolCalls: calls, usage })}`,
      );
      yield { type: 'finish', reason: calls.length ? 'tool-calls' : toFinishReason(finishReason) };
    } finally {
      control.dispose(finished);
      if (!finished) void iterator?.return?.().catch(() => undefined);
    }
  }

  private async open(
    sdk: OpenAI,
    body: ChatCompletionCreateParamsStreaming,
    signal: AbortSignal,
  ): Promise<AsyncIterator<ChatCompletionChunk[]>> {
    // The SDK sends the request and reports its HTTP errors; chunkBatches reads the events (and says why).
    const response = await sdk.chat.completions.create(body, { signal }).asResponse();
    return chunkBatches(response);
  }

  private temperatureRefused(error: unknown, body: ChatCompletionCreateParamsStreaming): boolean {
    if (body.temperature === undefined || !(error instanceof OpenAI.APIError)) return false;
    const detail = error.error as { message?: unknown; param?: unknown } | undefined;
    const message = typeof detail?.message === 'string' ? detail.message : error.message;
    return rejectsTemperature(error.status as number | undefined, message, detail?.param);
  }

  /** The SDK client for the current key (re-created when `${VAR}` now resolves to another key). */
  private sdkClient(): OpenAI {
    const { model, env, configFile, logger } = this.options;
    const key = resolveApiKey(model, env);
    // A key named as `${VAR}` is never replaced by a placeholder; only a server of one's own may need none.
    if (!key && (model.baseUrl === OFFICIAL_API || envReferenceName(model.apiKey)))
      throw new ProviderError('auth', missingKeyText(model, configFile), { retryable: false });
    // Local OpenAI-compatible servers (LM Studio, llama.cpp, vLLM) often need no key; the SDK insists on one.
    const effectiveKey = key ?? 'no-key';
    if (this.client?.key !== effectiveKey) {
      this.client = {
        key: effectiveKey,
        sdk: new OpenAI({
          apiKey: effectiveKey,
          baseURL: model.baseUrl,
          ...sdkClientOptions('openai', logger, this.fetch),
        }),
      };
    }
    return this.client.sdk;
  }
}
