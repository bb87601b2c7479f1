import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BridgeSession } from '../../../../core/host/bridge-session.js';
import type { HostEvent } from '../../../../core/types/host-event.js';
import { ControllerHarness } from '../../../helpers/controller-harness.js';

const harnesses: ControllerHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

/** A window's host side, recording each message it sends the page: a batch of events, or a call's result. */
async function window(h: ControllerHarness) {
  const sent: ({ events: HostEvent[] } | { result: unknown })[] = [];
  let exited = false;
  const session = new BridgeSession({
    runtime: () => Promise.resolve({ runtime: h.runtime }),
    history: { entries: () => Promise.resolve([]), add: () => Promise.resolve() },
    sendEvents: (events) => sent.push({ events }),
    pageOrigins: [],
    onExit: () => {
      exited = true;
      session.close(); // as the servers do: the conversation is forgotten at once
    },
  });
  await session.open();
  const call = async (text: string) =>
    sent.push({ result: await session.call({ id: 1, method: 'submit', params: { text } }) });
  return { session, sent, call, exited: () => exited };
}

describe('BridgeSession: events to the page', () => {
  it('events-that-come-together-go-as-one-message-before-the-result-of-the-call-that-caused-them', async () => {
    const h = await ControllerHarness.start();
    harnesses.push(h);
    const first = await window(h);
    for (let i = 0; i < 3; i++) {
      h.model.reply(`answer ${i}`);
      await first.call(`question ${i}`);
      // The next question once this turn is over (the status says it is no longer busy).
      await vi.waitFor(() => {
        const [status] = first.session.replay();
        expect(first.session.replay().filter((e) => e.type === 'turn-end')).toHaveLength(i + 1);
        expect(status?.type === 'status' && status.status.busy).toBe(false);
      });
    }
    await vi.waitFor(() => expect(readdirSync(h.runtime.paths.sessions)).toHaveLength(1));
    const [name] = readdirSync(h.runtime.paths.sessions);
    const other = await window(h);
    other.sent.length = 0;
    const result = await other.session.call({
      id: 2,
      method: 'manageSession',
      params: { action: 'open', name: name! },
    });
    expect(result).toBe('Opened "question 0".');
    const said = (other.sent[1] as { events: HostEvent[] }).events.flatMap((e) =>
      e.type === 'command-output' ? e.lines : [],
    );
    expect(said).toEqual(['Resumed "question 0" (6 messages).']);
    // The resumed screen (three exchanges), the line that says so and the status after it: one message.
    expect(other.sent).toHaveLength(2); // the busy status as the call starts, then all the rest
    const last = other.sent[1] as { events: HostEvent[] };
    expect(last.events.flatMap((e) => (e.type === 'input' ? [e.text] : []))).toEqual([
      'question 0',
      'question 1',
      'question 2',
    ]);
    expect(last.events.filter((e) => e.type === 'turn-end')).toHaveLength(3);
    expect(last.events.at(-1)?.type).toBe('status');
  });

  it('the-exit-of-a-conversation-that-ends-at-once-still-reaches-the-page', async () => {
    const h = await ControllerHarness.start();
    harnesses.push(h);
    const tab = await window(h);
    await tab.call('/exit');
    expect(tab.exited()).toBe(true);
    expect(tab.sent.some((m) => 'events' in m && m.events.some((e) => e.type === 'exit'))).toBe(true);
  });
});
