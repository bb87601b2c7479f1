import { describe, expect, it } from 'vitest';
import {
  newContextSession,
  newContextTurn,
  prepareAfterOverflow,
  prepareContext,
  SUMMARY_MESSAGE_PREFIX,
  SUMMARY_PROMPT,
  summaryRequestMessages,
  type ContextConfig,
  type PrepareContextInput,
  type Summariser,
} from '../../../../../core/engine/context/index.js';
import type { Message } from '../../../../../core/types/message.js';

const user = (content: string): Message => ({ role: 'user', content });
const answer = (content: string): Message => ({ role: 'assistant', content });
const tool = (content: string): Message => ({ role: 'tool', content, toolName: 'read' });

function pairs(n: number, size = 100): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < n; i++) out.push(user(`q${i}`.padEnd(size, '.')), answer(`a${i}`.padEnd(size, '.')));
  return out;
}

const config: ContextConfig = { contextMaxChars: 1000, minRecentMessages: 5, summarize: true };

function input(overrides: Partial<PrepareContextInput>): PrepareContextInput {
  return {
    system: '',
    history: [],
    turn: [user('now')],
    config,
    session: newContextSession(),
    turnState: newContextTurn(),
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** A summariser fake that records its calls and answers with `reply(text)`. */
function fakeSummariser(reply: (text: string) => string | Promise<string>) {
  const calls: string[] = [];
  const summarise: Summariser = async (text) => {
    calls.push(text);
    return reply(text);
  };
  return { calls, summarise };
}

describe('prepareContext', () => {
  it('sends-everything-and-says-nothing-under-budget', async () => {
    const history = pairs(2);
    const result = await prepareContext(input({ history }));
    expect(result.messages).toEqual([...history, user('now')]);
    expect(result.notices).toEqual([]);
    expect(result.lastUserQuery).toBeUndefined();
    expect(result.percent).toBe(40);
  });

  it('warns-once-per-session-at-80-percent-with-the-exact-text', async () => {
    const history = pairs(4, 100); // 800 + "now" + 17 system = 820 of 1000
    const first = await prepareContext(input({ system: 's'.repeat(17), history }));
    expect(first.notices).toEqual([
      {
        type: 'budget-warning',
        percent: 82,
        text: 'Context is 82% full; older messages will be summarised.',
      },
    ]);
    const again = await prepareContext(input({ system: 's'.repeat(17), history, session: first.session }));
    expect(again.notices).toEqual([]);
    const fresh = await prepareContext(
      input({ system: 's'.repeat(17), history, session: newContextSession() }),
    );
    expect(fresh.notices).toHaveLength(1);
  });

  it('does-not-warn-below-80-percent', async () => {
    const result = await prepareContext(input({ system: 's'.repeat(17), history: pairs(4, 95) }));
    expect(result.percent).toBe(78);
    expect(result.notices).toEqual([]);
  });

  it('says-what-was-trimmed-at-100-percent-once', async () => {
    const history = pairs(10);
    const first = await prepareContext(input({ history, config: { ...config, summarize: false } }));
    expect(first.notices).toEqual([
      {
        type: 'trimmed',
        removed: 11,
        summarised: 0,
        text: 'Context full: dropped 11 older messages to stay within the limit.',
      },
    ]);
    expect(first.removed).toEqual({ history: 11, turn: 0 });
    const next = await prepareContext(
      input({ history, session: first.session, config: { ...config, summarize: false } }),
    );
    expect(next.notices).toEqual([]);
  });

  it('adds-last-user-query-when-a-chain-of-five-tool-calls-pushes-the-user-message-out', async () => {
    const turn: Message[] = [user('Find the budget figures in my reports')];
    for (let i = 0; i < 5; i++)
      turn.push(answer(`{"name":"read","arguments":{"file":${i}}}`), tool('r'.repeat(190)));
    const result = await prepareContext(
      input({ history: pairs(3), turn, config: { ...config, summarize: false } }),
    );
    expect(result.lastUserQuery).toBe('Find the budget figures in my reports');
    expect(result.messages[0]?.role).toBe('assistant');
    expect(result.messages.at(-1)).toBe(turn.at(-1));
    expect(result.messages.filter((m) => m.role === 'tool')).toHaveLength(
      result.messages.filter((m) => m.role === 'assistant').length,
    );
    expect(result.notices.map((n) => n.type)).toEqual(['trimmed']);
  });

  it('measures-tokens-against-the-context-window', async () => {
    const korean = '회의록 파일을 읽고 결정 사항을 정리해 주세요. '.repeat(10);
    const history = [user(korean), answer(korean), user(korean), answer(korean)];
    const chars = history.reduce((n, m) => n + m.content.length, 0) + 3;
    // The characters fit easily, the tokens of Korean do not (chars/4 would have said they fit).
    const window = Math.ceil(chars / 4) + 10;
    const result = await prepareContext(
      input({
        history,
        config: { ...config, contextMaxChars: 100_000, contextWindow: window, minRecentMessages: 1 },
      }),
    );
    expect(result.size.tokens).toBeDefined();
    expect(result.size.tokens!).toBeLessThanOrEqual(window);
    expect(result.removed.history).toBeGreaterThan(0);
  });
});

describe('summary stage', () => {
  it('replaces-dropped-messages-by-one-summary-message', async () => {
    const history = pairs(10);
    const { calls, summarise } = fakeSummariser(() => '- the user asked ten questions');
    const result = await prepareContext(input({ history, summarise }));
    expect(calls).toHaveLength(1);
    // The newest dropped messages that fit the budget go to the summariser (q0..q2 are too many).
    expect(calls[0]).toMatch(/^User: q3\.+\n\nAssistant: a3/);
    expect(calls[0]!.length).toBeLessThanOrEqual(1000);
    const summary = { role: 'system', content: `${SUMMARY_MESSAGE_PREFIX}- the user asked ten questions` };
    // Stage 1 alone would drop 11; the summary takes in enough that the rest fits in 60% of the budget.
    expect(result.messages).toEqual([summary, ...history.slice(15), user('now')]);
    expect(result.newSummary).toEqual({ text: '- the user asked ten questions', covers: 15 });
    expect(result.session.summary).toEqual(result.newSummary);
    expect(result.size.chars - summary.content.length).toBeLessThanOrEqual(600);
    expect(result.notices).toEqual([
      {
        type: 'trimmed',
        removed: 15,
        summarised: 15,
        text: 'Context full: summarised 15 older messages into one.',
      },
    ]);
  });

  it('rejects-a-summary-longer-than-what-it-replaces-and-uses-stage-1', async () => {
    const history = pairs(10);
    const { calls, summarise } = fakeSummariser((text) => `- ${text}${text}`);
    const result = await prepareContext(input({ history, summarise }));
    expect(calls).toHaveLength(1);
    expect(result.newSummary).toBeUndefined();
    expect(result.messages.some((m) => m.content.startsWith(SUMMARY_MESSAGE_PREFIX))).toBe(false);
    expect(result.messages).toEqual([...history.slice(11), user('now')]);
    expect(result.notices[0]).toMatchObject({ type: 'summary-skipped', reason: 'longer' });
  });

  it('falls-back-to-stage-1-with-a-warning-when-the-summariser-fails', async () => {
    const history = pairs(10);
    const { summarise } = fakeSummariser(() => Promise.reject(new Error('model-not-found')));
    const result = await prepareContext(input({ history, summarise }));
    expect(result.messages).toEqual([...history.slice(11), user('now')]);
    expect(result.notices).toContainEqual({
      type: 'summary-skipped',
      reason: 'failed',
      text: 'Context summary failed (model-not-found); older messages were dropped instead.',
    });
    expect(result.notices.find((n) => n.type === 'trimmed')).toMatchObject({ removed: 11, summarised: 0 });
  });

  it('calls-the-summariser-at-most-once-per-turn', async () => {
    const { calls, summarise } = fakeSummariser(() => Promise.reject(new Error('down')));
    const history = pairs(10);
    const turn: Message[] = [user('now')];
    let state = await prepareContext(input({ history, turn, summarise }));
    turn.push(answer('call'), tool('x'.repeat(300)));
    state = await prepareContext(
      input({ history, turn, summarise, session: state.session, turnState: state.turnState }),
    );
    expect(calls).toHaveLength(1);
    // A new turn may summarise again.
    await prepareContext(input({ history, summarise, session: state.session, turnState: newContextTurn() }));
    expect(calls).toHaveLength(2);
  });

  it('reuses-the-session-summary-in-later-turns-and-extends-it', async () => {
    const { calls, summarise } = fakeSummariser((text) =>
      text.startsWith(SUMMARY_MESSAGE_PREFIX) ? '- both' : '- first',
    );
    const history = pairs(10);
    const first = await prepareContext(input({ history, summarise }));
    expect(first.newSummary?.covers).toBe(15);
    // Next turn: the history grew by one exchange; the old summary stands for its part without a new call.
    const grown = [...history, user('now'), answer('fine')];
    const second = await prepareContext(input({ history: grown, turn: [user('x')], session: first.session }));
    expect(second.messages[0]?.content).toBe(`${SUMMARY_MESSAGE_PREFIX}- first`);
    expect(calls).toHaveLength(1);
    // A turn that must drop more gets a summary of the old summary plus the newly dropped messages.
    const longer = [...grown, ...pairs(3)];
    const third = await prepareContext(
      input({ history: longer, turn: [user('y')], session: second.session, summarise }),
    );
    expect(calls[1]).toMatch(/^Summary of earlier conversation: - first\n\nAssistant: a7/);
    expect(third.newSummary?.text).toBe('- both');
    expect(third.newSummary!.covers).toBeGreaterThan(15);
  });

  it('lets-a-resumed-sessions-summary-stand-in-for-the-messages-it-covers', async () => {
    const history = pairs(5, 50);
    const result = await prepareContext(
      input({ history, session: newContextSession({ text: '- old facts', covers: 6 }) }),
    );
    expect(result.messages).toEqual([
      { role: 'system', content: `${SUMMARY_MESSAGE_PREFIX}- old facts` },
      ...history.slice(6),
      user('now'),
    ]);
    expect(result.removed).toEqual({ history: 6, turn: 0 });
    expect(result.notices).toEqual([]);
  });

  it('ignores-a-summary-that-covers-more-than-the-history', async () => {
    const history = pairs(2);
    const result = await prepareContext(
      input({ history, session: newContextSession({ text: '- other session', covers: 9 }) }),
    );
    expect(result.messages).toEqual([...history, user('now')]);
  });

  it('skips-the-summary-when-summarize-is-off', async () => {
    const { calls, summarise } = fakeSummariser(() => '- x');
    await prepareContext(input({ history: pairs(10), summarise, config: { ...config, summarize: false } }));
    expect(calls).toHaveLength(0);
  });

  it('rethrows-when-cancelled-during-the-summary', async () => {
    const controller = new AbortController();
    const summarise: Summariser = (_text, signal) => {
      controller.abort(new Error('cancelled by user'));
      return Promise.reject(signal.reason as Error);
    };
    await expect(
      prepareContext(input({ history: pairs(10), summarise, signal: controller.signal })),
    ).rejects.toThrow('cancelled by user');
  });

  it('exports-the-exact-summary-prompt', () => {
    expect(SUMMARY_PROMPT).toBe(
      'Summarise the following conversation, keeping only key facts (names, files, numbers, decisions), in at most half its length, as lines starting with `- `.',
    );
    expect(summaryRequestMessages('t')).toEqual([
      { role: 'system', content: SUMMARY_PROMPT },
      { role: 'user', content: 't' },
    ]);
  });
});

describe('context overflow retry', () => {
  it('builds-a-smaller-request-for-the-one-retry', async () => {
    const history = pairs(4); // fits the 1000-character budget
    const base = input({ history, config: { ...config, summarize: false }, turn: [user('now')] });
    const sent = await prepareContext(base);
    expect(sent.messages).toHaveLength(9);
    const retry = await prepareAfterOverflow(base, sent);
    expect(retry).toBeDefined();
    // About half, but the 5 newest messages always stay.
    expect(retry!.size.chars).toBe(403);
    expect(retry!.messages).toHaveLength(5);
    expect(retry!.messages.at(-1)).toEqual(user('now'));
    expect(retry!.notices.map((n) => n.type)).toEqual(['trimmed']);
  });

  it('gives-up-when-nothing-more-can-go', async () => {
    const base = input({ history: [], turn: [user('only this')] });
    const sent = await prepareContext(base);
    expect(await prepareAfterOverflow(base, sent)).toBeUndefined();
  });

  it('uses-the-servers-token-limit-when-known', async () => {
    const history = pairs(20);
    const base = input({ history, config: { ...config, contextMaxChars: 100_000, summarize: false } });
    const sent = await prepareContext(base);
    const retry = await prepareAfterOverflow(base, sent, { maxTokens: 200 });
    expect(retry!.size.tokens!).toBeLessThanOrEqual(180);
  });
});
