import { describe, expect, it } from 'vitest';
import { createEventBatcher, mergeDeltas, type BatchClock } from '../../../../core/host/event-batcher.js';
import type { HostEvent } from '../../../../core/host/host-event.js';

/** A clock the test advances by hand. */
function manualClock(): BatchClock & { advance(ms: number): void; pending(): number } {
  let now = 0;
  let timers: { at: number; callback: () => void; id: number }[] = [];
  let nextId = 1;
  return {
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.push({ at: now + ms, callback, id });
      return id;
    },
    clearTimeout(handle) {
      timers = timers.filter((t) => t.id !== handle);
    },
    advance(ms) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) t.callback();
    },
    pending: () => timers.length,
  };
}

describe('event batcher (R-DESK-8)', () => {
  it('sends what arrived within one frame as one batch, after the interval', () => {
    const clock = manualClock();
    const batches: number[][] = [];
    const batcher = createEventBatcher<number>({ send: (b) => batches.push(b), clock });
    batcher.push(1);
    batcher.push(2);
    clock.advance(15);
    expect(batches).toEqual([]);
    clock.advance(1);
    expect(batches).toEqual([[1, 2]]);
    batcher.push(3);
    clock.advance(16);
    expect(batches).toEqual([[1, 2], [3]]);
    expect(clock.pending()).toBe(0); // no timer while idle
  });

  it('keeps order and loses or repeats nothing in a 10,000-event burst', () => {
    const clock = manualClock();
    const received: number[] = [];
    let sends = 0;
    const batcher = createEventBatcher<number>({
      send: (b) => {
        sends++;
        received.push(...b);
      },
      clock,
    });
    for (let i = 0; i < 10_000; i++) {
      batcher.push(i);
      if (i % 700 === 0) clock.advance(16); // the model keeps streaming across frames
    }
    batcher.flush();
    expect(received).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
    expect(sends).toBeLessThan(20);
  });

  it('flush sends at once; close flushes and drops later events', () => {
    const clock = manualClock();
    const batches: string[][] = [];
    const batcher = createEventBatcher<string>({ send: (b) => batches.push(b), clock });
    batcher.push('a');
    batcher.flush();
    expect(batches).toEqual([['a']]);
    expect(clock.pending()).toBe(0);
    batcher.flush(); // nothing queued: nothing sent
    batcher.push('b');
    batcher.close();
    batcher.push('c');
    clock.advance(100);
    expect(batches).toEqual([['a'], ['b']]);
  });

  it('works on the real clock', async () => {
    const batches: number[][] = [];
    const batcher = createEventBatcher<number>({ send: (b) => batches.push(b), intervalMs: 5 });
    batcher.push(1);
    batcher.push(2);
    await new Promise((r) => setTimeout(r, 30));
    expect(batches).toEqual([[1, 2]]);
  });
});

describe('merging adjacent deltas', () => {
  it('joins adjacent text and thinking deltas, keeps everything else and the order', () => {
    const clock = { setTimeout: () => 1, clearTimeout: () => {} };
    const batches: HostEvent[][] = [];
    const batcher = createEventBatcher<HostEvent>({
      send: (b) => batches.push(b),
      clock,
      merge: mergeDeltas,
    });
    const events: HostEvent[] = [
      { type: 'thinking-delta', text: 'a' },
      { type: 'thinking-delta', text: 'b' },
      { type: 'thinking-end' },
      { type: 'text-delta', text: '안' },
      { type: 'text-delta', text: '녕' },
      { type: 'tool-result', id: 'x', ok: true, summary: 's' },
      { type: 'text-delta', text: '!' },
    ];
    for (const e of events) batcher.push(e);
    batcher.flush();
    expect(batches).toEqual([
      [
        { type: 'thinking-delta', text: 'ab' },
        { type: 'thinking-end' },
        { type: 'text-delta', text: '안녕' },
        { type: 'tool-result', id: 'x', ok: true, summary: 's' },
        { type: 'text-delta', text: '!' },
      ],
    ]);
  });
});
