import { describe, expect, it } from 'vitest';
import { coalesceDeltas } from '../../../../core/engine/coalesce-deltas.js';
import type { ChatStreamPart } from '../../../../core/types/chat-stream.js';

const text = (t: string): ChatStreamPart => ({ type: 'text-delta', text: t });
const thought = (t: string): ChatStreamPart => ({ type: 'reasoning-delta', text: t });

/** A source that has all of `parts` at hand (each next() resolves at once), then ends or fails with `error`. */
function atHand(parts: ChatStreamPart[], error?: Error): AsyncIterable<ChatStreamPart> {
  let i = 0;
  return {
    [Symbol.asyncIterator]: () => ({
      next: () =>
        i < parts.length
          ? Promise.resolve({ done: false, value: parts[i++]! })
          : error
            ? Promise.reject(error)
            : Promise.resolve({ done: true, value: undefined }),
    }),
  };
}

describe('coalesceDeltas', () => {
  it('joins-the-deltas-that-arrived-together-and-keeps-everything-else-in-order', async () => {
    const source = atHand([
      thought('hm'),
      thought('m'),
      text('Hel'),
      text('lo'),
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 2 } },
      text('!'),
      { type: 'finish', reason: 'stop' },
    ]);
    const parts: ChatStreamPart[] = [];
    for await (const part of coalesceDeltas(source)) parts.push(part as ChatStreamPart);
    expect(parts).toEqual([
      thought('hmm'),
      text('Hello'),
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 2 } },
      text('!'),
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('hands-on-what-has-arrived-without-waiting-for-more', async () => {
    let release!: () => void;
    const later = new Promise<void>((resolve) => (release = resolve));
    async function* source() {
      yield text('first');
      await later;
      yield text('second');
    }
    const stream = coalesceDeltas(source());
    expect(await stream.next()).toEqual({ done: false, value: text('first') }); // `later` still pending
    release();
    expect(await stream.next()).toEqual({ done: false, value: text('second') });
    expect((await stream.next()).done).toBe(true);
  });

  it('on-a-windows-frame-clock-a-fast-stream-arrives-whole-in-order-in-a-few-batches', async () => {
    // A model streaming a delta every turn of the event loop: a terminal gets a part per turn, a window (16 ms)
    // one per animation frame, with nothing lost, repeated or reordered.
    async function* fast() {
      for (let i = 0; i < 5_000; i++) {
        yield text(`${i},`);
        if (i % 1_000 === 999) yield { type: 'usage', usage: { inputTokens: i, outputTokens: 0 } } as const;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    const read = async (batchMs: number) => {
      const parts: ChatStreamPart[] = [];
      for await (const part of coalesceDeltas(fast(), batchMs)) parts.push(part as ChatStreamPart);
      return parts;
    };
    const expected = Array.from({ length: 5_000 }, (_, i) => `${i},`).join('');
    for (const batchMs of [0, 16]) {
      const parts = await read(batchMs);
      const texts = parts.flatMap((p) => (p.type === 'text-delta' ? [p.text] : []));
      expect(texts.join('')).toBe(expected);
      expect(parts.filter((p) => p.type === 'usage').map((p) => p.usage.inputTokens)).toEqual([
        999, 1999, 2999, 3999, 4999,
      ]);
      if (batchMs === 0) expect(texts.length).toBeGreaterThan(1_000);
      else expect(texts.length).toBeLessThan(200);
    }
  });

  it('fails-after-the-parts-that-came-before-the-error', async () => {
    const source = atHand([text('partial '), text('answer')], new Error('connection lost'));
    const stream = coalesceDeltas(source);
    expect(await stream.next()).toEqual({ done: false, value: text('partial answer') });
    await expect(stream.next()).rejects.toThrow('connection lost');
  });

  it('closes-the-source-when-the-reader-stops-early', async () => {
    let closed = false;
    let yielded = 0;
    async function* source() {
      try {
        for (;;) {
          yielded++;
          yield text(String(yielded));
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      } finally {
        closed = true;
      }
    }
    // Under load "1" and "2" may come coalesced as "12": stop at whichever part holds the "2".
    for await (const part of coalesceDeltas(source())) {
      if (part.type === 'text-delta' && part.text.includes('2')) break;
    }
    await expect.poll(() => closed).toBe(true);
    expect(yielded).toBeLessThan(5); // it stopped reading, rather than draining the source
  });
});
