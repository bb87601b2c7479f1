import { afterEach, describe, expect, it } from 'vitest';
import { ollamaReply, startOllamaFake } from '../../fakes/ollama-fake.js';
import { answerText, EngineHarness, status, testServerEntry } from '../../helpers/engine-harness.js';

// R-PARSE-2 (issue 16, in part): answers that show JSON naming a tool are text. Each is streamed through the
// Ollama fake in uneven chunks; nothing may run (no tool-call event, no tool message, no second request), nothing
// may be answered with an error, and the screen shows the text as written.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** `text` cut into pieces of 1, 2, 3, 5, 8… characters, so every key and brace is split somewhere. */
function unevenChunks(text: string): string[] {
  const sizes = [1, 2, 3, 5, 8, 13];
  const chunks: string[] = [];
  for (let at = 0, i = 0; at < text.length; i++) {
    const size = sizes[i % sizes.length]!;
    chunks.push(text.slice(at, at + size));
    at += size;
  }
  return chunks;
}

const NOT_CALLS: [string, string][] = [
  [
    'a tool definition shown to the user',
    'The echo tool is defined as:\n{"name": "echo", "description": "Echoes the text back.", "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}\nIt takes one argument.',
  ],
  [
    'an object naming a tool without arguments',
    'An Elasticsearch filter looks like this:\n{"name": "echo", "type": "shingle", "max_shingle_size": 3}\nUse it in the analyzer.',
  ],
  [
    'the FUNCTION_CALL template quoted back',
    'I call tools in this format:\n{\n\t"server": "server name",\n\t"name": "function name",\n\t"arguments": {\n\t  "arg1 name": "argument1 value",\n\t  "arg2 name": "argument2 value",\n\t}\n}\nTell me what to run.',
  ],
];

describe('JSON that names a tool but is not a call (R-PARSE-2)', () => {
  for (const [what, text] of NOT_CALLS) {
    it(`${what.replaceAll(' ', '-')}-is-shown-and-never-run`, async () => {
      const fake = await startOllamaFake();
      cleanups.push(() => fake.close());
      const h = await EngineHarness.start({
        model: { name: 'qwen3', provider: 'ollama', baseUrl: fake.baseUrl },
        config: { toolCallMode: 'auto' },
        servers: { tools: testServerEntry() },
      });
      cleanups.push(() => h.close());
      fake.reply(ollamaReply.text(unevenChunks(text)));
      const events = await h.turn('show me');
      expect(events.filter((e) => e.type === 'tool-call' || e.type === 'tool-result')).toEqual([]);
      expect(answerText(events)).toBe(text);
      expect(fake.requests).toHaveLength(1);
      expect(status(events)).toBe('answered');
    });
  }
});

describe('a prompt-mode call cut off by the end of the stream (R-PARSE-8)', () => {
  it('is-never-repaired-into-a-run-and-says-so', async () => {
    const fake = await startOllamaFake();
    cleanups.push(() => fake.close());
    const h = await EngineHarness.start({
      model: { name: 'qwen3', provider: 'ollama', baseUrl: fake.baseUrl },
      config: { toolCallMode: 'auto' },
      servers: { tools: testServerEntry() },
    });
    cleanups.push(() => h.close());
    const cut =
      'Running it.\n{"server": "tools", "name": "echo", "arguments": {"text": "rm -rf /important/di';
    fake.reply(ollamaReply.text(unevenChunks(cut)));
    const events = await h.turn('do it');
    expect(events.filter((e) => e.type === 'tool-call' || e.type === 'tool-result')).toEqual([]);
    expect(JSON.stringify(events)).toContain("The model's tool call was cut off; it was not run.");
    expect(fake.requests).toHaveLength(1);
  });
});
