import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../core/errors/provider-error.js';
import { MemoryLogger } from '../../../core/logging/logger.js';
import type { ModelConfig } from '../../../core/config/load-config.js';
import { OpenAIChatModel } from '../../../core/providers/openai/openai-chat-model.js';
import { OllamaChatModel } from '../../../core/providers/ollama/ollama-chat-model.js';
import { streamWithRetries, type RetryPart } from '../../../core/providers/retry.js';
import type { ChatModel, ChatRequest } from '../../../core/providers/chat-model.js';
import type { ChatStreamPart } from '../../../core/types/chat-stream.js';
import { refusedUrl } from '../../fakes/http-fake.js';
import { collect, fakeModelConfig } from '../../fakes/model-config.js';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';

const CONFIG_FILE = '/tmp/hac-home/config.json';
const hello: ChatRequest = { messages: [{ role: 'user', content: 'Hi' }] };

let fake: OpenAIFake;
let logger: MemoryLogger;
let slept: number[];
const sleep = (ms: number) => {
  slept.push(ms);
  return Promise.resolve();
};

beforeEach(async () => {
  fake = await startOpenAIFake();
  logger = new MemoryLogger();
  slept = [];
});
afterEach(async () => {
  await fake.close();
});

function openai(overrides: Partial<ModelConfig> = {}): ChatModel {
  return new OpenAIChatModel({
    model: fakeModelConfig('openai', fake.baseUrl, overrides),
    configFile: CONFIG_FILE,
    logger,
  });
}

function run(model: ChatModel, signal = new AbortController().signal) {
  return collect<ChatStreamPart | RetryPart>(streamWithRetries(model, hello, signal, { logger, sleep }));
}

const retries = (parts: (ChatStreamPart | RetryPart)[]) =>
  parts.filter((p): p is RetryPart => p.type === 'retry');

describe('streamWithRetries (R-PROV-4)', () => {
  it('retries-unavailable-after-250-and-750-ms', async () => {
    fake.reply(openaiReply.overloaded(), openaiReply.serverError(), openaiReply.text(['finally']));
    const result = await run(openai());
    expect(result.error).toBeUndefined();
    expect(result.text).toBe('finally');
    expect(slept).toEqual([250, 750]);
    expect(fake.requests).toHaveLength(3);
    expect(retries(result.parts).map((p) => [p.attempt, p.delayMs, p.code])).toEqual([
      [1, 250, 'unavailable'],
      [2, 750, 'unavailable'],
    ]);
    expect(retries(result.parts)[0]!.notice).toBe(
      `The server at ${fake.baseUrl} is unavailable (HTTP 503): The engine is currently overloaded, please try again later; retrying in 0.3 s (1 of 2).`,
    );
    expect(logger.lines.filter((l) => l.level === 'warn')).toHaveLength(2);
  });

  it('gives-up-after-two-retries', async () => {
    fake.reply(
      openaiReply.serverError(),
      openaiReply.serverError(),
      openaiReply.serverError(),
      openaiReply.text(['unused']),
    );
    const result = await run(openai());
    expect((result.error as ProviderError).code).toBe('unavailable');
    expect(fake.requests).toHaveLength(3);
    expect(slept).toEqual([250, 750]);
  });

  it('retries-a-first-byte-timeout', async () => {
    fake.reply(openaiReply.stallBeforeHeaders(), openaiReply.text(['ok']));
    const result = await run(openai({ firstByteTimeoutMs: 100 }));
    expect(result.text).toBe('ok');
    expect(retries(result.parts)[0]!.code).toBe('timeout');
    expect(slept).toEqual([250]);
  });

  it('retries-a-refused-connection-then-fails', async () => {
    const model = new OpenAIChatModel({
      model: fakeModelConfig('openai', `${await refusedUrl()}/v1`),
      configFile: CONFIG_FILE,
      logger,
    });
    const result = await run(model);
    expect((result.error as ProviderError).code).toBe('unavailable');
    expect(slept).toEqual([250, 750]);
  });

  it('rate-limit-waits-retry-after-seconds-once', async () => {
    fake.reply(openaiReply.rateLimited(2), openaiReply.text(['ok']));
    const result = await run(openai());
    expect(result.text).toBe('ok');
    expect(slept).toEqual([2000]);
  });

  it('rate-limit-waits-an-http-date', async () => {
    fake.reply(
      openaiReply.rateLimited(new Date(Math.floor(Date.now() / 1000) * 1000 + 4000).toUTCString()),
      openaiReply.text(['ok']),
    );
    await run(openai());
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThan(2000);
    expect(slept[0]).toBeLessThanOrEqual(4000);
  });

  it('rate-limit-without-retry-after-waits-5-s', async () => {
    fake.reply(openaiReply.rateLimited(), openaiReply.text(['ok']));
    await run(openai());
    expect(slept).toEqual([5000]);
  });

  it('rate-limit-retries-only-once', async () => {
    fake.reply(openaiReply.rateLimited(1), openaiReply.rateLimited(1), openaiReply.text(['unused']));
    const result = await run(openai());
    expect((result.error as ProviderError).code).toBe('rate-limit');
    expect(slept).toEqual([1000]);
    expect(fake.requests).toHaveLength(2);
  });

  it('rate-limit-asking-more-than-a-minute-fails-at-once', async () => {
    fake.reply(openaiReply.rateLimited(3600));
    const result = await run(openai());
    expect((result.error as ProviderError).code).toBe('rate-limit');
    expect(slept).toEqual([]);
  });

  it.each([
    ['auth', openaiReply.unauthorized()],
    ['model-not-found', openaiReply.modelNotFound('gpt-4o')],
    ['bad-request', openaiReply.error(400, { message: 'bad' })],
    ['context-overflow', openaiReply.contextTooLong()],
  ])('never-retries-%s', async (code, reply) => {
    fake.reply(reply, openaiReply.text(['unused']));
    const result = await run(openai());
    expect((result.error as ProviderError).code).toBe(code);
    expect(fake.requests).toHaveLength(1);
    expect(slept).toEqual([]);
  });

  it('never-retries-an-error-inside-the-stream', async () => {
    fake.reply(openaiReply.streamError([], { message: 'boom' }), openaiReply.text(['unused']));
    const result = await run(openai());
    expect((result.error as ProviderError).message).toContain('boom');
    expect(fake.requests).toHaveLength(1);
  });

  it('never-retries-once-text-was-shown', async () => {
    let release!: () => void;
    fake.reply(
      openaiReply.text(['shown', 'lost'], {
        end: 'drop',
        pauseAfterFirst: new Promise<void>((r) => (release = r)),
      }),
      openaiReply.text(['unused']),
    );
    const parts: string[] = [];
    let error: unknown;
    try {
      for await (const part of streamWithRetries(openai(), hello, new AbortController().signal, {
        logger,
        sleep,
      })) {
        parts.push(part.type);
        release();
      }
    } catch (e) {
      error = e;
    }
    expect(parts[0]).toBe('text-delta');
    expect((error as ProviderError).code).toBe('unavailable');
    expect(fake.requests).toHaveLength(1);
  });

  it('a-stall-after-text-is-not-retried-and-keeps-the-partial', async () => {
    fake.reply(openaiReply.text(['partial'], { end: 'stall' }), openaiReply.text(['unused']));
    const result = await run(openai({ idleTimeoutMs: 100 }));
    expect(result.text).toBe('partial');
    expect((result.error as ProviderError).code).toBe('timeout');
    expect(fake.requests).toHaveLength(1);
  });

  it('a-cancel-during-the-wait-stops-with-cancelled', async () => {
    fake.reply(openaiReply.overloaded());
    const controller = new AbortController();
    const result = await collect(
      streamWithRetries(openai(), hello, controller.signal, {
        logger,
        sleep: (_ms, signal) => {
          controller.abort();
          return signal.aborted
            ? Promise.reject(new ProviderError('cancelled', 'Request cancelled.', { retryable: false }))
            : Promise.resolve();
        },
      }),
    );
    expect((result.error as ProviderError).code).toBe('cancelled');
    expect(fake.requests).toHaveLength(1);
  });

  it('retries-ollama-when-it-is-not-running', async () => {
    const model = new OllamaChatModel({
      model: fakeModelConfig('ollama', await refusedUrl()),
      configFile: CONFIG_FILE,
      logger,
    });
    const result = await run(model);
    expect((result.error as ProviderError).message).toMatch(
      /^Cannot reach Ollama at http:\/\/127\.0\.0\.1:\d+\. Is "ollama serve" running\?$/,
    );
    expect(retries(result.parts).map((p) => p.delayMs)).toEqual([250, 750]);
  });
});

describe('streamWithRetries as an iterator', () => {
  it('breaking-out-closes-the-connection-and-ends-the-stream', async () => {
    fake.reply(openaiReply.text(['one', 'two'], { end: 'stall' }));
    const stream = streamWithRetries(openai(), hello, new AbortController().signal, { logger, sleep });
    for await (const part of stream) {
      if (part.type === 'text-delta') break;
    }
    expect(await fake.requests[0]!.closed).toEqual({ byClient: true });
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    expect(fake.requests).toHaveLength(1);
  });
});
