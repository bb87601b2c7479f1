import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { answerText, EngineHarness, status } from '../../helpers/engine-harness.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function openai(config: Record<string, unknown>): Promise<{ fake: OpenAIFake; h: EngineHarness }> {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const h = await EngineHarness.start({
    model: { name: 'gpt-test', provider: 'openai', apiKey: 'sk-test-123456', baseUrl: fake.baseUrl },
    config,
  });
  cleanups.push(() => h.close());
  return { fake, h };
}

const session = (h: EngineHarness) => {
  const dir = path.join(h.home, 'sessions');
  const file = readdirSync(dir).find((f) => f.endsWith('.json'))!;
  return JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
};
const isSummaryRequest = (body: { messages: { content: string }[] }) =>
  body.messages[0]!.content.startsWith('Summarise the following conversation');
const long = (tag: string) => `${tag} `.repeat(300);

// Budget 2,000 characters, 1 recent message kept: the third turn must drop the first two.
const tight = { contextMaxChars: 2_000, minRecentMessages: 1, summarize: true };

describe('engine: the context window through the fake server', () => {
  it('a-short-summary-replaces-the-dropped-messages-and-is-saved', async () => {
    const { fake, h } = await openai(tight);
    fake.reply(
      openaiReply.text([long('a1')]),
      openaiReply.text(['- the user asked q1 and q2']),
      openaiReply.text([long('a2')]),
    );
    await h.turn(long('q1'));
    const events = await h.turn(long('q2'));
    expect(answerText(events)).toBe(long('a2'));
    expect(isSummaryRequest(fake.requests[1]!.body)).toBe(true);
    const main = fake.requests[2]!.body.messages.map((m: { content: string }) => m.content);
    expect(
      main.some((c: string) => c.startsWith('Summary of earlier conversation: - the user asked q1 and q2')),
    ).toBe(true);
    expect(main.join('\n')).not.toContain('q1 q1 q1');
    expect(events.find((e) => e.type === 'context-trimmed')).toMatchObject({ summarised: true });
    expect(session(h).summaries).toEqual([
      // It takes in the whole first exchange: the request then has room for the next turns.
      expect.objectContaining({ content: expect.stringContaining('the user asked q1'), covers: 2 }),
    ]);
  });

  it('rewind-takes-back-the-summary-of-the-messages-it-takes-back-from-the-file-and-a-resume', async () => {
    const { fake, h } = await openai(tight);
    fake.reply(
      openaiReply.text([long('a1')]),
      openaiReply.text(['- the user asked q1, a secret plan']),
      openaiReply.text([long('a2')]),
    );
    await h.turn(long('q1'));
    await h.turn(long('q2'));
    expect(session(h).summaries).toHaveLength(1);
    const dir = path.join(h.home, 'sessions');
    const [name] = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(await h.hac.conversation.rewind(2)).toBe(2);
    // Nothing left: the file waits in the trash (as /delete leaves it) instead of listing 0 messages.
    expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toEqual([]);
    expect(readdirSync(path.join(dir, '.trash'))).toContain(name);
    // The next message starts afresh, and never sends the summary of what the user took back.
    fake.reply(openaiReply.text(['fresh']));
    await h.turn('q3');
    expect(JSON.stringify(fake.requests.at(-1)!.body)).not.toContain('a secret plan');
    expect(session(h).messages.map((m: { content: string }) => m.content)).toEqual(['q3', 'fresh']);
    expect(session(h).summaries ?? []).toEqual([]);
  });

  it('the-file-keeps-the-newest-summary-only-and-a-resumed-session-rolls-it-into-the-next', async () => {
    const { fake, h } = await openai(tight);
    const summaries = ['- s1 서울', '- s2 "quoted"', '- s3 東京', '- s4 🙂'].map(
      (s) => `${s}${' detail'.repeat(15)}`,
    );
    fake.reply(
      openaiReply.text([long('a1')]),
      ...summaries
        .slice(0, 3)
        .flatMap((s, i) => [openaiReply.text([s]), openaiReply.text([long(`a${i + 2}`)])]),
    );
    for (const q of ['q1', 'q2', 'q3', 'q4']) await h.turn(long(q));
    const contents = () => session(h).summaries.map((s: { content: string }) => s.content);
    // Each summary was written from the one before it, so the file needs only the newest.
    expect(JSON.stringify(fake.requests.at(-2)!.body)).toContain('s2 \\"quoted\\"');
    expect(contents()).toEqual([summaries[2]]);
    // A second conversation resumes the file: its next summary takes in the resumed one.
    const dir = path.join(h.home, 'sessions');
    const other = h.runtime.openChat();
    await other.conversation.resume(path.join(dir, readdirSync(dir)[0]!));
    fake.reply(openaiReply.text([summaries[3]!]), openaiReply.text([long('a5')]));
    for await (const event of other.engine.run(long('q5'), new AbortController().signal)) void event;
    await other.conversation.settled(); // its answer's save runs behind the prompt
    expect(isSummaryRequest(fake.requests.at(-2)!.body)).toBe(true);
    expect(JSON.stringify(fake.requests.at(-2)!.body)).toContain('s3 東京');
    expect(contents()).toEqual([summaries[3]]);
    expect(session(h).messages).toHaveLength(10);
  });

  it('a-summary-longer-than-what-it-replaces-is-rejected-for-plain-trimming', async () => {
    const { fake, h } = await openai(tight);
    fake.reply(
      openaiReply.text([long('a1')]),
      openaiReply.text([long('summary').repeat(4)]),
      openaiReply.text(['a2']),
    );
    await h.turn(long('q1'));
    const events = await h.turn(long('q2'));
    expect(status(events)).toBe('answered');
    const main = fake.requests[2]!.body.messages.map((m: { content: string }) => m.content).join('\n');
    expect(main).not.toContain('Summary of earlier conversation');
    expect(main).not.toContain('q1 q1');
    expect(h.logger.text()).toMatch(/\[warn\] Context summary not used/);
  });

  it('a-failing-summary-falls-back-to-trimming-silently', async () => {
    const { fake, h } = await openai(tight);
    fake.reply(openaiReply.text([long('a1')]), openaiReply.serverError(), openaiReply.text(['a2']));
    await h.turn(long('q1'));
    const events = await h.turn(long('q2'));
    expect(answerText(events)).toBe('a2');
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    expect(h.logger.text()).toMatch(/\[warn\] Context summary not used/);
  });
});

describe('engine: one message larger than the whole budget', () => {
  it('goes-whole-in-its-own-turn-then-cut-to-its-start-so-recent-messages-stay-and-the-user-is-told-once', async () => {
    const { fake, h } = await openai({ contextMaxChars: 8_000, minRecentMessages: 2, summarize: false });
    const paste = `LOG-START ${'line of a long log\n'.repeat(1_500)}LOG-END`; // about 28,000 characters
    fake.reply(
      openaiReply.text(['A long log.']),
      openaiReply.text(['one']),
      openaiReply.text(['two']),
      openaiReply.text(['three']),
    );
    await h.turn(paste);
    const sent = (n: number) => fake.requests[n]!.body.messages.map((m: { content: string }) => m.content);
    expect(sent(0)).toContain(paste); // whole, in its own turn
    const second = await h.turn('first small question');
    const third = await h.turn('second small question');
    const fourth = await h.turn('third small question');
    for (const n of [1, 2, 3]) {
      const cut = sent(n).find((c: string) => c.startsWith('LOG-START'));
      expect(cut).toMatch(/^LOG-START line of a long log\n/);
      expect(cut).toMatch(/\[… [\d,]+ more characters of this message were left out to fit the context\]$/);
      expect(cut.length).toBeLessThanOrEqual(2_000 + 100);
      expect(JSON.stringify(fake.requests[n]!.body).length).toBeLessThan(8_000 + 2_000);
    }
    // The recent messages stay: nothing dropped while the cut message fits.
    expect(sent(3)).toEqual(
      expect.arrayContaining([
        'first small question',
        'one',
        'second small question',
        'two',
        'third small question',
      ]),
    );
    const told = (events: typeof second) =>
      events.filter((e) => e.type === 'notice' && e.text.includes('sent cut to its start'));
    expect(told(second)).toHaveLength(1);
    expect([...told(third), ...told(fourth)]).toEqual([]);
    expect(second.some((e) => e.type === 'context-trimmed')).toBe(false);
  });
});

describe('engine: timeouts', () => {
  it('idle-timeout-keeps-the-partial-answer-with-the-note', async () => {
    const { fake, h } = await openai({ idleTimeoutMs: 300 });
    fake.reply(openaiReply.answer({ text: ['The first half'], end: 'stall' }));
    const events = await h.turn('tell me');
    expect(events).toContainEqual({
      type: 'error',
      code: 'timeout',
      message: 'The model stopped responding (no data for 0.3 s); the partial answer was kept.',
    });
    expect(status(events)).toBe('answered');
    expect(await fake.requests[0]!.closed).toEqual({ byClient: true });
    expect(session(h).messages[1].content).toBe('The first half\n\n[response timed out]');
  });
});
