import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { EngineHarness, status, testServerEntry } from '../../helpers/engine-harness.js';
import type { EngineEvent } from '../../../core/types/engine-event.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function nativeMode(): Promise<{ fake: OpenAIFake; h: EngineHarness }> {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const h = await EngineHarness.start({
    model: { name: 'gpt-test', provider: 'openai', apiKey: 'sk-test-123456', baseUrl: fake.baseUrl },
    servers: { tools: testServerEntry() },
  });
  cleanups.push(() => h.close());
  return { fake, h };
}

const echoCall = () =>
  openaiReply.toolCalls([{ id: 'call_0', name: 'tools__echo', arguments: { text: 'yo' } }]);

describe('engine: answers to questions nobody is asking', () => {
  it('a late "y" to a cancelled Y/N question never approves a later call with the same provider id', async () => {
    const { fake, h } = await nativeMode();
    fake.reply(echoCall(), echoCall(), openaiReply.text(['done']));

    // Turn 1: cancelled at `Call now? (Y/N): `.
    const controller = new AbortController();
    let asked: Extract<EngineEvent, { type: 'confirmation-request' }> | undefined;
    const first: EngineEvent[] = [];
    for await (const event of h.hac.engine.run('echo yo', controller.signal)) {
      first.push(event);
      if (event.type === 'confirmation-request') {
        asked = event;
        controller.abort();
      }
    }
    expect(status(first)).toBe('declined'); // Ctrl+C at the question counts as "n" (R-LOOP-2)
    expect(asked).toBeDefined();

    // A desktop click racing Escape: the "y" arrives after the question was withdrawn.
    expect(h.hac.engine.answer(asked!.id, 'y')).toBe(false);
    expect(h.logger.text()).toMatch(/answer .* nobody is waiting for/i);

    // Turn 2: the same provider call id must be asked again, under a new question id.
    const second = await h.turn('echo yo again', ['n']);
    const confirmations = second.filter((e) => e.type === 'confirmation-request');
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]!.id).not.toBe(asked!.id);
    expect(status(second)).toBe('declined');
  });

  it('question ids are unique across engines and never taken from the provider', async () => {
    const { fake, h } = await nativeMode();
    fake.reply(echoCall(), echoCall());
    const a = await h.turn('one', ['n']);
    const b = await h.turn('two', ['n']);
    const ids = [...a, ...b].flatMap((e) => (e.type === 'confirmation-request' ? [e.id] : []));
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    expect(ids).not.toContain('call_0');
  });

  it('an answer to an unknown id is refused and not kept for later', async () => {
    const { fake, h } = await nativeMode();
    expect(h.hac.engine.answer('q999999', 'y')).toBe(false);
    fake.reply(echoCall());
    const events = await h.turn('echo', ['n']);
    expect(status(events)).toBe('declined');
  });
});
