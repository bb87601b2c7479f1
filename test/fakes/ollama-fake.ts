// A faithful fake of Ollama's `/api/chat` (NDJSON streaming) and `/api/tags`.
// Wire format as `ollama serve` sends it: `application/x-ndjson`, one JSON object per line with
// `message.content` / `message.thinking` / `message.tool_calls` (complete objects), a final `done: true`
// object with `done_reason`, `prompt_eval_count`, `eval_count`; errors as `{"error": "..."}`.
//
//   const fake = await startOllamaFake({ models: ['llama3.2:latest'] });   // fake.baseUrl = http://127.0.0.1:<port>
//   fake.reply(ollamaReply.text(['Hel', 'lo']));
//   fake.requests[0].body.options.temperature                              // 0.1
import {
  FakeHttpServer,
  type FakeReply,
  type FakeReplySource,
  type FakeStep,
  type RecordedRequest,
} from './http-fake.js';
import type { FakeToolCall, StreamEnd } from './openai-fake.js';

export type { FakeReply, FakeStep, RecordedRequest } from './http-fake.js';
export type { FakeToolCall, StreamEnd } from './openai-fake.js';

/** One scripted answer: thinking chunks, then text chunks, then one chunk with every tool call, then the end. */
export interface OllamaFakeAnswer {
  thinking?: string[];
  text?: string[];
  toolCalls?: FakeToolCall[];
  /** prompt_eval_count / eval_count of the final object (default: derived from the chunk counts). */
  usage?: { input: number; output: number };
  /** `done_reason` of the final object (default `stop`). */
  doneReason?: string;
  /** `done` (default): the final `done: true` object; `no-done`/`eof`: the body ends without it; `stall`; `drop`. */
  end?: StreamEnd;
  /** Wait for this promise after the first content chunk. */
  pauseAfterFirst?: Promise<unknown>;
}

const NDJSON_HEADERS = { 'content-type': 'application/x-ndjson' };
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };
const CREATED_AT = '2026-11-22T03:52:00.123456789Z';

/** One NDJSON line. */
export function ndjsonLine(payload: unknown): string {
  return `${JSON.stringify(payload)}\n`;
}

/** The NDJSON steps of an answer for the request's model. */
export function ollamaAnswerSteps(answer: OllamaFakeAnswer, request: RecordedRequest): FakeStep[] {
  const model = typeof request.body?.model === 'string' ? request.body.model : 'llama-fake';
  const line = (message: Record<string, unknown>) => ({
    write: ndjsonLine({
      model,
      created_at: CREATED_AT,
      message: { role: 'assistant', content: '', ...message },
      done: false,
    }),
  });
  const steps: FakeStep[] = [];
  let first = true;
  const pause = () => {
    if (first && answer.pauseAfterFirst) steps.push({ waitFor: answer.pauseAfterFirst });
    first = false;
  };
  for (const piece of answer.thinking ?? []) {
    steps.push(line({ thinking: piece }));
    pause();
  }
  for (const piece of answer.text ?? []) {
    steps.push(line({ content: piece }));
    pause();
  }
  if (answer.toolCalls?.length) {
    const toolCalls = answer.toolCalls.map((call, index) => ({
      id: call.id ?? `call_fake${index}`,
      function: {
        index,
        name: call.name,
        arguments: typeof call.arguments === 'string' ? JSON.parse(call.arguments) : call.arguments,
      },
    }));
    steps.push(line({ tool_calls: toolCalls }));
    pause();
  }
  const end = answer.end ?? 'done';
  if (end === 'stall') return [...steps, { stall: true }];
  if (end === 'drop') return [...steps, { drop: true }];
  if (end !== 'done') return steps;
  const output =
    (answer.text?.length ?? 0) + (answer.thinking?.length ?? 0) + (answer.toolCalls?.length ?? 0);
  const usage = answer.usage ?? { input: 10, output };
  steps.push({
    write: ndjsonLine({
      model,
      created_at: CREATED_AT,
      message: { role: 'assistant', content: '' },
      done_reason: answer.doneReason ?? 'stop',
      done: true,
      total_duration: 4_883_583_458,
      load_duration: 1_334_875,
      prompt_eval_count: usage.input,
      prompt_eval_duration: 342_546_000,
      eval_count: usage.output,
      eval_duration: 4_535_599_000,
    }),
  });
  return steps;
}

/** Builders for the replies a test queues with `fake.reply(...)`. */
export const ollamaReply = {
  answer(answer: OllamaFakeAnswer): FakeReplySource {
    return (request) => ({ status: 200, headers: NDJSON_HEADERS, steps: ollamaAnswerSteps(answer, request) });
  },
  text(chunks: string[], extra: Omit<OllamaFakeAnswer, 'text'> = {}): FakeReplySource {
    return ollamaReply.answer({ ...extra, text: chunks });
  },
  /** `message.thinking` chunks, then text chunks. */
  thinking(
    thinking: string[],
    text: string[],
    extra: Omit<OllamaFakeAnswer, 'text' | 'thinking'> = {},
  ): FakeReplySource {
    return ollamaReply.answer({ ...extra, thinking, text });
  },
  /** Tool calls as complete objects in one `message.tool_calls` chunk. */
  toolCalls(calls: FakeToolCall[], extra: Omit<OllamaFakeAnswer, 'toolCalls'> = {}): FakeReplySource {
    return ollamaReply.answer({ ...extra, toolCalls: calls });
  },
  /** An HTTP error with Ollama's body `{"error": "..."}`. */
  error(status: number, message: string): FakeReply {
    return { status, headers: JSON_HEADERS, steps: [{ write: JSON.stringify({ error: message }) }] };
  },
  /** 404 as Ollama sends it for a model that is not pulled. */
  modelNotFound(model: string): FakeReply {
    return ollamaReply.error(404, `model "${model}" not found, try pulling it first`);
  },
  /** Text chunks, then an `{"error": …}` line inside the 200 stream. */
  streamError(chunks: string[], message: string): FakeReplySource {
    return (request) => ({
      status: 200,
      headers: NDJSON_HEADERS,
      steps: [
        ...ollamaAnswerSteps({ text: chunks, end: 'eof' }, request),
        { write: ndjsonLine({ error: message }) },
      ],
    });
  },
  stallBeforeHeaders(): FakeReply {
    return { stallBeforeHeaders: true };
  },
  /** Text chunks, then a line that is not JSON. */
  malformedLine(chunks: string[] = []): FakeReplySource {
    return (request) => ({
      status: 200,
      headers: NDJSON_HEADERS,
      steps: [
        ...ollamaAnswerSteps({ text: chunks, end: 'eof' }, request),
        { write: '{"model":"x","message":{"role":\n' },
      ],
    });
  },
  html200(): FakeReply {
    return {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      steps: [{ write: '<!doctype html><html><body>Ollama is running?</body></html>\n' }],
    };
  },
  emptyBody(): FakeReply {
    return { status: 200, headers: NDJSON_HEADERS, steps: [] };
  },
  /** A plain-text error body (what a proxy in front of Ollama may send). */
  textError(status: number, text: string): FakeReply {
    return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, steps: [{ write: text }] };
  },
  raw(reply: FakeReply): FakeReply {
    return reply;
  },
};

export interface OllamaFakeOptions {
  /** Installed models, listed by /api/tags; when given, /api/chat for another model gets Ollama's 404. */
  models?: string[];
}

export interface OllamaFake {
  /** The `baseUrl` to configure: `http://127.0.0.1:<port>`. */
  baseUrl: string;
  server: FakeHttpServer;
  requests: RecordedRequest[];
  /** Installed models (mutable), listed by /api/tags. */
  models: string[];
  reply(...replies: FakeReplySource[]): OllamaFake;
  nextRequest(index?: number): Promise<RecordedRequest>;
  close(): Promise<void>;
}

/** Ollama resolves `name` to `name:latest`. */
function isInstalled(models: string[], name: string): boolean {
  return models.includes(name) || models.includes(`${name}:latest`);
}

/** Starts the fake on 127.0.0.1, port 0. `GET /` answers `Ollama is running` like the real server. */
export async function startOllamaFake(options: OllamaFakeOptions = {}): Promise<OllamaFake> {
  const checkModels = options.models !== undefined;
  const fake: OllamaFake = {
    baseUrl: '',
    server: undefined as unknown as FakeHttpServer,
    requests: [],
    models: [...(options.models ?? [])],
    reply(...replies) {
      fake.server.reply(...replies);
      return fake;
    },
    nextRequest: (index) => fake.server.nextRequest(index),
    close: () => fake.server.close(),
  };
  const server = new FakeHttpServer((request): FakeReply | undefined => {
    if (request.method === 'GET' && request.path === '/') {
      return {
        status: 200,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        steps: [{ write: 'Ollama is running' }],
      };
    }
    if (request.method === 'GET' && request.path === '/api/tags') {
      const models = fake.models.map((name) => ({
        name,
        model: name,
        modified_at: '2026-11-01T10:00:00.000000000Z',
        size: 2_019_393_189,
        digest: 'a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72',
        details: {
          parent_model: '',
          format: 'gguf',
          family: 'llama',
          families: ['llama'],
          parameter_size: '3.2B',
          quantization_level: 'Q4_K_M',
        },
      }));
      return { status: 200, headers: JSON_HEADERS, steps: [{ write: JSON.stringify({ models }) }] };
    }
    if (request.method !== 'POST' || request.path !== '/api/chat') {
      return {
        status: 404,
        headers: { 'content-type': 'text/plain' },
        steps: [{ write: '404 page not found' }],
      };
    }
    const model = String(request.body?.model);
    if (checkModels && !isInstalled(fake.models, model)) return ollamaReply.modelNotFound(model);
    return server.takeQueued(request);
  });
  await server.listen();
  fake.server = server;
  fake.requests = server.requests;
  fake.baseUrl = server.origin;
  return fake;
}
