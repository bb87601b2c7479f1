import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageChars } from '../../../../../core/engine/context/measure.js';
import { trimToBudget } from '../../../../../core/engine/context/trim.js';
import type { Message } from '../../../../../core/types/message.js';

const text = fc.string({ maxLength: 120 });
const exchange = fc.tuple(text, text).map(([q, a]): Message[] => [
  { role: 'user', content: q },
  { role: 'assistant', content: a },
]);
/** One tool chain, native (tool_calls + results by id) or prompt mode (text + role tool results). */
const chain = fc
  .tuple(fc.boolean(), text, fc.array(text, { minLength: 1, maxLength: 6 }))
  .map(([native, call, results]): Message[] =>
    native
      ? [
          {
            role: 'assistant',
            content: call,
            toolCalls: results.map((_, i) => ({ id: `c${i}`, name: 'x__y', arguments: { i } })),
          },
          ...results.map((r, i): Message => ({ role: 'tool', content: r, toolCallId: `c${i}` })),
        ]
      : [
          { role: 'assistant', content: call },
          ...results.map((r): Message => ({ role: 'tool', content: r, toolName: 'y' })),
        ],
  );

describe('stage 1 invariants', () => {
  it('never-splits-a-chain-keeps-recent-and-never-loses-the-user-message', () => {
    fc.assert(
      fc.property(
        fc.array(exchange, { maxLength: 8 }),
        text,
        fc.array(chain, { maxLength: 6 }),
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 0, max: 8 }),
        (exchanges, question, chains, maxChars, minRecent) => {
          const history = exchanges.flat();
          const userMessage: Message = { role: 'user', content: question };
          const turn = [userMessage, ...chains.flat()];
          const all = [...history, ...turn];
          const result = trimToBudget({
            system: 'sys',
            history,
            turn,
            budget: { maxChars },
            minRecentMessages: minRecent,
          });

          // A contiguous newest part of the conversation (a lifted user message lies before it).
          const sent = result.messages;
          expect(sent).toEqual(all.slice(all.length - sent.length));
          // At least minRecent (or all) messages, and never an empty request.
          expect(sent.length).toBeGreaterThanOrEqual(Math.min(Math.max(minRecent, 1), all.length));
          // The user message is sent or lifted into the system prompt, never lost.
          expect(sent.includes(userMessage) || result.lastUserQuery === question).toBe(true);
          // A chain is sent whole or not at all.
          for (const c of chains) expect([0, c.length]).toContain(c.filter((m) => sent.includes(m)).length);
          // The size is what is sent: system, messages, and the `Last user query` line.
          const luq = result.lastUserQuery === undefined ? 0 : 19 + question.length;
          expect(result.size.chars).toBe(3 + luq + sent.reduce((n, m) => n + messageChars(m), 0));
          // Within budget unless the messages that must stay do not fit.
          if (!result.overBudget) expect(result.size.chars).toBeLessThanOrEqual(maxChars);
        },
      ),
      { numRuns: 500 },
    );
  });
});
