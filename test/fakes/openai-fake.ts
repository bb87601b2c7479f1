// A faithful fake of the OpenAI Chat Completions API (`POST /v1/chat/completions`, SSE streaming).
// Wire format as api.openai.com sends it: `data: {chat.completion.chunk}\n\n` events, a usage chunk with
// `choices: []` when `stream_options.include_usage` is set, `data: [DONE]`, and OpenAI-shaped error bodies.
//
//   const fake = await startOpenAIFake();            // fake.baseUrl = http://127.0.0.1:<port>/v1
//   fake.reply(openaiReply.text(['Hel', 'lo']));     // one queued reply per request
//   ... drive the client ...
//   fake.requests[0].body.temperature                // 0.1
//   await fake.close();
import {
  FakeHttpServer,
  type FakeReply,
  type FakeReplySource,
  type FakeStep,
  type RecordedRequest,
} from './http-fake.js';

export type { FakeReply, FakeStep, RecordedRequest } from './http-fake.js';

/** A tool call the fake model makes; `arguments` as an object (sent as JSON) or as the exact string to send. */
export interface FakeToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown> | string;
}

/** How a scripted stream ends. */
export type StreamEnd =
  /** finish_reason chunk, usage chunk (when asked for), `data: [DONE]` (the normal end) */
  | 'done'
  /** finish_reason and usage, then the body ends without `data: [DONE]` */
  | 'no-done'
  /** the body ends right after the content: no finish_reason, no usage, no [DONE] (a truncated stream) */
  | 'eof'
  /** the connection stays open and silent until the client closes it (a stalled model) */
  | 'stall'
  /** the socket is destroyed (a dropped connection) */
  | 'drop';

/** One scripted answer: reasoning chunks first, then text chunks, then tool calls, then the end. */
export interface FakeAnswer {
  reasoning?: string[];
  /** Which delta field carries reasoning: `reasoning_content` (DeepSeek, vLLM, llama.cpp) or `reasoning` (OpenRouter, Ollama's /v1). */
  reasoningField?: 'reasoning_content' | 'reasoning';
  text?: string[];
  toolCalls?: FakeToolCall[];
  /** How many chunks each tool call's arguments string is split across (default 3). */
  argumentPieces?: number;
  /** Token counts for the usage chunk (default: derived from the chunk counts). */
  usage?: { input: number; output: number };
  /** Default `tool_calls` when there are tool calls, else `stop`. */
  finishReason?: string;
  end?: StreamEnd;
  /** Wait for this promise after the first content chunk (lets a test act mid-stream). */
  pauseAfterFirst?: Promise<unknown>;
}

/** OpenAI's error object: `{"error": {message, type, param, code}}`. */
export interface OpenAIErrorBody {
  message: string;
  type?: string;
  param?: string | null;
  code?: string | null;
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-request-id': 'req_fake',
  'openai-processing-ms': '12',
};

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req_fake' };

/** One SSE event line as OpenAI writes it. */
export function sseData(payload: unknown): string {
  return `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
}

/** A `chat.completion.chunk` with one choice. */
export function completionChunk(
  model: string,
  delta: Record<string, unknown>,
  finishReason: string | null = null,
  withUsage = true,
): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 1_763_780_000,
    model,
    service_tier: 'default',
    system_fingerprint: 'fp_fake',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(withUsage ? { usage: null } : {}),
  };
}

function usageChunk(model: string, input: number, output: number): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 1_763_780_000,
    model,
    service_tier: 'default',
    system_fingerprint: 'fp_fake',
    choices: [],
    usage: {
      prompt_tokens: input,
      completion_tokens: output,
      total_tokens: input + output,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
  };
}

/** The SSE steps of an answer, honouring the request's `model` and `stream_options.include_usage`. */
export function answerSteps(answer: FakeAnswer, request: RecordedRequest): FakeStep[] {
  const model = typeof request.body?.model === 'string' ? request.body.model : 'gpt-fake';
  const includeUsage = request.body?.stream_options?.include_usage === true;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    write: sseData(completionChunk(model, delta, finish, includeUsage)),
  });
  const steps: FakeStep[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  const field = answer.reasoningField ?? 'reasoning_content';
  let first = true;
  const pause = () => {
    if (first && answer.pauseAfterFirst) steps.push({ waitFor: answer.pauseAfterFirst });
    first = false;
  };
  for (const piece of answer.reasoning ?? []) {
    steps.push(chunk({ [field]: piece }));
    pause();
  }
  for (const piece of answer.text ?? []) {
    steps.push(chunk({ content: piece }));
    pause();
  }
  (answer.toolCalls ?? []).forEach((call, index) => {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    const pieces = Math.max(1, answer.argumentPieces ?? 3);
    const size = Math.ceil(args.length / pieces) || 1;
    const id = call.id ?? `call_fake${index}`;
    steps.push(
      chunk({ tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (let at = 0; at < args.length; at += size) {
      steps.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(at, at + size) } }] }));
    }
    pause();
  });
  const end = answer.end ?? 'done';
  if (end === 'stall') return [...steps, { stall: true }];
  if (end === 'drop') return [...steps, { drop: true }];
  if (end === 'eof') return steps;
  const finish = answer.finishReason ?? (answer.toolCalls?.length ? 'tool_calls' : 'stop');
  steps.push(chunk({}, finish));
  if (includeUsage) {
    const output =
      (answer.text?.length ?? 0) + (answer.reasoning?.length ?? 0) + (answer.toolCalls?.length ?? 0);
    const usage = answer.usage ?? { input: 10, output };
    steps.push({ write: sseData(usageChunk(model, usage.input, usage.output)) });
  }
  if (end === 'done') steps.push({ write: 'data: [DONE]\n\n' });
  return steps;
}

/** Builders for the replies a test queues with `fake.reply(...)`. */
export const openaiReply = {
  /** Chunks exactly as given (a vendor's own shapes), each as one SSE event, then `data: [DONE]`. */
  chunks(chunks: Record<string, unknown>[]): FakeReply {
    return {
      status: 200,
      headers: SSE_HEADERS,
      steps: [...chunks.map((c) => ({ write: sseData(c) })), { write: 'data: [DONE]\n\n' }],
    };
  },
  /** A streamed answer (see FakeAnswer). */
  answer(answer: FakeAnswer): FakeReplySource {
    return (request) => ({ status: 200, headers: SSE_HEADERS, steps: answerSteps(answer, request) });
  },
  /** A streamed text answer in these chunks. */
  text(chunks: string[], extra: Omit<FakeAnswer, 'text'> = {}): FakeReplySource {
    return openaiReply.answer({ ...extra, text: chunks });
  },
  /** Reasoning chunks (in `reasoning_content` unless told), then text chunks. */
  thinking(
    reasoning: string[],
    text: string[],
    extra: Omit<FakeAnswer, 'text' | 'reasoning'> = {},
  ): FakeReplySource {
    return openaiReply.answer({ ...extra, reasoning, text });
  },
  /** Native tool calls, their arguments split across chunks by index. */
  toolCalls(calls: FakeToolCall[], extra: Omit<FakeAnswer, 'toolCalls'> = {}): FakeReplySource {
    return openaiReply.answer({ ...extra, toolCalls: calls });
  },
  /** An HTTP error with OpenAI's JSON error body; `retryAfter` sets the Retry-After header (seconds or an HTTP date). */
  error(
    status: number,
    error: OpenAIErrorBody,
    options: { retryAfter?: string | number; headers?: Record<string, string> } = {},
  ): FakeReply {
    const headers: Record<string, string> = { ...JSON_HEADERS, ...options.headers };
    if (options.retryAfter !== undefined) headers['retry-after'] = String(options.retryAfter);
    const body = {
      error: {
        message: error.message,
        type: error.type ?? 'invalid_request_error',
        param: error.param ?? null,
        code: error.code ?? null,
      },
    };
    return { status, headers, steps: [{ write: JSON.stringify(body, null, 2) + '\n' }] };
  },
  /** 401 as api.openai.com sends it for a wrong key. */
  unauthorized(key = 'sk-wrong'): FakeReply {
    return openaiReply.error(401, {
      message: `Incorrect API key provided: ${key.slice(0, 3)}*****${key.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      code: 'invalid_api_key',
    });
  },
  /** 404 for a model that does not exist. */
  modelNotFound(model: string): FakeReply {
    return openaiReply.error(404, {
      message: `The model \`${model}\` does not exist or you do not have access to it.`,
      code: 'model_not_found',
    });
  },
  /** 429 with a Retry-After header (seconds or HTTP date), or none. */
  rateLimited(retryAfter?: string | number): FakeReply {
    return openaiReply.error(
      429,
      {
        message:
          'Rate limit reached for gpt-4o in organization org-fake on requests per min (RPM): Limit 3, Used 3, Requested 1.',
        type: 'requests',
        code: 'rate_limit_exceeded',
      },
      { retryAfter },
    );
  },
  /** 500 server_error. */
  serverError(): FakeReply {
    return openaiReply.error(500, {
      message: 'The server had an error while processing your request. Sorry about that!',
      type: 'server_error',
    });
  },
  /** 503 overloaded. */
  overloaded(): FakeReply {
    return openaiReply.error(503, {
      message: 'The engine is currently overloaded, please try again later.',
      type: 'server_error',
    });
  },
  /** 400 context_length_exceeded. */
  contextTooLong(): FakeReply {
    return openaiReply.error(400, {
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
      param: 'messages',
      code: 'context_length_exceeded',
    });
  },
  /** Text chunks, then `data: {"error": …}` inside the stream (HTTP 200 already sent). */
  streamError(chunks: string[], error: OpenAIErrorBody): FakeReplySource {
    return (request) => ({
      status: 200,
      headers: SSE_HEADERS,
      steps: [
        ...answerSteps({ text: chunks, end: 'eof' }, request),
        { write: sseData({ error: { type: 'server_error', param: null, code: null, ...error } }) },
      ],
    });
  },
  /** Never answers: no status line, no headers. */
  stallBeforeHeaders(): FakeReply {
    return { stallBeforeHeaders: true };
  },
  /** Content chunks, then a line that is not JSON. */
  malformedLine(chunks: string[] = []): FakeReplySource {
    return (request) => ({
      status: 200,
      headers: SSE_HEADERS,
      steps: [
        ...answerSteps({ text: chunks, end: 'eof' }, request),
        { write: 'data: {"id":"chatcmpl-fake","choices":[{"delta":\n\n' },
      ],
    });
  },
  /** 200 with a web page (a wrong baseUrl pointing at a web UI). */
  html200(): FakeReply {
    return {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      steps: [{ write: '<!doctype html><html><body><h1>Welcome</h1></body></html>\n' }],
    };
  },
  /** 200 event stream with an empty body. */
  emptyBody(): FakeReply {
    return { status: 200, headers: SSE_HEADERS, steps: [] };
  },
  /** Any status, headers and raw body steps. */
  raw(reply: FakeReply): FakeReply {
    return reply;
  },
};

/** Options of the fake service itself. */
export interface OpenAIFakeOptions {
  /** When set, requests without `Authorization: Bearer <apiKey>` get OpenAI's 401. */
  apiKey?: string;
  /**
   * When set, a request for another model gets OpenAI's 404 model_not_found, and GET /models lists them; an entry
   * may carry the extra fields compatible servers add (vLLM's `max_model_len`, OpenRouter's `context_length`).
   */
  models?: (string | { id: string; [field: string]: unknown })[];
}

/** The running fake. */
export interface OpenAIFake {
  /** The `baseUrl` to configure: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  server: FakeHttpServer;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  reply(...replies: FakeReplySource[]): OpenAIFake;
  /** The next request to arrive (or `requests[index]` once it is there). */
  nextRequest(index?: number): Promise<RecordedRequest>;
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1, port 0. Requests with no queued reply get a plain-text 500 that names the request. */
export async function startOpenAIFake(options: OpenAIFakeOptions = {}): Promise<OpenAIFake> {
  const server: FakeHttpServer = new FakeHttpServer((request) => {
    if (request.method === 'GET' && request.path === '/v1/models') {
      const data = (options.models ?? []).map((model) => ({
        object: 'model',
        created: 1_700_000_000,
        owned_by: 'system',
        ...(typeof model === 'string' ? { id: model } : model),
      }));
      return {
        status: 200,
        headers: JSON_HEADERS,
        steps: [{ write: JSON.stringify({ object: 'list', data }) }],
      };
    }
    if (request.method !== 'POST' || request.path !== '/v1/chat/completions') {
      return openaiReply.error(404, {
        message: `Invalid URL (${request.method} ${request.path})`,
        code: null,
      });
    }
    if (options.apiKey !== undefined) {
      const auth = request.headers.authorization;
      if (!auth)
        return openaiReply.error(401, {
          message:
            "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
        });
      if (auth !== `Bearer ${options.apiKey}`) return openaiReply.unauthorized(auth.replace(/^Bearer /, ''));
    }
    if (
      options.models &&
      !options.models.some((m) => (typeof m === 'string' ? m : m.id) === request.body?.model)
    )
      return openaiReply.modelNotFound(String(request.body?.model));
    return server.takeQueued(request);
  });
  await server.listen();
  const fake: OpenAIFake = {
    baseUrl: `${server.origin}/v1`,
    server,
    requests: server.requests,
    reply(...replies) {
      server.reply(...replies);
      return fake;
    },
    nextRequest: (index) => server.nextRequest(index),
    close: () => server.close(),
  };
  return fake;
}
