import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ollamaReply, startOllamaFake, type OllamaFake } from '../../fakes/ollama-fake.js';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { answerText, EngineHarness, status, testServerEntry } from '../../helpers/engine-harness.js';
import type { EngineEvent } from '../../../core/types/engine-event.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function promptMode(
  config: Record<string, unknown> = {},
): Promise<{ fake: OllamaFake; h: EngineHarness }> {
  const fake = await startOllamaFake();
  cleanups.push(() => fake.close());
  const h = await EngineHarness.start({
    model: { name: 'qwen3', provider: 'ollama', baseUrl: fake.baseUrl },
    config,
    servers: { tools: testServerEntry() },
  });
  cleanups.push(() => h.close());
  return { fake, h };
}

async function nativeMode(
  config: Record<string, unknown> = {},
): Promise<{ fake: OpenAIFake; h: EngineHarness }> {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const h = await EngineHarness.start({
    model: { name: 'gpt-test', provider: 'openai', apiKey: 'sk-test-123456', baseUrl: fake.baseUrl },
    config,
    servers: { tools: testServerEntry() },
  });
  cleanups.push(() => h.close());
  return { fake, h };
}

const call = (name: string, args: Record<string, unknown>, server = 'tools') =>
  JSON.stringify({ server, name, arguments: args });
const ofType = <T extends EngineEvent['type']>(events: EngineEvent[], type: T) =>
  events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type);
const toolMessages = (body: { messages: { role: string; content: string }[] }) =>
  body.messages.filter((m) => m.role === 'tool');
const sessions = (h: EngineHarness) => {
  try {
    return readdirSync(path.join(h.home, 'sessions'));
  } catch {
    return [];
  }
};

/** Aborts once the MCP server's stderr (forwarded to the log) shows the call is running. */
async function abortWhenLogged(
  h: EngineHarness,
  pattern: RegExp,
  controller: AbortController,
): Promise<void> {
  while (!pattern.test(h.logger.text())) await new Promise((r) => setImmediate(r));
  controller.abort();
}

describe('engine: the tool loop (R-LOOP)', () => {
  it('summary-then-confirmation-then-result-as-role-tool-in-prompt-mode', async () => {
    const { fake, h } = await promptMode();
    fake.reply(
      ollamaReply.text(['Let me check.\n', call('echo', { text: 'hi', times: 2 })]),
      ollamaReply.text(['It said hi hi.']),
    );
    const events = await h.turn('echo hi twice', ['y']);
    expect(ofType(events, 'tool-call')[0]).toMatchObject({
      server: 'tools',
      serverDescription: 'hac test server',
      tool: 'echo',
      toolDescription: 'Echoes the text back.',
      arguments: { text: 'hi', times: 2 },
      needsConfirmation: true,
    });
    expect(answerText(events)).toBe('Let me check.\nIt said hi hi.');
    expect(answerText(events)).not.toContain('"server"');
    const second = fake.requests[1]!.body;
    expect(second.messages.at(-2)).toMatchObject({
      role: 'assistant',
      content: `Let me check.\n${call('echo', { text: 'hi', times: 2 })}`,
    });
    expect(second.messages.at(-1)).toEqual({ role: 'tool', content: 'hi hi', tool_name: 'echo' });
    expect(status(events)).toBe('answered');
  });

  it('ollama-system-message-lists-servers-then-hac-and-ends-with-the-call-block', async () => {
    const { fake, h } = await promptMode();
    fake.reply(ollamaReply.text(['fine']));
    await h.turn('hello');
    const system: string = fake.requests[0]!.body.messages[0].content;
    expect(
      system.startsWith(
        'You are a test assistant.\n\nCurrent date: 2026-11-22 (Sunday), time zone Asia/Seoul\n\nFUNCTIONS:\n\n# Connected MCP Servers\n\n## tools\nThese are tool name, description and input schema.\n\n- **echo**: Echoes the text back.',
      ),
    ).toBe(true);
    expect(system.indexOf('## hac')).toBeGreaterThan(system.indexOf('## tools'));
    expect(system.endsWith('"libraryName": "java"\n\t}\n}')).toBe(true);
    expect(fake.requests[0]!.body.tools).toBeUndefined();
  });

  it('native-mode-sends-tools-and-returns-results-by-tool-call-id', async () => {
    const { fake, h } = await nativeMode();
    fake.reply(
      openaiReply.toolCalls([{ id: 'call_1', name: 'tools__echo', arguments: { text: 'yo' } }]),
      openaiReply.text(['done']),
    );
    const events = await h.turn('echo yo', ['yes']);
    const first = fake.requests[0]!.body;
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('tools__echo');
    expect(first.messages[0].content).not.toContain('FUNCTIONS:');
    const second = fake.requests[1]!.body;
    expect(second.messages.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_1', function: { name: 'tools__echo' } }],
    });
    expect(second.messages.at(-1)).toEqual({ role: 'tool', content: 'yo', tool_call_id: 'call_1' });
    expect(answerText(events)).toBe('done');
  });

  it('only-user-message-and-final-answer-stay-after-a-turn-with-tools', async () => {
    const { fake, h } = await promptMode({ toolCallMode: 'auto' });
    fake.reply(
      ollamaReply.text([call('echo', { text: 'x' })]),
      ollamaReply.text(['final one']),
      ollamaReply.text(['second']),
    );
    await h.turn('first');
    await h.turn('second question');
    const third = fake.requests[2]!.body.messages.slice(1).map((m: { role: string; content: string }) => [
      m.role,
      m.content,
    ]);
    expect(third).toEqual([
      ['user', 'first'],
      ['assistant', 'final one'],
      ['user', 'second question'],
    ]);
  });

  it('invalid-reply-asks-again-with-please-answer-y-or-n', async () => {
    const { fake, h } = await promptMode();
    fake.reply(ollamaReply.text([call('echo', { text: 'a' })]), ollamaReply.text(['ok']));
    const events = await h.turn('go', ['maybe', 'Y']);
    expect(events).toContainEqual({
      type: 'notice',
      level: 'info',
      text: 'Please answer with Y or N (or A: always).',
    });
    expect(ofType(events, 'confirmation-request')).toHaveLength(2);
    expect(status(events)).toBe('answered');
  });

  it('decline-ends-the-turn-and-keeps-the-question-with-what-was-declined', async () => {
    const { fake, h } = await promptMode();
    fake.reply(ollamaReply.text([call('echo', { text: 'a' })]), ollamaReply.text(['next turn answer']));
    const events = await h.turn('do not run it', ['n']);
    expect(ofType(events, 'tool-skipped')).toEqual([
      {
        type: 'tool-skipped',
        id: expect.any(String),
        reason: 'declined',
        text: 'MCP call cancelled by user.',
      },
    ]);
    expect(status(events)).toBe('declined');
    expect(fake.requests).toHaveLength(1);
    expect(sessions(h)).toEqual([]); // no answer of the session yet
    await h.turn('no, echo b instead');
    // The next request has the question and which call was declined: "instead" has its context.
    const messages = fake.requests[1]!.body.messages.slice(1) as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[0]!.content).toBe('do not run it');
    expect(messages[1]!.content).toMatch(
      /\[I proposed calling the tool tools\/echo with \{"text":"a"\}; the user declined, so it did not run\.\]$/,
    );
    const [file] = sessions(h);
    const saved = JSON.parse(readFileSync(path.join(h.home, 'sessions', file!), 'utf8'));
    expect(saved.messages[1]).toMatchObject({ role: 'assistant', status: 'declined' });
  });

  it('tool-error-stops-further-calls-and-the-model-summary-is-the-answer', async () => {
    const { fake, h } = await promptMode({ toolCallMode: 'auto' });
    fake.reply(
      ollamaReply.text([call('fail', { message: 'disk full' })]),
      ollamaReply.text([call('echo', { text: 'retry' })]),
      ollamaReply.text(['The tool failed: disk full. What now?']),
    );
    const events = await h.turn('try it');
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ ok: false });
    expect(toolMessages(fake.requests[1]!.body).at(-1)).toEqual({
      role: 'tool',
      content: 'Error: disk full',
      tool_name: 'fail',
    });
    expect(toolMessages(fake.requests[2]!.body).at(-1)).toEqual({
      role: 'tool',
      content: 'Tool calls are stopped after an error. Answer the user.',
      tool_name: 'echo',
    });
    expect(ofType(events, 'tool-call').map((e) => e.tool)).toEqual(['fail']);
    expect(answerText(events)).toBe('The tool failed: disk full. What now?');
    expect(status(events)).toBe('answered');
    expect(sessions(h)).toHaveLength(1);
  });

  it('a-second-call-after-the-stop-ends-the-turn-with-the-error', async () => {
    const { fake, h } = await promptMode({ toolCallMode: 'auto' });
    fake.reply(
      ollamaReply.text([call('fail', {})]),
      ollamaReply.text([call('echo', { text: 'a' })]),
      ollamaReply.text([call('echo', { text: 'b' })]),
    );
    const events = await h.turn('stubborn');
    expect(ofType(events, 'error')).toEqual([
      { type: 'error', code: 'tool-error', message: 'Error: it failed' },
    ]);
    expect(status(events)).toBe('failed');
    expect(sessions(h)).toEqual([]);
  });

  it('duplicate-call-reuses-result', async () => {
    const { fake, h } = await promptMode();
    fake.reply(
      ollamaReply.text([call('echo', { text: 'same', times: 1 })]),
      ollamaReply.text([call('echo', { times: 1, text: 'same' })]),
      ollamaReply.text(['done']),
    );
    const events = await h.turn('twice', ['y']);
    expect(ofType(events, 'confirmation-request')).toHaveLength(1);
    expect(events).toContainEqual({
      type: 'tool-skipped',
      id: expect.any(String),
      reason: 'duplicate',
      text: 'Skipped duplicate call to tools/echo.',
    });
    expect(toolMessages(fake.requests[2]!.body).at(-1)!.content).toBe(
      'same\n\n(duplicate call: result reused)',
    );
  });

  it('several-calls-in-one-message-run-in-order-each-confirmed-and-n-stops-the-rest', async () => {
    const { fake, h } = await promptMode();
    fake.reply(
      ollamaReply.text([
        JSON.stringify([
          { server: 'tools', name: 'echo', arguments: { text: '1' } },
          { server: 'tools', name: 'echo', arguments: { text: '2' } },
          { server: 'tools', name: 'echo', arguments: { text: '3' } },
        ]),
      ]),
    );
    const events = await h.turn('three', ['y', 'n']);
    expect(ofType(events, 'tool-call').map((e) => e.arguments)).toEqual([{ text: '1' }, { text: '2' }]);
    expect(ofType(events, 'tool-result')).toHaveLength(1);
    expect(status(events)).toBe('declined');
  });

  it('auto-mode-runs-at-once-but-destructive-tools-still-ask', async () => {
    const { fake, h } = await promptMode({ toolCallMode: 'auto' });
    fake.reply(
      ollamaReply.text([call('echo', { text: 'a' })]),
      ollamaReply.text([call('delete-everything', {})]),
      ollamaReply.text(['done']),
    );
    const events = await h.turn('clean up', ['y']);
    const calls = ofType(events, 'tool-call');
    expect(calls.map((c) => [c.tool, c.needsConfirmation])).toEqual([
      ['echo', false],
      ['delete-everything', true],
    ]);
    expect(ofType(events, 'confirmation-request')).toHaveLength(1);
  });

  it('tool-output-is-cut-at-toolOutputMaxChars-with-the-note', async () => {
    const { fake, h } = await promptMode({ toolCallMode: 'auto', toolOutputMaxChars: 100 });
    fake.reply(ollamaReply.text([call('echo', { text: 'abcd', times: 50 })]), ollamaReply.text(['ok']));
    await h.turn('long');
    const content = toolMessages(fake.requests[1]!.body).at(-1)!.content;
    expect(content).toBe(
      `${Array(50).fill('abcd').join(' ').slice(0, 100)}\n\n... (truncated 149 characters)`,
    );
  });

  it('unknown-tool-gets-an-error-listing-the-available-tools', async () => {
    const { fake, h } = await promptMode({ toolCallMode: 'auto' });
    fake.reply(ollamaReply.text([call('nope', { a: 1 })]), ollamaReply.text(['sorry']));
    await h.turn('call something odd');
    const content = toolMessages(fake.requests[1]!.body).at(-1)!.content;
    expect(content.startsWith('Error: ')).toBe(true);
    expect(content).toContain('echo');
  });

  it('round-limit-withholds-tools-with-the-note', async () => {
    const { fake, h } = await promptMode({ toolCallMode: 'auto', maxToolRounds: 2 });
    fake.reply(
      ollamaReply.text([call('echo', { text: '1' })]),
      ollamaReply.text([call('echo', { text: '2' })]),
      ollamaReply.text(['what I have']),
    );
    const events = await h.turn('loop');
    expect(fake.requests).toHaveLength(3);
    const last: string = fake.requests[2]!.body.messages[0].content;
    expect(last.endsWith('Tool call limit reached. Answer with what you have.')).toBe(true);
    expect(last).not.toContain('## tools');
    expect(answerText(events)).toBe('what I have');
  });

  it('ask-user-asks-and-its-answer-goes-back-as-the-tool-result', async () => {
    const { fake, h } = await promptMode();
    fake.reply(
      ollamaReply.text([
        JSON.stringify({
          server: 'hac',
          name: 'ask_user',
          arguments: { question: 'Which colour?', options: ['red', 'blue'] },
        }),
      ]),
      ollamaReply.text(['Blue it is.']),
    );
    const events = await h.turn('pick a colour', ['2']);
    expect(ofType(events, 'question')[0]).toMatchObject({
      question: 'Which colour?',
      options: ['red', 'blue'],
    });
    expect(ofType(events, 'confirmation-request')).toEqual([]);
    expect(toolMessages(fake.requests[1]!.body).at(-1)).toEqual({
      role: 'tool',
      content: 'User selected: blue',
      tool_name: 'ask_user',
    });
  });

  it('ctrl-c-during-a-tool-run-cancels-it-and-the-server-sees-the-cancel', async () => {
    const { fake, h } = await promptMode({ toolCallMode: 'auto' });
    fake.reply(ollamaReply.text([call('hang', {})]));
    const controller = new AbortController();
    const events = await h.turn('hang please', [], {
      signal: controller.signal,
      onEvent: (e) => e.type === 'tool-call' && void abortWhenLogged(h, /hang started/, controller),
    });
    expect(status(events)).toBe('cancelled');
    fake.reply(ollamaReply.text([call('cancelled-count', {})]), ollamaReply.text(['ok']));
    await h.turn('count', ['y']);
    expect(toolMessages(fake.requests[2]!.body).at(-1)!.content).toBe('1');
  });

  it('a-chain-of-five-calls-under-a-small-budget-adds-last-user-query', async () => {
    const { fake, h } = await nativeMode({
      toolCallMode: 'auto',
      // Small, but room for the test server's tools (about 2,400 characters: toolShare is half of it).
      contextMaxChars: 5000,
      minRecentMessages: 1,
      summarize: false,
    });
    const calls = [1, 2, 3, 4, 5].map((i) => ({
      id: `c${i}`,
      name: 'tools__echo',
      arguments: { text: `${'x'.repeat(300)}${i}`, times: 4 },
    }));
    fake.reply(openaiReply.toolCalls(calls), openaiReply.text(['summary of five']));
    const events = await h.turn('please run the five echoes and tell me');
    expect(answerText(events)).toBe('summary of five');
    const second = fake.requests[1]!.body;
    const tools = second.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(tools).toHaveLength(5);
    expect(
      second.messages.some(
        (m: { role: string; content: string }) => m.role === 'user' && m.content.startsWith('please run'),
      ),
    ).toBe(false);
    expect(second.messages[0].content).toContain('Last user query: please run the five echoes and tell me');
  });
});
