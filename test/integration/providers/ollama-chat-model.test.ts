import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProviderError } from '../../../core/errors/provider-error.js';
import { MemoryLogger } from '../../../core/logging/logger.js';
import type { ModelConfig } from '../../../core/config/load-config.js';
import { createChatModel } from '../../../core/providers/create-chat-model.js';
import { OllamaChatModel } from '../../../core/providers/ollama/ollama-chat-model.js';
import { listOllamaModels } from '../../../core/providers/ollama/list-ollama-models.js';
import { isStalledStream } from '../../../core/providers/timeouts.js';
import type { ChatRequest } from '../../../core/providers/chat-model.js';
import { FakeHttpServer, refusedUrl } from '../../fakes/http-fake.js';
import { collect, fakeModelConfig } from '../../fakes/model-config.js';
import {
  ndjsonLine,
  ollamaAnswerSteps,
  ollamaReply,
  startOllamaFake,
  type FakeStep,
  type OllamaFake,
} from '../../fakes/ollama-fake.js';
import type { RecordedRequest } from '../../fakes/http-fake.js';

const CONFIG_FILE = '/home/u/.humble-ai-cli/config.json';
const hello: ChatRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: '안녕' },
  ],
};

let fake: OllamaFake;
let logger: MemoryLogger;
const consoleCalls: unknown[][] = [];

beforeEach(async () => {
  fake = await startOllamaFake({ models: ['llama3.2:latest', 'qwen3:8b'] });
  logger = new MemoryLogger();
  consoleCalls.length = 0;
  // The SDK prints on bad input by itself; our adapter must keep it off the terminal.
  for (const method of ['log', 'warn', 'error', 'info', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation(
      (...args: unknown[]) => void consoleCalls.push([method, ...args]),
    );
  }
});
afterEach(async () => {
  vi.restoreAllMocks();
  expect(consoleCalls).toEqual([]);
  await fake.close();
});

function model(overrides: Partial<ModelConfig> = {}): OllamaChatModel {
  return new OllamaChatModel({
    model: fakeModelConfig('ollama', fake.baseUrl, overrides),
    configFile: CONFIG_FILE,
    logger,
  });
}

function run(m: OllamaChatModel, request: ChatRequest = hello, signal = new AbortController().signal) {
  return collect(m.stream(request, signal));
}

async function failure(m: OllamaChatModel, request: ChatRequest = hello): Promise<ProviderError> {
  const { error } = await run(m, request);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('request shape (R-PROV-2, R-TOOL-1)', () => {
  it('sends-stream-and-options-temperature-0.1-and-no-tools-field-in-prompt-mode', async () => {
    fake.reply(ollamaReply.text(['ok']));
    await run(model());
    const request = fake.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/api/chat');
    expect(request.body).toEqual({
      model: 'llama3.2',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: '안녕' },
      ],
      stream: true,
      options: { temperature: 0.1 },
    });
  });

  it.each([true, false, 'high'] as const)('passes-think-%s-as-configured', async (think) => {
    fake.reply(ollamaReply.text(['ok']));
    await run(model({ think }));
    expect(fake.requests[0]!.body.think).toBe(think);
  });

  it('sends-tools-and-tool-messages-in-native-mode', async () => {
    fake.reply(ollamaReply.text(['done']));
    await run(model({ toolMode: 'native' }), {
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'call_1', name: 'w__get', arguments: { city: 'Seoul' } }],
        },
        { role: 'tool', content: 'sunny', toolCallId: 'call_1', toolName: 'w__get' },
      ],
      tools: [
        {
          name: 'w__get',
          description: 'Weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
    });
    const body = fake.requests[0]!.body;
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'w__get',
          description: 'Weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ]);
    expect(body.messages).toEqual([
      { role: 'user', content: 'weather?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'w__get', arguments: { city: 'Seoul' } } }],
      },
      { role: 'tool', content: 'sunny', tool_name: 'w__get' },
    ]);
  });

  it('sends-prompt-mode-tool-results-as-role-tool-with-tool-name', async () => {
    fake.reply(ollamaReply.text(['ok']));
    await run(model(), {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '{"name":"read"}' },
        { role: 'tool', content: 'r', toolName: 'read' },
      ],
    });
    expect(fake.requests[0]!.body.messages[2]).toEqual({ role: 'tool', content: 'r', tool_name: 'read' });
    expect(fake.requests[0]!.body).not.toHaveProperty('tools');
  });

  it('is-created-lazily-from-a-model-config', async () => {
    fake.reply(ollamaReply.text(['lazy']));
    const m = await createChatModel({
      model: fakeModelConfig('ollama', fake.baseUrl),
      configFile: CONFIG_FILE,
      logger,
    });
    expect(m.provider).toBe('ollama');
    expect((await collect(m.stream(hello, new AbortController().signal))).text).toBe('lazy');
  });
});

describe('stream parts', () => {
  it('yields-text-then-usage-from-the-done-object-then-finish', async () => {
    fake.reply(ollamaReply.text(['안', '녕하세요', '!'], { usage: { input: 26, output: 282 } }));
    const result = await run(model());
    // How many text parts depends on how the lines fall into network reads (next test).
    const types = result.parts.map((p) => p.type);
    expect(new Set(types.slice(0, -2))).toEqual(new Set(['text-delta']));
    expect(result.text).toBe('안녕하세요!');
    expect(result.parts.slice(-2)).toEqual([
      { type: 'usage', usage: { inputTokens: 26, outputTokens: 282 } },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  /** NDJSON lines as Ollama writes them; several in one write arrive in one network read. */
  const lines = (...messages: Record<string, unknown>[]) =>
    messages
      .map((m) =>
        ndjsonLine(
          'done' in m
            ? { model: 'llama3.2', ...m }
            : { model: 'llama3.2', message: { role: 'assistant', content: '', ...m }, done: false },
        ),
      )
      .join('');
  /** A reply whose body comes in exactly these steps (writes, and waits between them). */
  const reads = (...steps: FakeStep[]) =>
    ollamaReply.raw({ status: 200, headers: { 'content-type': 'application/x-ndjson' }, steps });

  it('lines-of-one-read-come-as-one-part-and-later-reads-as-their-own', async () => {
    // Each layer above the adapter costs per part: what one network read brought is one part, each kind apart.
    // The second read only comes once two parts are out: the first read's text is not held back for it.
    let release!: () => void;
    const later = new Promise<void>((resolve) => (release = resolve));
    fake.reply(
      reads(
        {
          write: lines(
            { thinking: 'Let me ' },
            { thinking: 'think.' },
            { content: 'Hel' },
            { content: 'lo' },
          ),
        },
        { waitFor: later },
        { write: lines({ content: ' world' }, { done: true, done_reason: 'stop' }) },
      ),
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

  it('tool-calls-keep-their-place-among-the-parts-of-one-read', async () => {
    const call = { function: { name: 'w__get', arguments: { city: 'Seoul' } } };
    fake.reply(
      reads({
        write: lines(
          { content: 'Let me ' },
          { content: 'check.' },
          { tool_calls: [call] },
          { content: 'after' },
          { done: true, done_reason: 'stop' },
        ),
      }),
    );
    const result = await run(model({ toolMode: 'native' }));
    expect(result.parts).toEqual([
      { type: 'text-delta', text: 'Let me check.' },
      { type: 'tool-call', call: { id: 'call_0', name: 'w__get', arguments: { city: 'Seoul' } } },
      { type: 'text-delta', text: 'after' },
      { type: 'finish', reason: 'tool-calls' },
    ]);
  });

  it('reads-reasoning-from-message-thinking-with-whitespace-kept', async () => {
    fake.reply(ollamaReply.thinking(['  first\n', '\tsecond '], ['Answer']));
    const result = await run(model({ think: true }));
    expect(result.reasoning).toBe('  first\n\tsecond ');
    expect(result.text).toBe('Answer');
  });

  it.each(['think', 'thinking', 'reasoning'])('turns-a-leading-%s-tag-into-reasoning', async (tag) => {
    const open = `<${tag}>`;
    fake.reply(
      ollamaReply.text(['\n', open.slice(0, 3), `${open.slice(3)}idea`, ` more</${tag}`, '>answer']),
    );
    const result = await run(model());
    expect(result.reasoning).toBe('idea more');
    expect(result.text).toBe('answer');
  });

  it('yields-complete-tool-calls', async () => {
    fake.reply(
      ollamaReply.toolCalls([
        { name: 'w__get', arguments: { city: 'Seoul' } },
        { id: 'call_x', name: 'w__get', arguments: { city: 'Tokyo' } },
      ]),
    );
    const result = await run(model({ toolMode: 'native' }));
    expect(result.parts.filter((p) => p.type === 'tool-call')).toEqual([
      { type: 'tool-call', call: { id: 'call_fake0', name: 'w__get', arguments: { city: 'Seoul' } } },
      { type: 'tool-call', call: { id: 'call_x', name: 'w__get', arguments: { city: 'Tokyo' } } },
    ]);
    expect(result.parts.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' });
  });

  it('maps-done-reason-length', async () => {
    fake.reply(ollamaReply.text(['cut'], { doneReason: 'length' }));
    expect((await run(model())).parts.at(-1)).toEqual({ type: 'finish', reason: 'length' });
  });
});

describe('errors (R-PROV-3)', () => {
  it('404-model-not-found-suggests-ollama-pull', async () => {
    const error = await failure(model({ id: 'llama9' }));
    expect(error.code).toBe('model-not-found');
    expect(error.message).toBe(
      'Model llama9 was not found on ollama. Choose another with /set-model or run: ollama pull llama9',
    );
  });

  it('connection-refused-asks-whether-ollama-serve-runs', async () => {
    const url = await refusedUrl();
    const m = new OllamaChatModel({ model: fakeModelConfig('ollama', url), configFile: CONFIG_FILE, logger });
    const error = await failure(m);
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe(`Cannot reach Ollama at ${url}. Is "ollama serve" running?`);
    expect(error.retryable).toBe(true);
  });

  it('an-http-error-body-is-mapped-with-the-server-message', async () => {
    fake.reply(ollamaReply.error(500, 'llama runner process has terminated: exit status 2'));
    const error = await failure(model());
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe(
      `The Ollama server at ${fake.baseUrl} is unavailable (HTTP 500): llama runner process has terminated: exit status 2`,
    );
    expect(error.retryable).toBe(true);
  });

  it('a-plain-text-error-body-is-mapped-without-console-output', async () => {
    fake.reply(ollamaReply.textError(502, 'Bad Gateway'));
    const error = await failure(model());
    expect(error.message).toBe(`The Ollama server at ${fake.baseUrl} is unavailable (HTTP 502): Bad Gateway`);
  });

  it('400-is-bad-request-with-the-server-message', async () => {
    fake.reply(ollamaReply.error(400, 'registry.ollama.ai/library/llama3.2:latest does not support tools'));
    const error = await failure(model());
    expect(error.code).toBe('bad-request');
    expect(error.message).toBe(
      `The Ollama server at ${fake.baseUrl} rejected the request (HTTP 400): registry.ollama.ai/library/llama3.2:latest does not support tools`,
    );
  });

  it('429-is-rate-limit-with-retry-after', async () => {
    fake.reply(
      ollamaReply.raw({
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '3' },
        steps: [{ write: '{"error":"too many requests"}' }],
      }),
    );
    const error = await failure(model());
    expect(error.code).toBe('rate-limit');
    expect(error.details.retryAfterMs).toBe(3000);
  });

  it('401-is-auth', async () => {
    fake.reply(ollamaReply.error(401, 'unauthorized'));
    expect((await failure(model())).message).toBe(
      `Authentication failed for llama3.2: check apiKey in ${CONFIG_FILE}`,
    );
  });

  it('a-context-error-is-context-overflow', async () => {
    fake.reply(ollamaReply.error(400, 'the input length exceeds the context length'));
    expect((await failure(model())).code).toBe('context-overflow');
  });

  it('an-error-line-inside-the-stream-is-not-retryable', async () => {
    fake.reply(
      ollamaReply.streamError(
        ['par', 'tial'],
        'an error was encountered while running the model: unexpected EOF',
      ),
    );
    const result = await run(model());
    expect(result.text).toBe('partial');
    const error = result.error as ProviderError;
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe(
      'Ollama reported an error during the answer: an error was encountered while running the model: unexpected EOF',
    );
    expect(error.retryable).toBe(false);
  });
});

describe('bad input (R-REL-2)', () => {
  it('a-malformed-line-is-a-clear-error-not-a-console-warning', async () => {
    fake.reply(ollamaReply.malformedLine(['so far']));
    const result = await run(model());
    expect(result.text).toBe('so far');
    expect((result.error as ProviderError).message).toBe(
      'Ollama sent a malformed response: a line that is not JSON: {"model":"x","message":{"role":',
    );
  });

  it.each([
    ['the-stream-that-started-alone', 'first'],
    ['the-stream-that-started-second', 'second'],
  ] as const)('with-two-streams-at-once-a-line-the-sdk-drops-fails-%s-only', async (_name, broken) => {
    // Braces pass our byte check; the SDK itself drops the line with a console warning. The first stream reads
    // alone until the second starts, so both ways of telling whose warning it is are exercised.
    const badLine = '{upstream: "timed out"}';
    let resumeFirst!: () => void;
    const firstPaused = new Promise<void>((resolve) => (resumeFirst = resolve));
    const reply = (text: string[], bad: boolean, pause?: Promise<void>) => (request: RecordedRequest) => {
      // The bad line comes right after the first part (and the pause): the read under way meets it.
      const steps = ollamaAnswerSteps({ text, pauseAfterFirst: pause }, request);
      if (bad) steps.splice(pause ? 2 : 1, 0, { write: `${badLine}\n` });
      return { status: 200, headers: { 'content-type': 'application/x-ndjson' }, steps };
    };
    fake.reply(reply(['one ', 'two'], broken === 'first', firstPaused));
    fake.reply(reply(['three ', 'four'], broken === 'second'));
    const first = model().stream(hello, new AbortController().signal);
    expect((await first.next()).value).toEqual({ type: 'text-delta', text: 'one ' });
    // The first stream's next read is under way (the server pauses) when the second starts and ends.
    const firstRest = collect(first);
    const second = await run(model());
    resumeFirst();
    const rest = await firstRest;
    const firstResult = { text: `one ${rest.text}`, error: rest.error };
    const [bad, good] = broken === 'first' ? [firstResult, second] : [second, firstResult];
    expect((bad.error as ProviderError).message).toBe(
      `Ollama sent a malformed response: a line that is not JSON: ${badLine}`,
    );
    expect(bad.text).toBe(broken === 'first' ? 'one ' : 'three '); // what came before the bad line
    expect(good.error).toBeUndefined();
    expect(good.text).toBe(broken === 'first' ? 'three four' : 'one two');
  });

  it('an-html-page-with-200-points-at-base-url', async () => {
    fake.reply(ollamaReply.html200());
    const error = await failure(model());
    expect(error.code).toBe('bad-request');
    expect(error.message).toBe(
      `${fake.baseUrl} answered with a web page instead of the Ollama API: check baseUrl in ${CONFIG_FILE}`,
    );
  });

  it.each([
    ['an-empty-body', ollamaReply.emptyBody()],
    ['a-stream-without-done-true', ollamaReply.text(['half'], { end: 'eof' })],
  ])('%s-is-a-truncated-response', async (_name, reply) => {
    fake.reply(reply);
    const error = await failure(model());
    expect(error.message).toBe(
      'The response from Ollama ended before it was complete (no final "done": true).',
    );
  });

  it('an-absurdly-long-line-is-refused', async () => {
    fake.reply(
      ollamaReply.raw({
        status: 200,
        headers: { 'content-type': 'application/x-ndjson' },
        steps: [{ write: `{"x":"${'y'.repeat(5 * 1024 * 1024)}` }],
      }),
    );
    expect((await failure(model())).message).toBe(
      'Ollama sent a malformed response: a line longer than 4194304 characters',
    );
  });

  it('a-character-split-across-writes-arrives-whole', async () => {
    const line = new TextEncoder().encode(
      JSON.stringify({
        model: 'llama3.2',
        created_at: 'x',
        message: { role: 'assistant', content: '한글' },
        done: false,
      }) + '\n',
    );
    const cut = line.indexOf(0xed) + 1; // inside the first byte sequence of 한
    const done = JSON.stringify({
      model: 'llama3.2',
      created_at: 'x',
      message: { role: 'assistant', content: '' },
      done: true,
      done_reason: 'stop',
    });
    fake.reply(
      ollamaReply.raw({
        status: 200,
        headers: { 'content-type': 'application/x-ndjson' },
        steps: [{ write: line.subarray(0, cut) }, { write: line.subarray(cut) }, { write: `${done}\n` }],
      }),
    );
    expect((await run(model())).text).toBe('한글');
  });

  it('a-dropped-connection-is-unavailable', async () => {
    fake.reply(ollamaReply.text(['x'], { end: 'drop' }));
    const error = await failure(model());
    expect(error.code).toBe('unavailable');
  });
});

describe('timeouts and cancellation (R-PROV-5)', () => {
  it('no-first-byte-is-a-timeout-and-closes-the-request', async () => {
    fake.reply(ollamaReply.stallBeforeHeaders());
    const error = await failure(model({ firstByteTimeoutMs: 120 }));
    expect(error.code).toBe('timeout');
    expect(error.message).toBe(
      `No response from llama3.2 within 0.1 s (firstByteTimeoutMs in ${CONFIG_FILE}).`,
    );
    expect(await fake.requests[0]!.closed).toEqual({ byClient: true });
  });

  it('an-idle-gap-cancels-and-keeps-the-partial-answer', async () => {
    fake.reply(ollamaReply.text(['partial'], { end: 'stall' }));
    const result = await run(model({ idleTimeoutMs: 120 }));
    expect(result.text).toBe('partial');
    expect(isStalledStream(result.error)).toBe(true);
    expect(await fake.requests[0]!.closed).toEqual({ byClient: true });
  });

  it('abort-before-headers-closes-the-connection-at-once', async () => {
    fake.reply(ollamaReply.stallBeforeHeaders());
    const controller = new AbortController();
    const pending = run(model(), hello, controller.signal);
    await fake.nextRequest(0);
    controller.abort();
    expect(((await pending).error as ProviderError).code).toBe('cancelled');
    expect(await fake.requests[0]!.closed).toEqual({ byClient: true });
  });

  it('abort-mid-stream-closes-the-connection-and-throws-cancelled', async () => {
    fake.reply(ollamaReply.text(['one', 'two'], { end: 'stall' }));
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

  it('breaking-out-of-the-stream-closes-the-connection', async () => {
    fake.reply(ollamaReply.text(['one', 'two'], { end: 'stall' }));
    for await (const part of model().stream(hello, new AbortController().signal)) {
      if (part.type === 'text-delta') break;
    }
    expect(await fake.requests[0]!.closed).toEqual({ byClient: true });
  });
});

describe('listOllamaModels', () => {
  it('lists-installed-model-names-from-api-tags', async () => {
    expect(await listOllamaModels(fake.baseUrl)).toEqual(['llama3.2:latest', 'qwen3:8b']);
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/api/tags' });
  });

  it('returns-nothing-quickly-when-nothing-listens', async () => {
    const started = performance.now();
    expect(await listOllamaModels(await refusedUrl(), { logger })).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(logger.text()).toContain('No Ollama model list from');
  });

  it('gives-up-within-the-timeout-when-the-server-hangs', async () => {
    const hanging = await new FakeHttpServer(() => ({ stallBeforeHeaders: true })).listen();
    const started = performance.now();
    const models = await listOllamaModels(hanging.origin, { timeoutMs: 150 });
    const ms = performance.now() - started;
    await hanging.close();
    expect(models).toEqual([]);
    expect(ms).toBeLessThan(1000);
  });

  it('returns-nothing-on-an-error-answer', async () => {
    expect(await listOllamaModels(`${fake.baseUrl}/nope`)).toEqual([]);
  });
});
