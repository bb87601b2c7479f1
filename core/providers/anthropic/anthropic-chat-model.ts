import Anthropic, { APIError } from '@anthropic-ai/sdk';
import type { Stream } from '@anthropic-ai/sdk/core/streaming';
import type {
  MessageCreateParamsStreaming,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { missingKeyText, resolveApiKey } from '../../config/load-config.js';
import { ProviderError } from '../../errors/provider-error.js';
import type { ChatStreamPart } from '../../types/chat-stream.js';
import type { NativeToolCall, Usage } from '../../types/message.js';
import { activityFetch } from '../activity-fetch.js';
import { AnswerLog } from '../answer-log.js';
import type { ChatModel, ChatRequest } from '../chat-model.js';
import type { ChatModelOptions } from '../chat-model-options.js';
import { streamedToolArguments } from '../parse-tool-arguments.js';
import { truncatedError, type ErrorContext } from '../provider-errors.js';
import { guardedFetch, sdkClientOptions } from '../sdk-client.js';
import { callControlFor } from '../timeouts.js';
import { toAnthropicMessages, toAnthropicTools } from './convert-messages.js';
import { mapAnthropicError } from './map-anthropic-error.js';
import { defaultMaxTokens, thinkingBudget, thinkingStyle, type ThinkingStyle } from './model-rules.js';

/** A content block as it streams: text, thinking (signed), redacted thinking, or a tool call. */
interface OpenBlock {
  type: string;
  thinking?: string;
  signature?: string;
  data?: string;
  id?: string;
  name?: string;
  json?: string;
}

/**
 * The Anthropic Messages API adapter on the official SDK, its retries off (ours decide): system
 * on top, `max_tokens` always, tools as `input_schema`, thinking adaptive or by budget as the model takes it, signed
 * thinking blocks handed back (`replay`) for the tool round of the same turn, `ping` and every byte as activity.
 */
export class AnthropicChatModel implements ChatModel {
  readonly provider = 'anthropic' as const;
  readonly modelId: string;
  private readonly context: ErrorContext;
  private readonly fetch: typeof fetch;
  private client: { key: string; sdk: Anthropic } | undefined;
  /** Learnt from a 400 that names it, kept until exit. */
  private style: ThinkingStyle;
  private noTemperature = false;

  constructor(private readonly options: ChatModelOptions) {
    this.modelId = options.model.id;
    this.context = { model: options.model, configFile: options.configFile };
    this.fetch = guardedFetch(this.context, { refuseJson: false });
    this.style = thinkingStyle(this.modelId);
  }

  /** The request body sent for a ChatRequest. */
  buildBody(request: ChatRequest): MessageCreateParamsStreaming {
    const { think, maxTokens } = this.options.model;
    const { system, messages } = toAnthropicMessages(request.messages);
    const thinking = think === undefined || think === false ? undefined : think;
    const budget = thinking !== undefined && this.style === 'budget' ? thinkingBudget(thinking) : undefined;
    const max = maxTokens ?? Math.max(defaultMaxTokens(this.modelId), budget ? budget + 4_096 : 0);
    return {
      ...(this.options.extraBody as object),
      model: this.modelId,
      max_tokens: max,
      ...(system ? { system } : {}),
      messages,
      stream: true,
      // The API rejects a temperature while thinking; else hac's fixed 0.1.
      ...(thinking === undefined && !this.noTemperature ? { temperature: 0.1 } : {}),
      ...(thinking === undefined
        ? {}
        : budget !== undefined
          ? { thinking: { type: 'enabled', budget_tokens: budget } }
          : {
              thinking: { type: 'adaptive', display: 'summarized' },
              ...(thinking === true ? {} : { output_config: { effort: thinking } }),
            }),
      ...(request.tools?.length ? { tools: toAnthropicTools(request.tools) } : {}),
    };
  }

  async *stream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatStreamPart> {
    const { logger } = this.options;
    const control = callControlFor(signal, this.options, this.context);
    const fail = (error: unknown): ProviderError =>
      control.abortError() ?? mapAnthropicError(error, this.context);
    const sdk = this.sdkClient().withOptions({
      fetch: activityFetch(() => control.gotBytes(), this.fetch),
    });
    let finished = false;
    let iterator: AsyncIterator<RawMessageStreamEvent> | undefined;
    try {
      iterator = yield* this.open(sdk, request, control.signal, fail);
      const log = new AnswerLog(this.options.logResponses ?? true);
      const blocks = new Map<number, OpenBlock>();
      const replay: unknown[] = [];
      const calls: NativeToolCall[] = [];
      let usage: Usage = { inputTokens: 0, outputTokens: 0 };
      let stopReason: string | null | undefined;
      let stopped = false;
      for (
        let event = await control.next(iterator, fail);
        event;
        event = await control.next(iterator, fail)
      ) {
        switch (event.type) {
          case 'message_start':
            usage = {
              inputTokens: event.message.usage.input_tokens,
              outputTokens: event.message.usage.output_tokens,
            };
            break;
          case 'content_block_start': {
            const block = event.content_block as unknown as Record<string, unknown>;
            blocks.set(event.index, {
              type: String(block.type),
              thinking: '',
              signature: '',
              data: typeof block.data === 'string' ? block.data : undefined,
              id: typeof block.id === 'string' ? block.id : undefined,
              name: typeof block.name === 'string' ? block.name : undefined,
              json: '',
            });
            if (block.type === 'text' && typeof block.text === 'string' && block.text)
              yield log.textPart(block.text);
            break;
          }
          case 'content_block_delta': {
            const block = blocks.get(event.index);
            const delta = event.delta as unknown as Record<string, string>;
            if (delta.type === 'text_delta') yield log.textPart(delta.text ?? '');
            else if (delta.type === 'thinking_delta') {
              if (block) block.thinking += delta.thinking ?? '';
              yield log.reasoningPart(delta.thinking ?? '');
            } else if (delta.type === 'signature_delta' && block) block.signature += delta.signature ?? '';
            else if (delta.type === 'input_json_delta' && block) block.json += delta.partial_json ?? '';
            break;
          }
          case 'content_block_stop': {
            const block = blocks.get(event.index);
            if (block?.type === 'thinking')
              replay.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
            else if (block?.type === 'redacted_thinking')
              replay.push({ type: 'redacted_thinking', data: block.data });
            else if (block?.type === 'tool_use') calls.push(this.toolCall(block));
            break;
          }
          case 'message_delta':
            stopReason = event.delta.stop_reason ?? stopReason;
            usage = { ...usage, outputTokens: event.usage.output_tokens ?? usage.outputTokens };
            break;
          case 'message_stop':
            stopped = true;
            break;
        }
      }
      const aborted = control.abortError();
      if (aborted) throw aborted;
      if (!stopped) throw truncatedError(this.context, 'no message_stop');
      for (const call of calls) yield { type: 'tool-call', call };
      if (calls.length && replay.length) yield { type: 'replay', blocks: replay };
      yield { type: 'usage', usage };
      finished = true;
      logger.debug(
        `anthropic response from ${this.modelId} (${stopReason ?? 'none'}): ${log.summary({ toolCalls: calls, usage })}`,
      );
      yield { type: 'finish', reason: calls.length ? 'tool-calls' : finishReason(stopReason) };
    } finally {
      control.dispose(finished);
      if (!finished) void iterator?.return?.().catch(() => undefined);
    }
  }

  /**
   * Opens the stream. A 400 that names the thinking type switches to the other way of thinking; one that names
   * the temperature drops it; either is tried once more and remembered until exit.
   */
  private async *open(
    sdk: Anthropic,
    request: ChatRequest,
    signal: AbortSignal,
    fail: (error: unknown) => ProviderError,
  ): AsyncGenerator<ChatStreamPart, AsyncIterator<RawMessageStreamEvent>> {
    const body = this.buildBody(request);
    const { logger, model } = this.options;
    // Only at logLevel debug: the body is the whole context (80 KB and more), serialised twice a turn otherwise.
    if (this.options.logResponses ?? true)
      logger.debug(`anthropic request to ${model.baseUrl}/v1/messages: ${JSON.stringify(body)}`);
    try {
      return await post(sdk, body, signal);
    } catch (error) {
      const refused = refusal(error);
      if (refused === 'thinking' && body.thinking) {
        this.style = this.style === 'adaptive' ? 'budget' : 'adaptive';
        logger.info(`${model.label} refused this way of thinking; using ${this.style} thinking from now on.`);
      } else if (refused === 'temperature' && 'temperature' in body) {
        this.noTemperature = true;
        yield { type: 'notice', text: `${model.label} does not accept a temperature; using its default.` };
      } else throw fail(error);
      try {
        return await post(sdk, this.buildBody(request), signal);
      } catch (retryError) {
        throw fail(retryError);
      }
    }
  }

  /** A finished `tool_use` block; arguments that are not complete JSON are never repaired into a run. */
  private toolCall(block: OpenBlock): NativeToolCall {
    const id = block.id ?? '';
    const name = block.name ?? '';
    const raw = block.json ?? '';
    return { id, name, ...streamedToolArguments(raw, this.options.logger, name) };
  }

  /** The SDK client for the current key (re-created when `${VAR}` now resolves to another key). */
  private sdkClient(): Anthropic {
    const { model, env, configFile, logger } = this.options;
    const key = resolveApiKey(model, env);
    if (!key) throw new ProviderError('auth', missingKeyText(model, configFile), { retryable: false });
    if (this.client?.key !== key) {
      this.client = {
        key,
        sdk: new Anthropic({
          // `x-api-key` as the API documents it (proxies expect it); the SDK's own apiKey is sent as a Bearer token.
          apiKey: null,
          authToken: null,
          defaultHeaders: { 'x-api-key': key },
          baseURL: model.baseUrl,
          ...sdkClientOptions('anthropic', logger, this.fetch),
        }),
      };
    }
    return this.client.sdk;
  }
}

/**
 * POST /v1/messages through the SDK's transport (auth, version header, SSE parsing, errors). Not
 * `messages.create`: it `console.warn`s about deprecated ids and thinking styles, which would land mid-prompt on
 * a REPL screen; our rules already choose the thinking style.
 */
async function post(
  sdk: Anthropic,
  body: MessageCreateParamsStreaming,
  signal: AbortSignal,
): Promise<AsyncIterator<RawMessageStreamEvent>> {
  const stream = await sdk.post<Stream<RawMessageStreamEvent>>('/v1/messages', {
    body,
    stream: true,
    signal,
  });
  return stream[Symbol.asyncIterator]();
}

/** Which setting a 400 refused, if it names one. */
function refusal(error: unknown): 'thinking' | 'temperature' | undefined {
  if (!(error instanceof APIError) || error.status !== 400) return undefined;
  const text = JSON.stringify(error.error ?? error.message);
  if (/thinking|budget_tokens|adaptive/i.test(text)) return 'thinking';
  return /temperature/i.test(text) ? 'temperature' : undefined;
}

function finishReason(stop: string | null | undefined): 'stop' | 'length' | 'other' {
  if (stop === 'end_turn' || stop === 'stop_sequence') return 'stop';
  return stop === 'max_tokens' ? 'length' : 'other';
}
