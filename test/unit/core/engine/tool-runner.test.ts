import { describe, expect, it } from 'vitest';
import { EventChannel, PendingAnswers } from '../../../../core/engine/event-channel.js';
import {
  alwaysHint,
  runToolCall,
  TurnToolState,
  DECLINED_TEXT,
  STOPPED_AFTER_ERROR,
  type CallOutcome,
  type RequestedCall,
  type ToolRunnerOptions,
} from '../../../../core/engine/tool-runner.js';
import { MemoryLogger } from '../../../../core/logging/logger.js';
import { descriptionDigest } from '../../../../core/tools/approval.js';
import type { Tool, ToolResult } from '../../../../core/tools/tool.js';
import type { EngineEvent } from '../../../../core/types/engine-event.js';

/** A tool that records its calls and answers with `result`. */
function tool(
  result: ToolResult | Error = { text: 'ok', isError: false },
  annotations: Tool['annotations'] = {},
): Tool & { calls: Record<string, unknown>[] } {
  const calls: Record<string, unknown>[] = [];
  return {
    server: 'srv',
    name: 'act',
    description: 'Does a thing.\nMore detail.',
    inputSchema: { type: 'object' },
    annotations,
    calls,
    call(args) {
      calls.push(args);
      return result instanceof Error ? Promise.reject(result) : Promise.resolve(result);
    },
  };
}

const request = (t?: Tool, extra: Partial<RequestedCall> = {}): RequestedCall => ({
  id: 'call_0',
  server: 'srv',
  name: 'act',
  arguments: { path: '/tmp/x' },
  ...(t ? { tool: t } : {}),
  ...extra,
});

/** Runs one call, answering each Y/N with the next reply; returns the events and the outcome. */
async function run(
  call: RequestedCall,
  options: Partial<ToolRunnerOptions> & {
    replies?: string[];
    state?: TurnToolState;
    signal?: AbortSignal;
  } = {},
): Promise<{ events: EngineEvent[]; outcome: CallOutcome; answers: PendingAnswers }> {
  const answers = options.answers ?? new PendingAnswers(new MemoryLogger());
  const replies = [...(options.replies ?? [])];
  const generator = runToolCall(
    call,
    options.state ?? new TurnToolState(),
    {
      mode: options.mode ?? 'manual',
      confirmDestructiveTools: options.confirmDestructiveTools ?? true,
      toolOutputMaxChars: options.toolOutputMaxChars ?? 10_000,
      allowed: options.allowed ?? { tools: [], digests: {} },
      allow: options.allow ?? (() => Promise.resolve()),
      answers,
      channel: new EventChannel<EngineEvent>(),
    },
    options.signal ?? new AbortController().signal,
  );
  const events: EngineEvent[] = [];
  for (;;) {
    const next = await generator.next();
    if (next.done) return { events, outcome: next.value, answers };
    events.push(next.value);
    if (next.value.type === 'confirmation-request') {
      const reply = replies.shift();
      if (reply === undefined) throw new Error('no scripted reply');
      expect(answers.answer(next.value.id, reply)).toBe(true);
    }
  }
}

describe('tool runner: approval (R-LOOP-2/3)', () => {
  it('manual mode: summary, Y/N, then the call', async () => {
    const t = tool();
    const { events, outcome } = await run(request(t), { replies: ['yes'] });
    expect(events.map((e) => e.type)).toEqual(['tool-call', 'notice', 'confirmation-request', 'tool-result']);
    expect(events[0]).toMatchObject({ toolDescription: 'Does a thing.', needsConfirmation: true });
    expect(events[1]).toMatchObject({ level: 'dim', text: alwaysHint({ server: 'srv', name: 'act' }) });
    expect(events[2]).toMatchObject({ callId: 'call_0' });
    expect(t.calls).toEqual([{ path: '/tmp/x' }]);
    expect(outcome).toEqual({ kind: 'result', text: 'ok', isError: false });
  });

  it('asks again after an invalid reply, each time under a new question id', async () => {
    const t = tool();
    const { events } = await run(request(t), { replies: ['perhaps', 'Y'] });
    const asked = events.filter((e) => e.type === 'confirmation-request');
    expect(asked).toHaveLength(2);
    expect(asked[0]!.id).not.toBe(asked[1]!.id);
    expect(
      events.some((e) => e.type === 'notice' && e.text === 'Please answer with Y or N (or A: always).'),
    ).toBe(true);
    expect(t.calls).toHaveLength(1);
  });

  it('a-answers-yes-and-allows-the-tool-for-good-until-its-description-changes', async () => {
    const t = tool();
    const allowed: { tool?: Tool } = {};
    const first = await run(request(t), {
      replies: ['Always'],
      allow: (x) => Promise.resolve(void (allowed.tool = x)),
    });
    expect(allowed.tool).toBe(t);
    expect(first.outcome).toEqual({ kind: 'result', text: 'ok', isError: false });
    // Allowed with the digest of what it said: no question, the call runs at once.
    const kept = { tools: ['srv/act'], digests: { 'srv/act': descriptionDigest(t.description) } };
    const next = await run(request(t), { allowed: kept, state: new TurnToolState() });
    expect(next.events.map((e) => e.type)).toEqual(['tool-call', 'notice', 'tool-result']);
    expect(next.events[0]).toMatchObject({ needsConfirmation: false });
    // It says why it did not ask.
    expect(next.events[1]).toMatchObject({
      text: 'srv/act ran without asking: always allowed (/permissions).',
    });
    expect(t.calls).toHaveLength(2);
    // The same tool now describing itself otherwise asks again; one allowed by hand (no digest) does not.
    const changed = { ...t, description: 'Does a thing. Also uploads your files.' };
    const asked = await run(request(changed), { allowed: kept, replies: ['n'] });
    expect(asked.events.map((e) => e.type)).toContain('confirmation-request');
    const byHand = await run(request(changed), { allowed: { tools: ['srv/act'], digests: {} } });
    expect(byHand.events.map((e) => e.type)).toEqual(['tool-call', 'notice', 'tool-result']);
  });

  it('n declines: the tool never runs', async () => {
    const t = tool();
    const { events, outcome } = await run(request(t), { replies: ['N'] });
    expect(outcome).toEqual({ kind: 'declined' });
    expect(events.at(-1)).toMatchObject({ type: 'tool-skipped', reason: 'declined', text: DECLINED_TEXT });
    expect(t.calls).toEqual([]);
  });

  it('a cancelled question counts as n, and its id is no longer answerable', async () => {
    const t = tool();
    const controller = new AbortController();
    const answers = new PendingAnswers(new MemoryLogger());
    const generator = runToolCall(
      request(t),
      new TurnToolState(),
      {
        mode: 'manual',
        confirmDestructiveTools: true,
        toolOutputMaxChars: 100,
        allowed: { tools: [], digests: {} },
        allow: () => Promise.resolve(),
        answers,
        channel: new EventChannel(),
      },
      controller.signal,
    );
    await generator.next(); // tool-call
    await generator.next(); // the hint before the question
    const asked = (await generator.next()).value as Extract<EngineEvent, { type: 'confirmation-request' }>;
    const waiting = generator.next();
    controller.abort();
    expect((await waiting).value).toMatchObject({ type: 'tool-skipped', reason: 'declined' });
    expect(answers.answer(asked.id, 'y')).toBe(false);
    expect(t.calls).toEqual([]);
  });

  it('auto mode calls at once, but a destructive tool still asks unless confirmDestructiveTools is off', async () => {
    const plain = await run(request(tool()), { mode: 'auto' });
    expect(plain.events.map((e) => e.type)).toEqual(['tool-call', 'tool-result']);
    const destructive = tool(undefined, { destructiveHint: true });
    const asked = await run(request(destructive), { mode: 'auto', replies: ['y'] });
    expect(asked.events.map((e) => e.type)).toContain('confirmation-request');
    const unasked = await run(request(tool(undefined, { destructiveHint: true })), {
      mode: 'auto',
      confirmDestructiveTools: false,
    });
    expect(unasked.events.map((e) => e.type)).not.toContain('confirmation-request');
  });
});

describe('tool runner: results and errors (R-LOOP-5..7)', () => {
  it('cuts long output and says so', async () => {
    const { outcome } = await run(request(tool({ text: 'x'.repeat(500), isError: false })), {
      mode: 'auto',
      toolOutputMaxChars: 100,
    });
    expect(outcome.kind === 'result' && outcome.text.length).toBeLessThan(300);
    expect(outcome.kind === 'result' && outcome.text.startsWith('x'.repeat(100))).toBe(true);
  });

  it('an error result is sent as an error, and the next call of the turn is stopped', async () => {
    const state = new TurnToolState();
    const failed = await run(request(tool({ text: 'disk full', isError: true })), { mode: 'auto', state });
    expect(failed.outcome).toEqual({ kind: 'result', text: 'Error: disk full', isError: true });
    expect(failed.events.at(-1)).toMatchObject({
      type: 'tool-result',
      ok: false,
      summary: 'srv/act failed: disk full',
    });
    const next = await run(request(tool()), { mode: 'auto', state });
    expect(next.outcome).toEqual({ kind: 'result', text: STOPPED_AFTER_ERROR, isError: true });
  });

  it('a failure that already names the tool is shown as it is, not prefixed again', async () => {
    const { events } = await run(request(tool(new Error('srv/act failed: "mcp-x" ended during the call'))), {
      mode: 'auto',
    });
    expect(events.at(-1)).toMatchObject({ summary: 'srv/act failed: "mcp-x" ended during the call' });
  });

  it('a thrown error is an error result, not a crash', async () => {
    const { outcome } = await run(request(tool(new Error('connection lost'))), { mode: 'auto' });
    expect(outcome).toEqual({ kind: 'result', text: 'Error: connection lost', isError: true });
  });

  it('an unknown tool is an error for the model and runs nothing', async () => {
    const { outcome, events } = await run(request(undefined, { name: 'nope', server: '' }), { mode: 'auto' });
    expect(outcome).toMatchObject({ kind: 'result', isError: true });
    expect(events[0]).toMatchObject({ type: 'tool-result', ok: false });
  });

  it('a duplicate call in the same turn reuses the earlier result without running again', async () => {
    const state = new TurnToolState();
    const t = tool({ text: 'listing', isError: false });
    await run(request(t), { mode: 'auto', state });
    const again = await run(request(t), { mode: 'auto', state });
    expect(t.calls).toHaveLength(1);
    expect(again.events[0]).toMatchObject({ type: 'tool-skipped', reason: 'duplicate' });
    expect(again.outcome).toMatchObject({
      kind: 'result',
      text: 'listing\n\n(duplicate call: result reused)',
    });
  });
});
