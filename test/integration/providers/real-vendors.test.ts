import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { completionChunk, openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { answerText, EngineHarness, status, testServerEntry } from '../../helpers/engine-harness.js';
import type { EngineEvent } from '../../../core/types/engine-event.js';

// Streams in the shapes real vendors send, replayed through the OpenAI fake and the official SDK (issue 18).
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function harness(model: string): Promise<{ fake: OpenAIFake; h: EngineHarness }> {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const h = await EngineHarness.start({
    model: { name: model, provider: 'openai', apiKey: 'sk-test-123456', baseUrl: fake.baseUrl },
  });
  cleanups.push(() => h.close());
  return { fake, h };
}
const thinking = (events: EngineEvent[]) =>
  events.flatMap((e) => (e.type === 'thinking-delta' ? [e.text] : [])).join('');
const notices = (events: EngineEvent[]) => events.flatMap((e) => (e.type === 'notice' ? [e.text] : []));

describe('OpenAI reasoning models and temperature (R-CFG-8)', () => {
  it.each(['gpt-5', 'gpt-5-mini', 'o3', 'o4-mini', 'openai/o3-mini'])(
    '%s is sent no temperature',
    async (model) => {
      const { fake, h } = await harness(model);
      fake.reply(openaiReply.text(['ok']));
      await h.turn('hi');
      expect(fake.requests[0]!.body).not.toHaveProperty('temperature');
    },
  );

  it.each(['gpt-4o', 'gpt-5-chat-latest', 'o-series-lookalike', 'llama3.1'])(
    '%s is sent temperature 0.1',
    async (model) => {
      const { fake, h } = await harness(model);
      fake.reply(openaiReply.text(['ok']));
      await h.turn('hi');
      expect(fake.requests[0]!.body.temperature).toBe(0.1);
    },
  );

  it('a model that refuses the temperature with a 400 is asked again without it, once, and remembered', async () => {
    const { fake, h } = await harness('acme-reasoner');
    fake.reply(
      openaiReply.error(400, {
        message:
          "Unsupported value: 'temperature' does not support 0.1 with this model. Only the default (1) value is supported.",
        type: 'invalid_request_error',
        param: 'temperature',
        code: 'unsupported_value',
      }),
      openaiReply.text(['Answer one.']),
      openaiReply.text(['Answer two.']),
    );
    const first = await h.turn('one');
    expect(answerText(first)).toBe('Answer one.');
    expect(status(first)).toBe('answered');
    expect(notices(first)).toEqual(['acme-reasoner does not accept a temperature; using its default.']);
    const second = await h.turn('two');
    expect(answerText(second)).toBe('Answer two.');
    expect(notices(second)).toEqual([]);
    expect(fake.requests.map((r) => r.body.temperature)).toEqual([0.1, undefined, undefined]);
    expect(h.logger.text()).toMatch(/\[info\] acme-reasoner refused temperature 0\.1/);
  });

  it('another 400 is not mistaken for it', async () => {
    const { fake, h } = await harness('gpt-4o');
    fake.reply(openaiReply.error(400, { message: "Invalid value for 'max_tokens'.", param: 'max_tokens' }));
    const events = await h.turn('hi');
    expect(status(events)).toBe('failed');
    expect(fake.requests).toHaveLength(1);
  });
});

describe('Mistral reasoning models: content as an array of parts', () => {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    completionChunk('magistral-medium-2507', delta, finish);

  it('thinking parts are thinking, text parts are the answer, unknown shapes are ignored', async () => {
    const { fake, h } = await harness('magistral-medium-2507');
    fake.reply(
      openaiReply.chunks([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'The user greets. ' }] }] }),
        chunk({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Answer briefly.' }] }] }),
        chunk({ content: [{ type: 'text', text: 'Hello' }] }),
        chunk({
          content: [
            { type: 'image_url', image_url: 'x' },
            { type: 'text', text: ', 안녕!' },
          ],
        }),
        chunk({ content: { unexpected: true } }),
        chunk({ content: [42, null, { type: 'thinking', thinking: 7 }] }),
        chunk({}, 'stop'),
      ]),
    );
    const events = await h.turn('hi');
    expect(thinking(events)).toBe('The user greets. Answer briefly.');
    expect(answerText(events)).toBe('Hello, 안녕!');
    expect(JSON.stringify(events)).not.toContain('[object Object]');
    expect(status(events)).toBe('answered');
  });
});

describe('several choices in one stream', () => {
  it('only choice 0 is the answer', async () => {
    const { fake, h } = await harness('gpt-4o');
    const two = (a: string, b: string) => ({
      ...completionChunk('gpt-4o', {}),
      choices: [
        { index: 0, delta: { content: a }, finish_reason: null },
        { index: 1, delta: { content: b }, finish_reason: null },
      ],
    });
    const only1 = {
      ...completionChunk('gpt-4o', {}),
      choices: [{ index: 1, delta: { content: 'NOPE' }, finish_reason: null }],
    };
    fake.reply(
      openaiReply.chunks([
        two('The ', 'Another '),
        only1,
        two('answer.', 'story.'),
        {
          ...completionChunk('gpt-4o', {}, 'stop'),
          choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
        },
      ]),
    );
    const events = await h.turn('hi');
    expect(answerText(events)).toBe('The answer.');
  });
});

describe('DeepSeek thinking mode with tools (R-STREAM-2)', () => {
  async function withTools(model: string) {
    const fake = await startOpenAIFake();
    cleanups.push(() => fake.close());
    const h = await EngineHarness.start({
      model: { name: model, provider: 'openai', apiKey: 'sk-test-123456', baseUrl: fake.baseUrl },
      config: { toolCallMode: 'auto' },
      servers: { tools: testServerEntry() },
    });
    cleanups.push(() => h.close());
    return { fake, h };
  }
  const assistantWithCalls = (body: { messages: Record<string, unknown>[] }) =>
    body.messages.filter((m) => m.role === 'assistant' && m.tool_calls);

  it('sends the reasoning of a tool-calling message back within the turn, never in later turns or the session', async () => {
    const { fake, h } = await withTools('deepseek-reasoner');
    fake.reply(
      openaiReply.answer({
        reasoning: ['I should ', 'echo it.'],
        toolCalls: [{ id: 'call_1', name: 'tools__echo', arguments: { text: 'hi' } }],
      }),
      openaiReply.thinking(['Done.'], ['It said hi.']),
      openaiReply.text(['Next answer.']),
    );
    const first = await h.turn('echo hi');
    expect(answerText(first)).toBe('It said hi.');
    expect(assistantWithCalls(fake.requests[1]!.body)).toEqual([
      expect.objectContaining({ reasoning_content: 'I should echo it.' }),
    ]);
    await h.turn('and now?');
    expect(JSON.stringify(fake.requests[2]!.body)).not.toContain('reasoning_content');
    const dir = path.join(h.home, 'sessions');
    const saved = readdirSync(dir)
      .map((f) => readFileSync(path.join(dir, f), 'utf8'))
      .join('');
    expect(saved).not.toContain('I should echo it.');
  });

  it('other OpenAI-compatible models get no reasoning_content field', async () => {
    const { fake, h } = await withTools('qwen3-vllm');
    fake.reply(
      openaiReply.answer({
        reasoning: ['thinking'],
        toolCalls: [{ id: 'call_1', name: 'tools__echo', arguments: { text: 'hi' } }],
      }),
      openaiReply.text(['ok']),
    );
    await h.turn('echo hi');
    expect(JSON.stringify(fake.requests[1]!.body)).not.toContain('reasoning_content');
  });
});

describe('keep-alives count as activity (R-PROV-5)', () => {
  it('a proxy that sends only SSE comments for longer than the first-byte timeout, then answers, is answered', async () => {
    const fake = await startOpenAIFake();
    cleanups.push(() => fake.close());
    const h = await EngineHarness.start({
      model: {
        name: 'openrouter/some-model',
        provider: 'openai',
        apiKey: 'sk-test-123456',
        baseUrl: fake.baseUrl,
      },
      // Timeouts six times the comments' spacing: a loaded machine may deliver one a few hundred ms late.
      config: { firstByteTimeoutMs: 600, idleTimeoutMs: 600 },
    });
    cleanups.push(() => h.close());
    // Steps wait on timers all started when the request arrives: each fires at its own offset from then.
    const at = (ms: number) => ({ waitFor: new Promise((r) => setTimeout(r, ms)) });
    const comment = { write: ': OPENROUTER PROCESSING\n\n' };
    const data = (delta: Record<string, unknown>, finish: string | null = null) => ({
      write: `data: ${JSON.stringify(completionChunk('m', delta, finish))}\n\n`,
    });
    fake.reply(() => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      // Comments every 100 ms: for 1.5 s before the first token, and for 1.2 s between the two tokens.
      steps: [
        ...Array.from({ length: 15 }, (_, i) => [at((i + 1) * 100), comment]).flat(),
        data({ content: 'Thought ' }),
        ...Array.from({ length: 12 }, (_, i) => [at((i + 16) * 100), comment]).flat(),
        data({ content: 'long.' }, 'stop'),
        { write: 'data: [DONE]\n\n' },
      ],
    }));
    const events = await h.turn('think hard');
    expect(answerText(events)).toBe('Thought long.');
    expect(status(events)).toBe('answered');
    expect(events.filter((e) => e.type === 'retry' || e.type === 'error')).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('other vendors’ stream shapes', () => {
  it('Azure OpenAI: a first chunk with no choices and content-filter results, then the answer', async () => {
    const { fake, h } = await harness('gpt-4o');
    const filter = {
      hate: { filtered: false, severity: 'safe' },
      violence: { filtered: false, severity: 'safe' },
    };
    fake.reply(
      openaiReply.chunks([
        {
          id: '',
          object: '',
          created: 0,
          model: '',
          choices: [],
          prompt_filter_results: [{ prompt_index: 0, content_filter_results: filter }],
        },
        {
          ...completionChunk('gpt-4o-2024-11-20', { role: 'assistant', content: 'Azure ' }),
          choices: [
            { index: 0, delta: { content: 'Azure ' }, finish_reason: null, content_filter_results: filter },
          ],
        },
        {
          ...completionChunk('gpt-4o-2024-11-20', {}),
          choices: [
            { index: 0, delta: { content: 'says hi.' }, finish_reason: null, content_filter_results: filter },
          ],
        },
        {
          ...completionChunk('gpt-4o-2024-11-20', {}, 'stop'),
          choices: [{ index: 0, delta: {}, finish_reason: 'stop', content_filter_results: {} }],
        },
      ]),
    );
    const events = await h.turn('hi');
    expect(answerText(events)).toBe('Azure says hi.');
    expect(status(events)).toBe('answered');
  });

  it('Groq: usage under x_groq in the last chunk', async () => {
    const { fake, h } = await harness('llama-3.3-70b-versatile');
    fake.reply(
      openaiReply.chunks([
        {
          ...completionChunk('llama-3.3-70b-versatile', { role: 'assistant', content: '' }),
          x_groq: { id: 'req_01' },
        },
        completionChunk('llama-3.3-70b-versatile', { content: 'Fast ' }),
        completionChunk('llama-3.3-70b-versatile', { content: 'answer.' }),
        {
          ...completionChunk('llama-3.3-70b-versatile', {}, 'stop'),
          x_groq: { id: 'req_01', usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } },
        },
      ]),
    );
    const events = await h.turn('hi');
    expect(answerText(events)).toBe('Fast answer.');
    expect(status(events)).toBe('answered');
  });
});
