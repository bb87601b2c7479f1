import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../../core/config/load-config.js';
import { ProviderError } from '../../../core/errors/provider-error.js';
import { MemoryLogger } from '../../../core/logging/logger.js';
import { AnthropicChatModel } from '../../../core/providers/anthropic/anthropic-chat-model.js';
import { thinkingStyle } from '../../../core/providers/anthropic/model-rules.js';
import type { ChatRequest } from '../../../core/providers/chat-model.js';
import { createChatModel } from '../../../core/providers/create-chat-model.js';
import { anthropicReply, startAnthropicFake, type AnthropicFake } from '../../fakes/anthropic-fake.js';
import { collect, fakeModelConfig } from '../../fakes/model-config.js';

const CONFIG_FILE = '/home/u/.humble-ai-cli/config.json';
const KEY = 'sk-ant-test-123456';
const hello: ChatRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi' },
  ],
};

let fake: AnthropicFake;
let logger: MemoryLogger;
beforeEach(async () => {
  fake = await startAnthropicFake({ apiKey: KEY });
  logger = new MemoryLogger();
});
afterEach(() => fake.close());

function model(overrides: Partial<ModelConfig> = {}, env: NodeJS.ProcessEnv = {}): AnthropicChatModel {
  return new AnthropicChatModel({
    model: fakeModelConfig('anthropic', fake.baseUrl, overrides),
    configFile: CONFIG_FILE,
    logger,
    env,
  });
}

const run = (m: AnthropicChatModel, request: ChatRequest = hello) =>
  collect(m.stream(request, new AbortController().signal));

async function failure(m: AnthropicChatModel): Promise<ProviderError> {
  const { error } = await run(m);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('request shape (R-PROV-7)', () => {
  it('sends-x-api-key-and-version-system-on-top-max-tokens-temperature-and-streams-text', async () => {
    fake.reply(anthropicReply.text(['Hel', 'lo', ' there.']));
    const result = await run(
      (await createChatModel({
        model: fakeModelConfig('anthropic', fake.baseUrl),
        configFile: CONFIG_FILE,
        logger,
      })) as AnthropicChatModel,
    );
    expect(result.error).toBeUndefined();
    expect(result.text).toBe('Hello there.');
    const request = fake.requests[0]!;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe(KEY);
    expect(request.headers['anthropic-version']).toBeTruthy();
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 16384,
      system: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      stream: true,
      temperature: 0.1,
    });
    expect(result.parts).toContainEqual({ type: 'usage', usage: { inputTokens: 25, outputTokens: 12 } });
    expect(result.parts.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('takes-the-key-from-anthropic-api-key-and-max-tokens-from-the-entry', async () => {
    fake.reply(anthropicReply.text(['ok']));
    await run(
      model({ apiKey: undefined, maxTokens: 2048 }, { ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: 'sk-other' }),
    );
    expect(fake.requests[0]!.headers['x-api-key']).toBe(KEY);
    expect(fake.requests[0]!.body.max_tokens).toBe(2048);
  });

  it('no-key-at-all-is-an-auth-error-naming-the-variable', async () => {
    const error = await failure(model({ apiKey: undefined }));
    expect(error.code).toBe('auth');
    expect(error.message).toContain('ANTHROPIC_API_KEY is not set');
    expect(fake.requests).toHaveLength(0);
  });
});

describe('thinking (R-PROV-7, R-STREAM-2)', () => {
  it('adaptive-models-get-adaptive-thinking-with-effort-and-no-temperature', async () => {
    fake.reply(
      anthropicReply.answer({
        blocks: [
          { type: 'thinking', chunks: ['Let me', ' think.'], signature: 'sig-abc' },
          { type: 'text', chunks: ['Done.'] },
        ],
      }),
    );
    const result = await run(model({ think: 'high' }));
    expect(result.reasoning).toBe('Let me think.');
    expect(result.text).toBe('Done.');
    const body = fake.requests[0]!.body;
    expect(body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(body.output_config).toEqual({ effort: 'high' });
    expect(body).not.toHaveProperty('temperature');
    // No tool call: nothing to send back.
    expect(result.parts.some((p) => p.type === 'replay')).toBe(false);
  });

  it('older-models-get-a-token-budget-under-max-tokens', async () => {
    fake.reply(anthropicReply.text(['ok']));
    await run(model({ id: 'claude-haiku-4-5', think: 'medium' }));
    const body = fake.requests[0]!.body;
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 10000 });
    expect(body.max_tokens).toBeGreaterThan(10000);
    expect(body).not.toHaveProperty('temperature');
  });

  it('an-unknown-model-refusing-adaptive-thinking-is-asked-again-with-a-budget-and-remembered', async () => {
    fake.reply(
      anthropicReply.error(
        400,
        'invalid_request_error',
        'thinking.type: adaptive is not supported for this model',
      ),
      anthropicReply.text(['one']),
      anthropicReply.text(['two']),
    );
    const m = model({ id: 'claude-custom-proxy-model', think: true });
    expect((await run(m)).text).toBe('one');
    expect((await run(m)).text).toBe('two');
    expect(fake.requests.map((r) => r.body.thinking.type)).toEqual(['adaptive', 'enabled', 'enabled']);
  });

  it('knows-which-families-think-adaptively', () => {
    expect(
      ['claude-opus-4-6', 'claude-sonnet-4-6', 'claude-opus-4-7', 'claude-sonnet-5', 'claude-x'].map(
        thinkingStyle,
      ),
    ).toEqual(Array(5).fill('adaptive'));
    expect(
      [
        'claude-haiku-4-5',
        'claude-sonnet-4-5-20250929',
        'claude-opus-4-20250514',
        'claude-3-7-sonnet-latest',
      ].map(thinkingStyle),
    ).toEqual(Array(4).fill('budget'));
  });
});

describe('tools (R-PROV-7, R-LOOP-6)', () => {
  it('two-parallel-tool-use-blocks-with-json-split-anywhere-and-signed-thinking-to-send-back', async () => {
    fake.reply(
      anthropicReply.answer({
        blocks: [
          { type: 'thinking', chunks: ['Two lookups.'], signature: 'sig-1' },
          { type: 'redacted_thinking', data: 'opaque==' },
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'files__read',
            json: '{"path": "a.txt", "n": 2}',
            splitEvery: 3,
          },
          { type: 'tool_use', id: 'toolu_2', name: 'files__read', json: '{"path": "b.txt"}', splitEvery: 1 },
        ],
      }),
    );
    const tools = [
      { name: 'files__read', description: 'Reads', parameters: { properties: { path: { type: 'string' } } } },
    ];
    const result = await run(model({ think: true }), { ...hello, tools });
    const calls = result.parts.filter((p) => p.type === 'tool-call').map((p) => p.call);
    expect(calls).toEqual([
      { id: 'toolu_1', name: 'files__read', arguments: { path: 'a.txt', n: 2 } },
      { id: 'toolu_2', name: 'files__read', arguments: { path: 'b.txt' } },
    ]);
    expect(result.parts).toContainEqual({
      type: 'replay',
      blocks: [
        { type: 'thinking', thinking: 'Two lookups.', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque==' },
      ],
    });
    expect(result.parts.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' });
    expect(fake.requests[0]!.body.tools).toEqual([
      {
        name: 'files__read',
        description: 'Reads',
        input_schema: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ]);
  });

  it('answers-every-tool-use-in-one-user-message-with-is-error-and-the-signed-thinking-first', async () => {
    fake.reply(anthropicReply.text(['Read both.']));
    const replay = [{ type: 'thinking', thinking: 'Two lookups.', signature: 'sig-1' }];
    await run(model({ think: true }), {
      messages: [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'read a and b' },
        {
          role: 'assistant',
          content: '',
          replay,
          toolCalls: [
            { id: 'toolu_1', name: 'files__read', arguments: { path: 'a.txt' } },
            { id: 'toolu_2', name: 'files__read', arguments: { path: 'b.txt' } },
          ],
        },
        { role: 'tool', toolCallId: 'toolu_1', toolName: 'files__read', content: 'A' },
        { role: 'tool', toolCallId: 'toolu_2', toolName: 'files__read', content: 'Error: no such file' },
      ],
    });
    expect(fake.requests[0]!.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'read a and b' }] },
      {
        role: 'assistant',
        content: [
          ...replay,
          { type: 'tool_use', id: 'toolu_1', name: 'files__read', input: { path: 'a.txt' } },
          { type: 'tool_use', id: 'toolu_2', name: 'files__read', input: { path: 'b.txt' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'A' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'Error: no such file', is_error: true },
        ],
      },
    ]);
  });

  it('a-tool-use-cut-off-by-the-end-of-the-stream-is-never-run', async () => {
    fake.reply(
      anthropicReply.answer({
        blocks: [
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'shell__run',
            json: '{"cmd": "rm -rf /important/dir',
            splitEvery: 4,
          },
        ],
        stopReason: 'max_tokens',
      }),
    );
    const result = await run(model());
    expect(result.parts.filter((p) => p.type === 'tool-call').map((p) => p.call)).toEqual([
      { id: 'toolu_1', name: 'shell__run', arguments: {}, cutOff: true },
    ]);
  });
});

describe('activity and refusals (R-PROV-5, R-CFG-8)', () => {
  it('ping-events-keep-a-long-think-alive-past-the-idle-timeout', async () => {
    const pause = () => ({ waitFor: new Promise((r) => setTimeout(r, 60)) });
    const ping = { write: 'event: ping\ndata: {"type": "ping"}\n\n' };
    fake.reply((request) => {
      const steps = (
        anthropicReply.text(['late answer']) as (r: typeof request) => { steps: { write: string }[] }
      )(request).steps;
      // message_start and ping, then 6 pings 60 ms apart (360 ms of silence but for pings), then the rest.
      return {
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        steps: [
          ...steps.slice(0, 2),
          ...Array.from({ length: 6 }, () => [pause(), ping]).flat(),
          ...steps.slice(2),
        ],
      };
    });
    const result = await run(model({ idleTimeoutMs: 200 }));
    expect(result.error).toBeUndefined();
    expect(result.text).toBe('late answer');
  });

  it('a-model-that-refuses-a-temperature-is-asked-again-without-it-once-and-remembered', async () => {
    fake.reply(
      anthropicReply.error(
        400,
        'invalid_request_error',
        'temperature: this model does not support temperature',
      ),
      anthropicReply.text(['one']),
      anthropicReply.text(['two']),
    );
    const m = model();
    const first = await run(m);
    expect(first.text).toBe('one');
    expect(first.parts).toContainEqual({
      type: 'notice',
      text: 'claude-sonnet-4-6 does not accept a temperature; using its default.',
    });
    await run(m);
    expect(fake.requests.map((r) => 'temperature' in r.body)).toEqual([true, false, false]);
  });

  it('merges-consecutive-messages-of-one-role-since-roles-must-alternate', async () => {
    fake.reply(anthropicReply.text(['ok']));
    await run(model(), {
      messages: [
        { role: 'user', content: 'first' },
        { role: 'user', content: 'second' },
        { role: 'assistant', content: 'a' },
        { role: 'tool', toolName: 'tools__echo', content: 'prompt-mode result' },
      ],
    });
    expect(fake.requests[0]!.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'first' },
          { type: 'text', text: 'second' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
      { role: 'user', content: [{ type: 'text', text: 'Result of tools__echo:\nprompt-mode result' }] },
    ]);
  });
});

describe('errors (R-PROV-3, R-PROV-7)', () => {
  it('maps-each-http-error-class', async () => {
    const cases: [Parameters<typeof anthropicReply.error>, string, boolean][] = [
      [[401, 'authentication_error', 'invalid x-api-key'], 'auth', false],
      [[403, 'permission_error', 'no access'], 'auth', false],
      [[404, 'not_found_error', 'model: claude-nope'], 'model-not-found', false],
      [
        [429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', 7],
        'rate-limit',
        true,
      ],
      [[529, 'overloaded_error', 'Overloaded'], 'unavailable', true],
      [[500, 'api_error', 'Internal server error'], 'unavailable', true],
      [
        [400, 'invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum'],
        'context-overflow',
        false,
      ],
      [[400, 'invalid_request_error', 'messages: roles must alternate'], 'bad-request', false],
    ];
    for (const [args, code, retryable] of cases) {
      fake.reply(anthropicReply.error(...args));
      const error = await failure(model());
      expect([args[0], error.code, error.retryable]).toEqual([args[0], code, retryable]);
      if (args[0] === 429) expect(error.details.retryAfterMs).toBe(7000);
    }
    fake.reply(anthropicReply.error(401, 'authentication_error', 'invalid x-api-key'));
    expect((await failure(model())).message).toBe(
      `Authentication failed for claude-sonnet-4-6: check apiKey in ${CONFIG_FILE}`,
    );
  });

  it('an-overloaded-error-event-mid-stream-keeps-the-text-and-is-unavailable', async () => {
    fake.reply(
      anthropicReply.answer({
        blocks: [{ type: 'text', chunks: ['Partial'] }],
        errorEvent: { type: 'overloaded_error', message: 'Overloaded' },
      }),
    );
    const result = await run(model());
    expect(result.text).toBe('Partial');
    const error = result.error as ProviderError;
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe('Anthropic is overloaded: Overloaded');
  });

  it('a-stream-cut-before-message-stop-is-truncated', async () => {
    fake.reply(anthropicReply.answer({ blocks: [{ type: 'text', chunks: ['a', 'b'] }], cutAfterEvents: 5 }));
    const error = (await run(model())).error as ProviderError;
    expect(error.message).toBe('The response from Anthropic ended before it was complete (no message_stop).');
  });
});

describe('the fake speaks the Messages API as the official SDK reads it', () => {
  it('the-sdks-own-stream-helper-assembles-its-blocks', async () => {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    fake.reply(
      anthropicReply.answer({
        blocks: [
          { type: 'thinking', chunks: ['Hm', 'm.'], signature: 'sig-9' },
          { type: 'text', chunks: ['Look', 'ing.'] },
          {
            type: 'tool_use',
            id: 'toolu_9',
            name: 'files__read',
            json: '{"path": "x", "n": [1, 2]}',
            splitEvery: 2,
          },
        ],
        usage: { input: 40, output: 17 },
      }),
    );
    const client = new Anthropic({
      apiKey: null,
      defaultHeaders: { 'x-api-key': KEY },
      baseURL: fake.baseUrl,
      maxRetries: 0,
    });
    const message = await client.messages
      .stream({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] })
      .finalMessage();
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Hmm.', signature: 'sig-9' },
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 'toolu_9', name: 'files__read', input: { path: 'x', n: [1, 2] } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject({ input_tokens: 40, output_tokens: 17 });
  });
});
