import { afterEach, describe, expect, it } from 'vitest';
import { ollamaReply, startOllamaFake } from '../../fakes/ollama-fake.js';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { answerText, EngineHarness, status, testServerEntry } from '../../helpers/engine-harness.js';
import { runCommand } from '../../../core/commands/run-command.js';
import type { EngineEvent } from '../../../core/types/engine-event.js';

// R-LOOP-6 clarified: calls made together in one message are one round (issue 18, items 6 and 7).
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const STOPPED = 'Tool calls are stopped after an error. Answer the user.';
const toolMessages = (body: { messages: { role: string }[] }) =>
  body.messages.filter((m) => m.role === 'tool');
const ofType = <T extends EngineEvent['type']>(events: EngineEvent[], type: T) =>
  events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type);

describe('several native calls in one message, the first failing', () => {
  it('OpenAI: every call gets one result, the follow-up is sent, the summary is the answer', async () => {
    const fake = await startOpenAIFake();
    cleanups.push(() => fake.close());
    const h = await EngineHarness.start({
      model: { name: 'gpt-test', provider: 'openai', apiKey: 'sk-test-123456', baseUrl: fake.baseUrl },
      config: { toolCallMode: 'auto' },
      servers: { tools: testServerEntry() },
    });
    cleanups.push(() => h.close());
    fake.reply(
      openaiReply.toolCalls([
        { id: 'call_a', name: 'tools__fail', arguments: { message: 'disk full' } },
        { id: 'call_b', name: 'tools__echo', arguments: { text: 'b' } },
        { id: 'call_c', name: 'tools__echo', arguments: { text: 'c' } },
      ]),
      openaiReply.text(['The first tool failed: disk full.']),
    );
    const events = await h.turn('do three things');
    expect(toolMessages(fake.requests[1]!.body)).toEqual([
      { role: 'tool', tool_call_id: 'call_a', content: 'Error: disk full' },
      { role: 'tool', tool_call_id: 'call_b', content: STOPPED },
      { role: 'tool', tool_call_id: 'call_c', content: STOPPED },
    ]);
    expect(ofType(events, 'tool-call').map((e) => e.tool)).toEqual(['fail']); // b and c never ran
    expect(ofType(events, 'error')).toEqual([]);
    expect(answerText(events)).toBe('The first tool failed: disk full.');
    expect(status(events)).toBe('answered');
  });

  it('an unknown native tool is shown by its name, without a "?/" server', async () => {
    const fake = await startOpenAIFake();
    cleanups.push(() => fake.close());
    const h = await EngineHarness.start({
      model: { name: 'gpt-test', provider: 'openai', apiKey: 'sk-test-123456', baseUrl: fake.baseUrl },
      config: { toolCallMode: 'auto' },
      servers: { tools: testServerEntry() },
    });
    cleanups.push(() => h.close());
    fake.reply(
      openaiReply.toolCalls([{ id: 'call_x', name: 'web_search', arguments: { q: 'x' } }]),
      openaiReply.text(['I cannot search.']),
    );
    const events = await h.turn('search');
    const summary = ofType(events, 'tool-result')[0]!.summary;
    expect(summary).toMatch(/^web_search: Error: /);
    expect(summary).not.toContain('?/');
  });

  it('Ollama: five native calls, the first failing; each result carries tool_name', async () => {
    const fake = await startOllamaFake();
    cleanups.push(() => fake.close());
    const h = await EngineHarness.start({
      model: { name: 'qwen3', provider: 'ollama', baseUrl: fake.baseUrl, toolMode: 'native' },
      config: { toolCallMode: 'auto' },
      servers: { tools: testServerEntry() },
    });
    cleanups.push(() => h.close());
    fake.reply(
      ollamaReply.toolCalls([
        { name: 'tools__fail', arguments: { message: 'nope' } },
        ...['1', '2', '3', '4'].map((t) => ({ name: 'tools__echo', arguments: { text: t } })),
      ]),
      ollamaReply.text(['One failed, so I stopped.']),
    );
    const events = await h.turn('five things');
    const results = toolMessages(fake.requests[1]!.body);
    expect(results).toHaveLength(5);
    expect(results[0]).toMatchObject({ role: 'tool', content: 'Error: nope', tool_name: 'tools__fail' });
    for (const r of results.slice(1))
      expect(r).toMatchObject({ role: 'tool', content: STOPPED, tool_name: 'tools__echo' });
    expect(answerText(events)).toBe('One failed, so I stopped.');
    expect(status(events)).toBe('answered');
  });

  it('a call in a later round still gets the stop notice once, and a third round ends the turn', async () => {
    const fake = await startOpenAIFake();
    cleanups.push(() => fake.close());
    const h = await EngineHarness.start({
      model: { name: 'gpt-test', provider: 'openai', apiKey: 'sk-test-123456', baseUrl: fake.baseUrl },
      config: { toolCallMode: 'auto' },
      servers: { tools: testServerEntry() },
    });
    cleanups.push(() => h.close());
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'tools__fail', arguments: {} }]),
      openaiReply.toolCalls([
        { id: 'c2', name: 'tools__echo', arguments: { text: 'a' } },
        { id: 'c3', name: 'tools__echo', arguments: { text: 'b' } },
      ]),
      openaiReply.toolCalls([{ id: 'c4', name: 'tools__echo', arguments: { text: 'c' } }]),
    );
    const events = await h.turn('stubborn');
    expect(toolMessages(fake.requests[2]!.body).slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'c2', content: STOPPED },
      { role: 'tool', tool_call_id: 'c3', content: STOPPED },
    ]);
    expect(ofType(events, 'error')).toEqual([
      { type: 'error', code: 'tool-error', message: 'Error: it failed' },
    ]);
    expect(status(events)).toBe('failed');
  });
});

describe('arguments written as strings (R-PARSE-8, both call modes)', () => {
  it('native: "2" and "3" for numbers reach the MCP server as numbers', async () => {
    const fake = await startOpenAIFake();
    cleanups.push(() => fake.close());
    const h = await EngineHarness.start({
      model: { name: 'gpt-test', provider: 'openai', apiKey: 'sk-test-123456', baseUrl: fake.baseUrl },
      config: { toolCallMode: 'auto' },
      servers: { tools: testServerEntry() },
    });
    cleanups.push(() => h.close());
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'tools__echo', arguments: { text: 'hi', times: '2' } }]),
      openaiReply.text(['ok']),
    );
    const events = await h.turn('echo twice');
    expect(ofType(events, 'tool-call')[0]!.arguments).toEqual({ text: 'hi', times: 2 });
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ ok: true });
    expect(toolMessages(fake.requests[1]!.body)[0]).toMatchObject({ content: 'hi hi' });
  });

  it('prompt mode: the same conversion', async () => {
    const fake = await startOllamaFake();
    cleanups.push(() => fake.close());
    const h = await EngineHarness.start({
      model: { name: 'qwen3', provider: 'ollama', baseUrl: fake.baseUrl },
      config: { toolCallMode: 'auto' },
      servers: { tools: testServerEntry() },
    });
    cleanups.push(() => h.close());
    fake.reply(
      ollamaReply.text([
        JSON.stringify({ server: 'tools', name: 'echo', arguments: { text: 'yo', times: '3' } }),
      ]),
      ollamaReply.text(['done']),
    );
    const events = await h.turn('echo thrice');
    expect(ofType(events, 'tool-call')[0]!.arguments).toEqual({ text: 'yo', times: 3 });
    expect(toolMessages(fake.requests[1]!.body)[0]).toMatchObject({ content: 'yo yo yo' });
  });
});

describe("a provider's tool limit (R-TOOL-3)", () => {
  it('OpenAI gets at most 128 tools: whole servers in file order, one line naming the rest, once', async () => {
    const fake = await startOpenAIFake();
    cleanups.push(() => fake.close());
    const withExtra = (n: number) => ({
      ...testServerEntry(),
      args: [...(testServerEntry().args as string[]), `--extra-tools=${n}`],
    });
    const h = await EngineHarness.start({
      model: { name: 'gpt-test', provider: 'openai', apiKey: 'sk-test-123456', baseUrl: fake.baseUrl },
      servers: { big: withExtra(100), second: testServerEntry(), third: testServerEntry() },
    });
    cleanups.push(() => h.close());
    fake.reply(openaiReply.text(['one']), openaiReply.text(['two']));
    const first = await h.turn('hi');
    const tools = fake.requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(tools.length).toBeLessThanOrEqual(128);
    expect(tools.some((n: string) => n.startsWith('big__'))).toBe(true);
    expect(tools.some((n: string) => n.startsWith('second__'))).toBe(true);
    expect(tools.some((n: string) => n.startsWith('third__'))).toBe(false);
    expect(tools).toContain('hac__ask_user');
    const limitLines = (events: EngineEvent[]) =>
      ofType(events, 'notice').filter((n) => n.text.includes('takes at most'));
    expect(limitLines(first).map((n) => n.text)).toEqual([
      'gpt-test takes at most 128 tools: the tools of "third" are not offered. Use /toggle-mcp to choose the servers.',
    ]);
    const second = await h.turn('again');
    expect(limitLines(second)).toEqual([]);
    // /mcp says it too.
    const { lines } = await runCommand('/mcp', h.hac.commands);
    expect(lines.at(-1)).toBe(
      'gpt-test takes at most 128 tools: the tools of "third" are not offered. Use /toggle-mcp to choose the servers.',
    );
    expect(fake.requests[1]!.body.tools).toHaveLength(tools.length);
  });
});

describe('a native call cut off by the end of the stream (R-PARSE-8)', () => {
  async function start() {
    const fake = await startOpenAIFake();
    cleanups.push(() => fake.close());
    const h = await EngineHarness.start({
      model: { name: 'gpt-test', provider: 'openai', apiKey: 'sk-test-123456', baseUrl: fake.baseUrl },
      config: { toolCallMode: 'auto' },
      servers: { tools: testServerEntry() },
    });
    cleanups.push(() => h.close());
    return { fake, h };
  }

  it('is never repaired into a run: the user is told, the model gets the error', async () => {
    const { fake, h } = await start();
    fake.reply(
      openaiReply.toolCalls(
        [{ id: 'c1', name: 'tools__echo', arguments: '{"text": "rm -rf /important/dir' }],
        {
          finishReason: 'length',
        },
      ),
      openaiReply.text(['My call was cut off.']),
    );
    const events = await h.turn('clean up');
    expect(ofType(events, 'tool-call')).toEqual([]); // nothing ran, nothing was asked
    expect(ofType(events, 'tool-result')[0]!.summary).toContain(
      "The model's tool call was cut off; it was not run.",
    );
    expect(toolMessages(fake.requests[1]!.body)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: "Error: The model's tool call was cut off; it was not run.",
      },
    ]);
    expect(answerText(events)).toBe('My call was cut off.');
  });

  it.each([
    ['an extra closer', '{"text": "hi"}}'],
    ['words, not JSON', 'echo hi please'],
  ])('arguments that are not json (%s) are said to be so and never run', async (_what, raw) => {
    const { fake, h } = await start();
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'tools__echo', arguments: raw }]),
      openaiReply.text(['My call was broken.']),
    );
    const events = await h.turn('say hi');
    expect(ofType(events, 'tool-call')).toEqual([]);
    const said = "The model's tool call had arguments that are not valid JSON; it was not run.";
    expect(ofType(events, 'tool-result')[0]!.summary).toContain(said);
    expect(toolMessages(fake.requests[1]!.body)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: `Error: ${said}` },
    ]);
  });

  it('a trailing comma in otherwise complete arguments still runs', async () => {
    const { fake, h } = await start();
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'tools__echo', arguments: '{"text": "hi",}' }]),
      openaiReply.text(['ok']),
    );
    const events = await h.turn('echo');
    expect(ofType(events, 'tool-call')[0]!.arguments).toEqual({ text: 'hi' });
    expect(toolMessages(fake.requests[1]!.body)[0]).toMatchObject({ content: 'hi' });
  });
});
