import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ollamaReply, startOllamaFake, type OllamaFake } from '../../fakes/ollama-fake.js';
import { answerText, EngineHarness, status, testServerEntry } from '../../helpers/engine-harness.js';
import { MODEL_ANSWERS } from '../../fixtures/prompt/model-answers.js';

// Issue 16 from outside: each realistic answer (test/fixtures/prompt/model-answers.ts) streamed by the Ollama fake
// in uneven chunks to a prompt-mode model with the test MCP server, calls run without asking. Checked: what the
// MCP server answered (the `tool` messages of the follow-up carry its results, so it received exactly those
// calls), what the screen shows, and that an answer with no call leads to no second request.

let fake: OllamaFake;
let h: EngineHarness;

beforeAll(async () => {
  fake = await startOllamaFake();
  h = await EngineHarness.start({
    model: { name: 'qwen3', provider: 'ollama', baseUrl: fake.baseUrl },
    config: { toolCallMode: 'auto' },
    servers: { tools: testServerEntry() },
  });
});

// A failed case must not leave its scripted replies to the next one.
afterEach(() => fake.server.clearReplies());

afterAll(async () => {
  await h?.close();
  await fake?.close();
});

/** `text` cut into pieces of 1, 2, 3, 5, 8, 13… characters, so markers and keys are split somewhere. */
function unevenChunks(text: string): string[] {
  const sizes = [1, 2, 3, 5, 8, 13];
  const chunks: string[] = [];
  for (let at = 0, i = 0; at < text.length; i++) {
    const size = sizes[i % sizes.length] ?? 1;
    chunks.push(text.slice(at, at + size));
    at += size;
  }
  return chunks;
}

describe('realistic model answers through the Ollama fake (R-PARSE-1..8)', () => {
  for (const answer of MODEL_ANSWERS) {
    it(`${answer.family}: ${answer.what}`, async () => {
      const before = fake.requests.length;
      const calls = answer.results.length > 0;
      fake.reply(
        ollamaReply.text(unevenChunks(answer.text)),
        ...(calls ? [ollamaReply.text(['Done.'])] : []),
      );
      const events = await h.turn('go');
      const requests = fake.requests.slice(before);
      expect(fake.server.pending).toBe(0);

      expect(answerText(events)).toBe(answer.shown + (calls ? 'Done.' : ''));
      expect(status(events)).toBe('answered');
      expect(events.filter((e) => e.type === 'tool-call')).toHaveLength(
        answer.results.filter((r) => typeof r === 'string').length,
      );
      const cutNotice = JSON.stringify(events).includes("The model's tool call was cut off; it was not run.");
      expect(cutNotice).toBe(answer.cutOff ?? false);
      if (!calls) {
        expect(requests).toHaveLength(1);
        return;
      }
      expect(requests).toHaveLength(2);
      const messages = requests[1]?.body.messages as { role: string; content: string }[];
      const results = messages.slice(-answer.results.length - 1).filter((m) => m.role === 'tool');
      expect(results.map((m) => m.content)).toEqual(
        answer.results.map((r) => (typeof r === 'string' ? r : expect.stringMatching(r))),
      );
    });
  }
});
