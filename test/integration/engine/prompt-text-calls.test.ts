import { afterEach, describe, expect, it } from 'vitest';
import { ollamaReply, startOllamaFake } from '../../fakes/ollama-fake.js';
import { answerText, EngineHarness, status, testServerEntry } from '../../helpers/engine-harness.js';

// Prompt-mode calls in a model's text (issue 16, in part), each answer streamed through the Ollama fake in uneven
// chunks. R-PARSE-2: JSON that names a tool but is not a call is shown as written; nothing runs (no tool-call event,
// no tool message, no second request) and nothing is answered with an error. R-PARSE-8: a call cut off by the end
// of the stream never runs. R-PARSE-6: a call after prose on the same line runs, and the prose is kept.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A prompt-mode model on the Ollama fake, the test MCP server, calls run without asking. */
async function ollamaInAutoMode() {
  const fake = await startOllamaFake();
  cleanups.push(() => fake.close());
  const h = await EngineHarness.start({
    model: { name: 'qwen3', provider: 'ollama', baseUrl: fake.baseUrl },
    config: { toolCallMode: 'auto' },
    servers: { tools: testServerEntry() },
  });
  cleanups.push(() => h.close());
  return { fake, h };
}

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
      const { fake, h } = await ollamaInAutoMode();
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
    const { fake, h } = await ollamaInAutoMode();
    const cut =
      'Running it.\n{"server": "tools", "name": "echo", "arguments": {"text": "rm -rf /important/di';
    fake.reply(ollamaReply.text(unevenChunks(cut)));
    const events = await h.turn('do it');
    expect(events.filter((e) => e.type === 'tool-call' || e.type === 'tool-result')).toEqual([]);
    expect(JSON.stringify(events)).toContain("The model's tool call was cut off; it was not run.");
    expect(fake.requests).toHaveLength(1);
  });
});

describe('a call after prose on the same line (R-PARSE-6)', () => {
  it('runs-once-keeps-the-prose-and-never-shows-the-json', async () => {
    const { fake, h } = await ollamaInAutoMode();
    const text =
      'I will use the echo tool: {"name": "echo", "arguments": {"text": "mid-line"}} and report back.';
    fake.reply(ollamaReply.text(unevenChunks(text)), ollamaReply.text(['It echoed mid-line.']));
    const events = await h.turn('echo it');
    expect(events.filter((e) => e.type === 'tool-call')).toHaveLength(1);
    expect(answerText(events)).toBe('I will use the echo tool: and report back.It echoed mid-line.');
    const tools = (fake.requests[1]!.body.messages as { role: string; content: string }[]).filter(
      (m) => m.role === 'tool',
    );
    expect(tools).toEqual([{ role: 'tool', content: 'mid-line', tool_name: 'echo' }]);
  });
});
