import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ollamaReply, startOllamaFake, type OllamaFake } from '../../fakes/ollama-fake.js';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { answerText, EngineHarness, status } from '../../helpers/engine-harness.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function openai(config: Record<string, unknown> = {}): Promise<{ fake: OpenAIFake; h: EngineHarness }> {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const h = await EngineHarness.start({
    model: { name: 'gpt-test', provider: 'openai', apiKey: 'sk-test-key-123456', baseUrl: fake.baseUrl },
    config,
  });
  cleanups.push(() => h.close());
  return { fake, h };
}

async function ollama(config: Record<string, unknown> = {}): Promise<{ fake: OllamaFake; h: EngineHarness }> {
  const fake = await startOllamaFake();
  cleanups.push(() => fake.close());
  const h = await EngineHarness.start({
    model: { name: 'qwen3', provider: 'ollama', baseUrl: fake.baseUrl },
    config,
  });
  cleanups.push(() => h.close());
  return { fake, h };
}

const sessionFiles = (h: EngineHarness) => {
  try {
    return readdirSync(path.join(h.home, 'sessions'));
  } catch {
    return [];
  }
};

describe('engine: answers', () => {
  it('streams-the-answer-after-waiting-and-creates-the-session-file-with-it', async () => {
    const { fake, h } = await openai();
    // The first piece comes alone (the server waits 50 ms once it is sent), the rest together: shown as it
    // came, what came together as one delta. A thenable, so that the 50 ms start when the server awaits it.
    const pause = { then: (go: () => void) => setTimeout(go, 50) } as unknown as Promise<void>;
    fake.reply(openaiReply.text(['Hel', 'lo ', 'there'], { pauseAfterFirst: pause }));
    const events = await h.turn('안녕 첫 질문');
    expect(events[0]).toEqual({ type: 'waiting' });
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text)).toEqual([
      'Hel',
      'lo there',
    ]);
    expect(status(events)).toBe('answered');
    const [file] = sessionFiles(h);
    expect(file).toBe('20261122_103000_안녕_첫_질문.json');
    const session = JSON.parse(readFileSync(path.join(h.home, 'sessions', file!), 'utf8'));
    expect(session).toMatchObject({
      version: 1,
      model: 'gpt-test',
      messages: [
        { role: 'user', content: '안녕 첫 질문' },
        { role: 'assistant', content: 'Hello there', model: 'gpt-test' },
      ],
    });
    expect(session.messages[1].usage).toMatchObject({
      inputTokens: expect.any(Number),
      outputTokens: expect.any(Number),
    });
    const body = fake.requests[0]!.body;
    expect(body).toMatchObject({ model: 'gpt-test', stream: true, temperature: 0.1 });
    expect(body.messages[0].role).toBe('system');
    expect(body.messages[0].content).toBe(
      'You are a test assistant.\n\nCurrent date: 2026-11-22 (Sunday), time zone Asia/Seoul',
    );
    // No MCP server: the only native tools are the built-ins, ask_user (R-FN-3) and remember (R-MEM-1).
    expect(body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      'hac__ask_user',
      'hac__remember',
    ]);
  });

  it('sends-configured-extra-body-fields-but-never-over-the-fixed-ones', async () => {
    const fake = await startOpenAIFake();
    cleanups.push(() => fake.close());
    const h = await EngineHarness.start({
      model: {
        name: 'local',
        provider: 'openai',
        baseUrl: fake.baseUrl,
        extraBody: { top_k: 20, temperature: 0.9, stream: false },
      },
    });
    cleanups.push(() => h.close());
    fake.reply(openaiReply.text(['ok']));
    await h.turn('hi');
    expect(fake.requests[0]!.body).toMatchObject({ top_k: 20, temperature: 0.1, stream: true });
  });

  it('keeps-the-conversation-as-context-for-the-next-turn', async () => {
    const { fake, h } = await openai();
    fake.reply(openaiReply.text(['First answer.']), openaiReply.text(['Second answer.']));
    await h.turn('first question');
    await h.turn('second question');
    const messages = fake.requests[1]!.body.messages.slice(1).map((m: { role: string; content: string }) => [
      m.role,
      m.content,
    ]);
    expect(messages).toEqual([
      ['user', 'first question'],
      ['assistant', 'First answer.'],
      ['user', 'second question'],
    ]);
    expect(sessionFiles(h)).toHaveLength(1);
    const session = JSON.parse(readFileSync(path.join(h.home, 'sessions', sessionFiles(h)[0]!), 'utf8'));
    expect(session.messages).toHaveLength(4);
  });

  it('streams-ollama-thinking-between-markers-and-never-saves-it', async () => {
    const { fake, h } = await ollama();
    fake.reply(ollamaReply.answer({ thinking: ['Let me ', 'think.'], text: ['The answer', ' is 4.'] }));
    const events = await h.turn('2+2?');
    // Deltas that arrive together are one event: the same kinds in a row count once.
    const kinds = events.map((e) => e.type).filter((kind, i, all) => kind !== all[i - 1]);
    expect(kinds.slice(0, 4)).toEqual(['waiting', 'thinking-start', 'thinking-delta', 'thinking-end']);
    expect(answerText(events)).toBe('The answer is 4.');
    const body = fake.requests[0]!.body;
    expect(body).toMatchObject({ model: 'qwen3', stream: true, options: { temperature: 0.1 } });
    expect(body.tools).toBeUndefined();
    const session = readFileSync(path.join(h.home, 'sessions', sessionFiles(h)[0]!), 'utf8');
    expect(session).not.toContain('Let me');
  });

  it('reports-a-provider-error-as-an-event-and-saves-nothing', async () => {
    const { fake, h } = await openai();
    fake.reply(openaiReply.unauthorized());
    const events = await h.turn('hello');
    expect(events.find((e) => e.type === 'error')).toMatchObject({
      code: 'auth',
      message: expect.stringContaining(`check apiKey in ${path.join(h.home, 'config.json')}`),
    });
    expect(status(events)).toBe('failed');
    expect(sessionFiles(h)).toEqual([]);
    expect(h.logger.text()).not.toContain('sk-test-key-123456');
  });

  it('cancel-mid-stream-closes-the-request-and-keeps-the-question-with-the-text-shown', async () => {
    const { fake, h } = await openai();
    fake.reply(openaiReply.answer({ text: ['partial '], end: 'stall' }), openaiReply.text(['fresh']));
    const controller = new AbortController();
    const events = await h.turn('cancel me', [], {
      signal: controller.signal,
      onEvent: (e) => e.type === 'text-delta' && controller.abort(),
    });
    expect(status(events)).toBe('cancelled');
    expect(events).toContainEqual({ type: 'notice', level: 'info', text: 'Response cancelled.' });
    expect(await fake.requests[0]!.closed).toEqual({ byClient: true });
    expect(sessionFiles(h)).toEqual([]); // no answer of the session yet: kept in memory only
    await h.turn('next question');
    // The model sees what was asked and what it had said before the cancel, marked as cut off.
    const messages = fake.requests[1]!.body.messages.slice(1) as { role: string; content: string }[];
    expect(messages).toEqual([
      { role: 'user', content: 'cancel me' },
      { role: 'assistant', content: 'partial\n\n[cancelled by the user]' },
      { role: 'user', content: 'next question' },
    ]);
    // The first answer creates the file, with the cancelled exchange in it, marked.
    const [file] = sessionFiles(h);
    const saved = JSON.parse(readFileSync(path.join(h.home, 'sessions', file!), 'utf8'));
    expect(file).toMatch(/_next_quest\.json$/); // named after the first message that got an answer
    expect(saved.messages.map((m: { status?: string }) => m.status)).toEqual([
      undefined,
      'cancelled',
      undefined,
      undefined,
    ]);
  });

  it('a-save-that-fails-behind-the-prompt-is-said-at-the-next-turn-and-the-answers-go-on', async () => {
    const { fake, h } = await openai();
    fake.reply(
      openaiReply.text(['First answer.']),
      openaiReply.text(['Second answer.']),
      openaiReply.text(['Third answer.']),
    );
    await h.turn('first question');
    const file = path.join(h.home, 'sessions', sessionFiles(h)[0]!);
    // The file's place taken by a folder: the next save cannot put the file there.
    rmSync(file);
    mkdirSync(path.join(file, 'blocked'), { recursive: true });
    const second = await h.turn('second question');
    expect(answerText(second)).toBe('Second answer.');
    const third = await h.turn('third question');
    expect(answerText(third)).toBe('Third answer.');
    const notice = third.find((e) => e.type === 'notice' && e.level === 'warn');
    expect(notice).toMatchObject({ text: expect.stringMatching(/^The session file could not be written: /) });
    expect(third.indexOf(notice!)).toBeLessThan(third.findIndex((e) => e.type === 'text-delta'));
  });

  it('a-later-turn-begins-its-save-with-the-question-and-one-with-no-answer-keeps-the-question-in-the-file', async () => {
    const { fake, h } = await openai();
    const dir = path.join(h.home, 'sessions');
    const temps = () => sessionFiles(h).filter((f) => f.endsWith('.tmp'));
    fake.reply(
      openaiReply.text(['First answer.']),
      openaiReply.answer({ text: ['partial '], end: 'stall' }),
      openaiReply.unauthorized(),
      openaiReply.text(['Fourth answer.']),
    );
    await h.turn('first question');
    const [file] = sessionFiles(h);
    const saved = readFileSync(path.join(dir, file!), 'utf8');
    // While the answer streams, the file holds the question, marked as not answered yet (a crash keeps it), and
    // the rewrite that will add the answer has begun beside it.
    const controller = new AbortController();
    let streaming = false;
    const turn = h.turn('cancel me', [], {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'text-delta') streaming = true;
      },
    });
    await expect.poll(() => streaming).toBe(true);
    const stored = () => JSON.parse(readFileSync(path.join(dir, file!), 'utf8')).messages.slice(-2);
    await expect
      .poll(stored)
      .toEqual([
        expect.objectContaining({ role: 'user', content: 'cancel me' }),
        expect.objectContaining({ status: 'failed', content: expect.stringContaining('/retry asks again') }),
      ]);
    await expect.poll(() => temps().length).toBe(1);
    controller.abort();
    await turn;
    expect(temps()).toEqual([]); // its save has ended: nothing left beside the file
    // The cancelled turn is in the file at once, its question and the text shown, not only after a later answer.
    expect(stored()).toEqual([
      expect.objectContaining({ content: 'cancel me' }),
      expect.objectContaining({ status: 'cancelled', content: 'partial\n\n[cancelled by the user]' }),
    ]);
    const events = await h.turn('refused');
    expect(status(events)).toBe('failed');
    expect(temps()).toEqual([]);
    expect(stored()).toEqual([
      expect.objectContaining({ content: 'refused' }),
      expect.objectContaining({ status: 'failed', content: expect.stringMatching(/^\[no answer: Auth/) }),
    ]);
    expect(readFileSync(path.join(dir, file!), 'utf8')).not.toBe(saved);
    await h.turn('fourth question');
    const text = readFileSync(path.join(dir, file!), 'utf8');
    const session = JSON.parse(text);
    expect(session.messages.map((m: { content: string }) => m.content)).toEqual([
      'first question',
      'First answer.',
      'cancel me',
      'partial\n\n[cancelled by the user]',
      'refused',
      expect.stringMatching(/^\[no answer: Authentication failed for /),
      'fourth question',
      'Fourth answer.',
    ]);
    expect(session.messages.map((m: { status?: string }) => m.status ?? '')).toEqual([
      '',
      '',
      '',
      'cancelled',
      '',
      'failed',
      '',
      '',
    ]);
    expect(text).toBe(`${JSON.stringify(session, null, 2)}\n`);
    expect(temps()).toEqual([]);
  });

  it('retries-an-unavailable-server-and-shows-each-retry', async () => {
    const { fake, h } = await openai();
    fake.reply(openaiReply.serverError(), openaiReply.overloaded(), openaiReply.text(['ok']));
    const events = await h.turn('hi');
    expect(events.filter((e) => e.type === 'retry').map((e) => (e as { delayMs: number }).delayMs)).toEqual([
      250, 750,
    ]);
    expect(h.sleeps).toEqual([250, 750]);
    expect(answerText(events)).toBe('ok');
  });

  it('context-overflow-trims-and-retries-once', async () => {
    const { fake, h } = await openai({ minRecentMessages: 1, summarize: false });
    fake.reply(
      openaiReply.text(['a1 '.repeat(200)]),
      openaiReply.text(['a2 '.repeat(200)]),
      openaiReply.contextTooLong(),
      openaiReply.text(['fits now']),
    );
    await h.turn('q1 '.repeat(200));
    await h.turn('q2 '.repeat(200));
    const events = await h.turn('q3');
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    expect(answerText(events)).toBe('fits now');
    expect(fake.requests).toHaveLength(4);
    expect(fake.requests[3]!.rawBody.length).toBeLessThan(fake.requests[2]!.rawBody.length);
    expect(fake.requests[3]!.body.messages.at(-1)).toMatchObject({ role: 'user', content: 'q3' });
  });
});
