import { describe, expect, it } from 'vitest';
import { CallControl, StalledStreamError } from '../../../../core/providers/timeouts.js';
import type { Timers } from '../../../../core/providers/chat-model-options.js';
import { fakeModelConfig } from '../../../fakes/model-config.js';

/** A manual clock: `advance` fires due timers in order. */
class ManualTimers implements Timers {
  private time = 0;
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 1;
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, callback, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.callback();
    }
    this.time = end;
  }
}

const context = { model: fakeModelConfig('openai', 'http://x/v1'), configFile: '/c/config.json' };

function control(caller = new AbortController().signal) {
  const timers = new ManualTimers();
  return { timers, control: new CallControl(caller, { firstByteMs: 1000, idleMs: 500, timers, context }) };
}

describe('CallControl (R-PROV-5)', () => {
  it('aborts-with-timeout-when-no-first-data-arrives', () => {
    const { timers, control: c } = control();
    timers.advance(999);
    expect(c.signal.aborted).toBe(false);
    timers.advance(1);
    expect(c.signal.aborted).toBe(true);
    expect(c.abortError()?.message).toBe(
      'No response from gpt-4o within 1 s (firstByteTimeoutMs in /c/config.json).',
    );
  });

  it('aborts-as-stalled-after-an-idle-gap-while-waiting', () => {
    const { timers, control: c } = control();
    c.gotData();
    c.waiting();
    timers.advance(499);
    expect(c.signal.aborted).toBe(false);
    timers.advance(1);
    expect(c.abortError()).toBeInstanceOf(StalledStreamError);
    expect(c.abortError()?.message).toBe(
      'The model stopped responding (no data for 0.5 s); the partial answer was kept.',
    );
  });

  it('does-not-count-time-the-consumer-holds-a-part', () => {
    const { timers, control: c } = control();
    c.gotData();
    timers.advance(5_000); // consumer busy: not waiting
    c.waiting();
    timers.advance(400);
    expect(c.signal.aborted).toBe(false);
    c.gotData();
    c.waiting();
    timers.advance(499);
    expect(c.signal.aborted).toBe(false);
    timers.advance(1);
    expect(c.signal.aborted).toBe(true);
  });

  it('a-caller-abort-is-cancelled', () => {
    const caller = new AbortController();
    const { control: c } = control(caller.signal);
    caller.abort();
    expect(c.signal.aborted).toBe(true);
    expect(c.abortError()?.code).toBe('cancelled');
  });

  it('dispose-of-an-unfinished-call-aborts-it-without-an-error', () => {
    const { timers, control: c } = control();
    c.dispose(false);
    expect(c.signal.aborted).toBe(true);
    expect(c.abortError()).toBeUndefined();
    timers.advance(10_000);
    expect(c.abortError()).toBeUndefined();
  });
});
