import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../core/errors/provider-error.js';
import { MemoryLogger } from '../../../core/logging/logger.js';
import type { ModelConfig } from '../../../core/config/load-config.js';
import { createChatModel } from '../../../core/providers/create-chat-model.js';
import { OpenAIChatModel } from '../../../core/providers/openai/openai-chat-model.js';
import { isStalledStream } from '../../../core/providers/timeouts.js';
import type { ChatRequest } from '../../../core/providers/chat-model.js';
import { refusedUrl } from '../../fakes/http-fake.js';
import { collect, fakeModelConfig } from '../../fakes/model-config.js';
import {
  completionChunk,
  openaiReply,
  sseData,
  startOpenAIFake,
  type OpenAIFake,
} from '../../fakes/openai-fake.js';

const CONFIG_FILE = '/home/u/.humble-ai-cli/config.json';
const hello: ChatRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi' },
  ],
};

let fake: OpenAIFake;
let logger: MemoryLogger;

beforeEach(async () => {
  fake = await startOpenAIFake();
  logger = new MemoryLogger();
});
afterEach(async () => {
  await fake.close();
});

function model(overrides: Partial<ModelConfig> = {}, env: NodeJS.ProcessEnv = {}): OpenAIChatModel {
  return new OpenAIChatModel({
    model: fakeModelConfig('openai', fake.baseUrl, overrides),
    configFile: CONFIG_FILE,
    logger,
    env,
  });
}

function run(m: OpenAIChatModel, request: ChatRequest = hello, signal = new AbortController().signal) {
  return collect(m.stream(request, signal));
}

async function failure(m: OpenAIChatModel, request: ChatRequest = hello): Promise<ProviderError> {
  const { error } = await run(m, request);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('request shape (R-PROV-2)', () => {
  it('the-request-body-is-in-the-debug-log-only-when-responses-are-logged', async () => {
    fake.reply(openaiReply.text(['ok']), openaiReply.text(['ok']));
    await run(model());
    expect(logger.text()).toContain('openai request to');
    expect(logger.text()).toContain('"content":"Hi"');
    const quiet = new MemoryLogger();
    await run(
      new OpenAIChatModel({
        model: fakeModelConfig('openai', fake.baseUrl),
        configFile: CONFIG_FILE,
        logger: quiet,
        logResponses: false,
      }),
    );
    expect(quiet.text()).not.toContain('openai request to');
    expect(quiet.text()).not.toContain('"content":"Hi"');
  });

  it('sends-stream-temperature-0.1-include-usage-and-bearer-key', async () => {
    fake.reply(openaiReply.text(['ok']));
    await run(model());
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test-1234567890abcd');
    expect(request.body).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.1,
    });
  });

  it('sends-tools-only-when-the-request-has-native-tools', async () => {
    fake.reply(openaiReply.text(['a']), openaiReply.text(['b']));
    const m = model();
    await run(m, { ...hello, tools: [] });
    await run(m, {
      ...hello,
      tools: [
        {
          name: 'fs__read',
          description: 'Read a file',
          parameters: { type: 'object', properties: { path: { type: 'string' } } },
        },
      ],
    });
    expect(fake.requests[0]!.body).not.toHaveProperty('tools');
    expect(fake.requests[1]!.body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'fs__read',
          description: 'Read a file',
          parameters: { type: 'object', properties: { path: { type: 'string' } } },
        },
      },
    ]);
  });

  it.each([
    [true, 'medium'],
    ['low', 'low'],
    ['high', 'high'],
    [false, undefined],
    [undefined, undefined],
  ] as const)('maps-think-%s-to-reasoning-effort-%s', async (think, effort) => {
    fake.reply(openaiReply.text(['ok']));
    await run(model({ think }));
    expect(fake.requests[0]!.body.reasoning_effort).toBe(effort);
  });

  it('converts-tool-calls-and-results-to-openai-messages', async () => {
    fake.reply(openaiReply.text(['done']));
    await run(model(), {
      messages: [
        { role: 'user', content: 'read it' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'call_1', name: 'fs__read', arguments: { path: 'a.txt' } }],
        },
        { role: 'tool', content: 'hello', toolCallId: 'call_1', toolName: 'read' },
        { role: 'assistant', content: '{"name":"read","arguments":{}}' },
        { role: 'tool', content: 'prompt-mode result', toolName: 'read' },
      ],
    });
    expect(fake.requests[0]!.body.messages).toEqual([
      { role: 'user', content: 'read it' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'fs__read', arguments: '{"path":"a.txt"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'hello' },
      { role: 'assistant', content: '{"name":"read","arguments":{}}' },
      { role: 'user', content: 'Result of read:\nprompt-mode result' },
    ]);
  });

  it('adds-configured-extra-body-fields-without-overriding-the-fixed-ones', async () => {
    fake.reply(openaiReply.text(['ok']));
    const m = new OpenAIChatModel({
      model: fakeModelConfig('openai', fake.baseUrl),
      configFile: CONFIG_FILE,
      logger,
      extraBody: { top_k: 20, thinking: { type: 'enabled' }, temperature: 0.9, stream: false },
    });
    await run(m);
    expect(fake.requests[0]!.body).toMatchObject({
      top_k: 20,
      thinking: { type: 'enabled' },
      temperature: 0.1,
      stream: true,
    });
  });

  it('keeps-no-copy-of-the-answer-when-responses-are-not-logged', async () => {
    fake.reply(openaiReply.text(['secret answer']));
    const m = new OpenAIChatModel({
      model: fakeModelConfig('openai', fake.baseUrl),
      configFile: CONFIG_FILE,
      logger,
      logResponses: false,
    });
    expect((await run(m)).text).toBe('secret answer');
    expect(logger.text()).not.toContain('secret answer');
    expect(logger.text()).toContain('"text":"(not kept)"');
  });

  it('reads-the-key-from-an-env-reference-or-OPENAI_API_KEY', async () => {
    fake.reply(openaiReply.text(['a']), openaiReply.text(['b']));
    await run(model({ apiKey: '${MY_KEY}' }, { MY_KEY: 'sk-from-env' }));
    await run(model({ apiKey: undefined }, { OPENAI_API_KEY: 'sk-default-env' }));
    expect(fake.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer sk-from-env',
      'Bearer sk-default-env',
    ]);
  });

  it('debug-logs-the-request-and-response-but-never-the-key', async () => {
    fake.reply(openaiReply.text(['Hel', 'lo']));
    await run(model());
    const log = logger.text();
    expect(log).toContain('"temperature":0.1');
    expect(log).toContain('"text":"Hello"');
    expect(log).not.toContain('sk-test-1234567890abcd');
    expect(log).not.toMatch(/authorization/i);
  });

  it('is-created-lazily-from-a-model-config', async () => {
    fake.reply(openaiReply.text(['lazy']));
    const m = await createChatModel({
      model: fakeModelConfig('openai', fake.baseUrl),
      configFile: CONFIG_FILE,
      logger,
    });
    expect(m.provider).toBe('openai');
    expect((await collect(m.stream(hello, new AbortController().signal))).text).toBe('lazy');
  });
});

describe('stream parts', () => {
  it('yields-text-deltas-then-usage-then-finish', async () => {
    fake.reply(openaiReply.text(['Hel', 'lo', ' world'], { usage: { input: 12, output: 3 } }));
    const result = await run(model());
    expect(result.error).toBeUndefined();
    const types = result.parts.map((p) => p.type);
    expect(types.slice(-2)).toEqual(['usage', 'finish']);
    expect(new Set(types.slice(0, -2))).toEqual(new Set(['text-delta']));
    expect(result.text).toBe('Hello world');
    expect(result.parts.slice(-2)).toEqual([
      { type: 'usage', usage: { inputTokens: 12, outputTokens: 3 } },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('events-of-one-read-come-as-one-part-and-later-reads-as-their-own', async () => {
    // Each layer above the adapter costs per part: what one network read brought is one part, each kind apart.
    let release!: () => void;
    const later = new Promise<void>((resolve) => (release = resolve));
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      sseData(completionChunk('gpt-4o', delta, finish));
    fake.reply(
      openaiReply.raw({
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        steps: [
          {
            write:
              chunk({ reasoning_content: 'Let me ' }) +
              chunk({ reasoning_content: 'think.' }) +
              chunk({ content: 'Hel' }) +
              chunk({ content: 'lo' }),
          },
          { waitFor: later },
          { write: chunk({ content: ' world' }, 'stop') + 'data: [DONE]\n\n' },
        ],
      }),
    );
    const parts: unknown[] = [];
    for await (const part of model().stream(hello, new AbortController().signal)) {
      parts.push(part);
      if (parts.length === 2) release();
    }
    expect(parts).toEqual([
      { type: 'reasoning-delta', text: 'Let me think.' },
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ' world' },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it.each(['reasoning_content', 'reasoning'] as const)('reads-reasoning-from-delta-%s', async (field) => {
    fake.reply(openaiReply.thinking(['Let me', ' think.\n'], ['Answer'], { reasoningField: field }));
    const result = await run(model());
    expect(result.reasoning).toBe('Let me think.\n');
    expect(result.text).toBe('Answer');
    expect(result.parts.findIndex((p) => p.type === 'text-delta')).toBeGreaterThan(
      result.parts.findIndex((p) => p.type === 'reasoning-delta'),
    );
  });

  it('turns-leading-think-tags-split-across-chunks-into-reasoning', async () => {
    fake.reply(openaiReply.text(['<thi', 'nk>\n  step one\n', 'step two</th', 'ink>\n\nThe answer']));
    const result = await run(model());
    expect(result.reasoning).toBe('\n  step one\nstep two');
    expect(result.text).toBe('\n\nThe answer');
  });

  it('assembles-tool-calls-split-across-chunks-by-index', async () => {
    fake.reply(
      openaiReply.toolCalls(
        [
          { id: 'call_a', name: 'fs__read', arguments: { path: '/tmp/a.txt', lines: [1, 2] } },
          { id: 'call_b', name: 'hac__ask_user', arguments: { question: '어느 파일?' } },
        ],
        { argumentPieces: 5 },
      ),
    );
    const result = await run(model());
    expect(result.parts.filter((p) => p.type === 'tool-call')).toEqual([
      {
        type: 'tool-call',
        call: { id: 'call_a', name: 'fs__read', arguments: { path: '/tmp/a.txt', lines: [1, 2] } },
      },
      {
        type: 'tool-call',
        call: { id: 'call_b', name: 'hac__ask_user', arguments: { question: '어느 파일?' } },
      },
    ]);
    expect(result.parts.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' });
  });

  it('keeps-tool-calls-whatever-the-finish-reason', async () => {
    fake.reply(openaiReply.toolCalls([{ name: 'x__y', arguments: '{"a":1,}' }], { finishReason: 'stop' }));
    const result = await run(model());
    expect(result.parts.filter((p) => p.type === 'tool-call')).toEqual([
      { type: 'tool-call', call: { id: 'call_fake0', name: 'x__y', arguments: { a: 1 } } },
    ]);
    expect(result.parts.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' });
  });

  it('accepts-a-complete-stream-without-the-DONE-line', async () => {
    fake.reply(openaiReply.text(['fine'], { end: 'no-done' }));
    const result = await run(model());
    expect(result.error).toBeUndefined();
    expect(result.text).toBe('fine');
  });

  it('maps-finish-reason-length', async () => {
    fake.reply(openaiReply.text(['cut'], { finishReason: 'length' }));
    expect((await run(model())).parts.at(-1)).toEqual({ type: 'finish', reason: 'length' });
  });
});

describe('errors (R-PROV-3)', () => {
  it('401-is-auth-naming-the-config-file', async () => {
    fake.reply(openaiReply.unauthorized());
    const error = await failure(model({ label: 'My GPT' }));
    expect(error.code).toBe('auth');
    expect(error.message).toBe(`Authentication failed for My GPT: check apiKey in ${CONFIG_FILE}`);
    expect(error.retryable).toBe(false);
  });

  it('the-fake-checks-the-key-and-the-model-like-the-service', async () => {
    const strict = await startOpenAIFake({ apiKey: 'sk-right', models: ['gpt-4o'] });
    const at = (overrides: Partial<ModelConfig>) =>
      new OpenAIChatModel({
        model: fakeModelConfig('openai', strict.baseUrl, overrides),
        configFile: CONFIG_FILE,
        logger,
      });
    strict.reply(openaiReply.text(['ok']));
    expect((await run(at({ apiKey: 'sk-right' }))).text).toBe('ok');
    expect(((await run(at({ apiKey: 'sk-wrong' }))).error as ProviderError).code).toBe('auth');
    expect(((await run(at({ apiKey: 'sk-right', id: 'gpt-5' }))).error as ProviderError).code).toBe(
      'model-not-found',
    );
    await strict.close();
  });

  it('missing-key-is-auth-without-any-request', async () => {
    const m = new OpenAIChatModel({
      model: fakeModelConfig('openai', 'https://api.openai.com/v1', { apiKey: '${NOPE}' }),
      configFile: CONFIG_FILE,
      logger,
      env: {},
    });
    const error = await failure(m);
    expect(error.code).toBe('auth');
    expect(error.message).toBe(
      `NOPE is not set: set it in hac's environment, or give the key as "apiKey" of "gpt-4o" in ${CONFIG_FILE}`,
    );
    expect(fake.requests).toHaveLength(0);
  });

  it('a-key-named-as-a-variable-that-is-unset-is-never-sent-as-a-placeholder-even-to-a-local-server', async () => {
    const error = await failure(model({ apiKey: '${OPENAI_API_KEY}' }));
    expect(error.code).toBe('auth');
    expect(error.message).toMatch(/^OPENAI_API_KEY is not set: /);
    expect(fake.requests).toHaveLength(0);
  });

  it('a-custom-base-url-may-need-no-key', async () => {
    fake.reply(openaiReply.text(['local']));
    expect((await run(model({ apiKey: undefined }))).text).toBe('local');
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer no-key');
  });

  it('404-model-is-model-not-found', async () => {
    fake.reply(openaiReply.modelNotFound('gpt-9'));
    const error = await failure(model({ id: 'gpt-9' }));
    expect(error.code).toBe('model-not-found');
    expect(error.message).toBe('Model gpt-9 was not found on openai. Choose another with /set-model');
  });

  it('404-without-a-model-error-points-at-base-url', async () => {
    fake.reply(
      openaiReply.raw({
        status: 404,
        headers: { 'content-type': 'text/plain' },
        steps: [{ write: 'Not Found' }],
      }),
    );
    const error = await failure(model());
    expect(error.code).toBe('bad-request');
    expect(error.message).toContain(`check baseUrl in ${CONFIG_FILE}`);
  });

  it('429-is-rate-limit-with-retry-after-seconds', async () => {
    fake.reply(openaiReply.rateLimited(7));
    const error = await failure(model());
    expect(error.code).toBe('rate-limit');
    expect(error.details.retryAfterMs).toBe(7000);
    expect(error.message).toContain(
      'Rate limit reached for gpt-4o (HTTP 429): Rate limit reached for gpt-4o in organization',
    );
  });

  it('429-retry-after-as-an-http-date', async () => {
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 3000);
    fake.reply(openaiReply.rateLimited(at.toUTCString()));
    const error = await failure(model());
    expect(error.details.retryAfterMs).toBeGreaterThan(1000);
    expect(error.details.retryAfterMs).toBeLessThanOrEqual(3000);
  });

  it('429-insufficient-quota-is-not-retryable', async () => {
    fake.reply(
      openaiReply.error(429, {
        message: 'You exceeded your current quota.',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      }),
    );
    const error = await failure(model());
    expect(error.code).toBe('rate-limit');
    expect(error.retryable).toBe(false);
  });

  it.each([
    [
      '500',
      openaiReply.serverError(),
      'The server at BASE is unavailable (HTTP 500): The server had an error while processing your request. Sorry about that!',
    ],
    [
      '503',
      openaiReply.overloaded(),
      'The server at BASE is unavailable (HTTP 503): The engine is currently overloaded, please try again later.',
    ],
  ])('%s-is-unavailable-and-retryable', async (_status, reply, message) => {
    fake.reply(reply);
    const error = await failure(model());
    expect(error.code).toBe('unavailable');
    // The fake serves on a loopback port, so the error names that address (BASE: known only once it listens).
    expect(error.message).toBe(message.replace('BASE', fake.baseUrl));
    expect(error.retryable).toBe(true);
  });

  it('400-context-length-exceeded-is-context-overflow', async () => {
    fake.reply(openaiReply.contextTooLong());
    const error = await failure(model());
    expect(error.code).toBe('context-overflow');
    expect(error.message).toMatch(
      /^The conversation is too long for gpt-4o: This model's maximum context length is 128000 tokens/,
    );
    expect(error.retryable).toBe(false);
  });

  it('other-400-is-bad-request-with-the-server-message', async () => {
    fake.reply(
      openaiReply.error(400, {
        message: "Invalid value for 'reasoning_effort'.",
        param: 'reasoning_effort',
        code: 'invalid_value',
      }),
    );
    const error = await failure(model());
    expect(error.code).toBe('bad-request');
    expect(error.message).toBe(
      `The server at ${fake.baseUrl} rejected the request (HTTP 400): Invalid value for 'reasoning_effort'.`,
    );
  });

  it('connection-refused-is-unavailable', async () => {
    const url = `${await refusedUrl()}/v1`;
    const m = new OpenAIChatModel({ model: fakeModelConfig('openai', url), configFile: CONFIG_FILE, logger });
    const error = await failure(m);
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe(`Cannot reach ${url} (connection refused).`);
    expect(error.retryable).toBe(true);
  });

  it('an-error-inside-the-stream-is-not-retryable', async () => {
    fake.reply(openaiReply.streamError(['par', 'tial'], { message: 'The model produced invalid content.' }));
    const result = await run(model());
    expect(result.text).toBe('partial');
    const error = result.error as ProviderError;
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe(
      'OpenAI reported an error during the answer: The model produced invalid content.',
    );
    expect(error.retryable).toBe(false);
    expect(error.details.inStream).toBe(true);
  });
});

describe('bad input (R-REL-2)', () => {
  it('a-malformed-line-is-a-clear-error', async () => {
    fake.reply(openaiReply.malformedLine(['ok so far']));
    const result = await run(model());
    expect(result.text).toBe('ok so far');
    expect((result.error as ProviderError).message).toMatch(
      /^OpenAI sent a malformed response: an event that is not JSON \(data: \{"id":"chatcmpl-fake","choices":\[\{"delta":\)/,
    );
  });

  it('an-html-page-with-200-points-at-base-url', async () => {
    fake.reply(openaiReply.html200());
    const error = await failure(model());
    expect(error.code).toBe('bad-request');
    expect(error.message).toBe(
      `${fake.baseUrl} answered with a web page instead of the OpenAI API: check baseUrl in ${CONFIG_FILE} (OpenAI-compatible APIs usually end in /v1)`,
    );
  });

  it.each([
    ['an-empty-body', openaiReply.emptyBody()],
    ['a-stream-without-finish-or-done', openaiReply.text(['half'], { end: 'eof' })],
  ])('%s-is-a-truncated-response', async (_name, reply) => {
    fake.reply(reply);
    const error = await failure(model());
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe('The response from OpenAI ended before it was complete (no finish_reason).');
  });

  it('a-json-answer-instead-of-a-stream-is-a-clear-error', async () => {
    const completion = {
      id: 'x',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi' } }],
    };
    fake.reply(
      openaiReply.raw({
        status: 200,
        headers: { 'content-type': 'application/json' },
        steps: [{ write: JSON.stringify(completion) }],
      }),
    );
    fake.reply(
      openaiReply.raw({
        status: 200,
        headers: { 'content-type': 'application/json' },
        steps: [{ write: '{"error":{"message":"Upstream quota exhausted"}}' }],
      }),
    );
    const m = model();
    expect((await failure(m)).message).toBe(
      `${fake.baseUrl} answered without streaming (one JSON body instead of an event stream); the server must support "stream": true.`,
    );
    expect((await failure(m)).message).toBe('OpenAI rejected the request: Upstream quota exhausted');
  });

  it('a-dropped-connection-is-unavailable', async () => {
    let release!: () => void;
    fake.reply(
      openaiReply.text(['some', ' more'], {
        end: 'drop',
        pauseAfterFirst: new Promise<void>((resolve) => (release = resolve)),
      }),
    );
    const parts: string[] = [];
    let error: unknown;
    try {
      for await (const part of model().stream(hello, new AbortController().signal)) {
        if (part.type === 'text-delta') parts.push(part.text);
        release();
      }
    } catch (e) {
      error = e;
    }
    expect(parts[0]).toBe('some');
    expect((error as ProviderError).code).toBe('unavailable');
    expect((error as ProviderError).message).toBe(`The connection to ${fake.baseUrl} was interrupted.`);
  });

  it('an-absurdly-long-line-is-refused', async () => {
    const huge = 'x'.repeat(5 * 1024 * 1024);
    fake.reply(
      openaiReply.raw({
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        steps: [{ write: `data: {"a":"${huge}` }],
      }),
    );
    const error = await failure(model());
    expect(error.message).toBe('OpenAI sent a malformed response: a line longer than 4194304 characters');
  });
});

describe('timeouts and cancellation (R-PROV-5, R-TTY-2)', () => {
  it('no-first-byte-is-a-timeout-error', async () => {
    fake.reply(openaiReply.stallBeforeHeaders());
    const started = performance.now();
    const error = await failure(model({ firstByteTimeoutMs: 150 }));
    expect(error.code).toBe('timeout');
    expect(error.message).toBe(
      `No response from gpt-4o within 0.2 s (firstByteTimeoutMs in ${CONFIG_FILE}).`,
    );
    expect(error.retryable).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await fake.requests[0]!.closed).toEqual({ byClient: true });
  });

  it('an-idle-gap-cancels-and-keeps-the-partial-answer', async () => {
    fake.reply(openaiReply.text(['partial ', 'answer'], { end: 'stall' }));
    const result = await run(model({ idleTimeoutMs: 150 }));
    expect(result.text).toBe('partial answer');
    expect(isStalledStream(result.error)).toBe(true);
    expect((result.error as ProviderError).code).toBe('timeout');
    expect((result.error as ProviderError).message).toBe(
      'The model stopped responding (no data for 0.2 s); the partial answer was kept.',
    );
    expect(await fake.requests[0]!.closed).toEqual({ byClient: true });
  });

  it('time-spent-by-the-consumer-is-not-idle-time', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    fake.reply(openaiReply.text(['a', 'b'], { pauseAfterFirst: gate }));
    const parts: string[] = [];
    const m = model({ idleTimeoutMs: 5_000 });
    for await (const part of m.stream(hello, new AbortController().signal)) {
      parts.push(part.type);
      if (part.type === 'text-delta' && parts.length === 1) release();
    }
    expect(parts).toContain('finish');
  });

  it('abort-closes-the-connection-at-once-and-throws-cancelled', async () => {
    fake.reply(openaiReply.text(['first', 'never'], { end: 'stall' }));
    const controller = new AbortController();
    const parts: string[] = [];
    let error: unknown;
    try {
      for await (const part of model().stream(hello, controller.signal)) {
        parts.push(part.type);
        controller.abort();
      }
    } catch (e) {
      error = e;
    }
    expect(parts).toEqual(['text-delta']);
    expect((error as ProviderError).code).toBe('cancelled');
    expect(await fake.requests[0]!.closed).toEqual({ byClient: true });
  });

  it('abort-before-headers-closes-the-connection', async () => {
    fake.reply(openaiReply.stallBeforeHeaders());
    const controller = new AbortController();
    const pending = run(model(), hello, controller.signal);
    await fake.nextRequest(0);
    controller.abort();
    expect(((await pending).error as ProviderError).code).toBe('cancelled');
    expect(await fake.requests[0]!.closed).toEqual({ byClient: true });
  });

  it('breaking-out-of-the-stream-closes-the-connection', async () => {
    fake.reply(openaiReply.text(['one', 'two'], { end: 'stall' }));
    for await (const part of model().stream(hello, new AbortController().signal)) {
      if (part.type === 'text-delta') break;
    }
    expect(await fake.requests[0]!.closed).toEqual({ byClient: true });
  });
});
