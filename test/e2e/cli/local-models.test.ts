import { afterEach, describe, expect, it } from 'vitest';
import { ollamaReply, startOllamaFake } from '../../fakes/ollama-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { runHac } from '../../helpers/run-hac.js';
import { useTempDir } from '../../helpers/temp-home.js';

// Local models through Ollama (prompt mode: the tools are in the system prompt, calls are read from the text),
// from outside: `hac -p` against the Ollama fake with a real stdio MCP server.
const tempDir = useTempDir('hac-local-');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Sent = { role: string; content: string; thinking?: string }[];

async function localHome(model: string) {
  const ollama = await startOllamaFake();
  cleanups.push(() => ollama.close());
  const home = tempDir();
  writeCliHome(home, 'http://127.0.0.1:9/v1', {
    moreModels: [{ name: model, provider: 'ollama', baseUrl: ollama.baseUrl }],
    servers: { tools: testServerEntry() },
    config: { toolCallMode: 'auto' },
  });
  return { ollama, home };
}

describe('local models in prompt mode', () => {
  it('a-call-worded-as-advice-runs-when-its-tool-exists-and-the-fence-is-not-shown', async () => {
    const { ollama, home } = await localHome('qwen2.5-coder:7b');
    ollama.reply(
      ollamaReply.text([
        'To echo text you can use the tools__echo tool. The call looks like this:\n\n```json\n',
        '{"name": "tools__echo", "arguments": {"text": "advice"}}\n```\n\nIt returns the text.',
      ]),
      ollamaReply.text(['The tool said advice.']),
    );
    const run = await runHac(home, ['-p', 'echo advice', '--model', 'qwen2.5-coder:7b']);
    // The advice around the call is shown, the call itself is not: it ran, and its result went to the model.
    expect(run.stdout).toContain('The call looks like this:');
    expect(run.stdout).toContain('It returns the text.');
    expect(run.stdout).toMatch(/The tool said advice\.\n$/);
    expect(run.stdout + run.stderr).not.toContain('"arguments"');
    const sent = ollama.requests[1]!.body.messages as Sent;
    expect(sent.at(-1)!.content).toContain('advice');
  });

  it('an-example-of-a-tool-not-offered-is-shown-as-text-and-nothing-is-reported', async () => {
    const { ollama, home } = await localHome('qwen2.5-coder:7b');
    const answer =
      'For example, a weather call looks like this:\n\n```json\n{"name": "get_weather", "arguments": {"city": "Seoul"}}\n```\n\nThat is the format.';
    ollama.reply(ollamaReply.text([answer]));
    const run = await runHac(home, ['-p', 'how is a call written?', '--model', 'qwen2.5-coder:7b']);
    expect(run.stdout).toBe(`${answer}\n`);
    expect(ollama.requests).toHaveLength(1);
  });

  it.each([
    [
      'an example naming a server hac does not have (a tool of that name offered elsewhere)',
      'Sure. For example, to repeat a word the call would be:\n\n```json\n{"server": "context7", "name": "echo", "arguments": {"text": "java"}}\n```\n\nI only send a block like this when I actually need the tool.',
    ],
    [
      'the OpenAI format explained to the user',
      'The model returns the function name and its arguments, like this:\n\n```json\n{"name": "get_weather", "arguments": {...}}\n```\n\nYour code then runs get_weather and sends the result back.',
    ],
  ])('%s is shown, not run nor reported', async (_what, answer) => {
    const { ollama, home } = await localHome('qwen2.5-coder:7b');
    ollama.reply(ollamaReply.text([answer.slice(0, 40), answer.slice(40, 97), answer.slice(97)]));
    const run = await runHac(home, ['-p', 'show me an example of a call', '--model', 'qwen2.5-coder:7b']);
    expect(run.stdout).toBe(`${answer}\n`);
    expect(ollama.requests).toHaveLength(1);
  });

  it('gpt-oss-gets-its-thinking-back-within-a-tool-turn-and-not-after-it', async () => {
    const { ollama, home } = await localHome('gpt-oss:20b');
    ollama.reply(
      ollamaReply.thinking(
        ['The user wants an echo; ', 'I will call tools__echo.'],
        ['{"name": "tools__echo", "arguments": {"text": "oss"}}'],
      ),
      ollamaReply.thinking(['The tool answered.'], ['It said oss.']),
      ollamaReply.text(['Again.']),
    );
    const first = await runHac(home, ['-p', 'echo oss', '--model', 'gpt-oss:20b']);
    expect(first.stdout).toMatch(/It said oss\.\n$/);
    // Within the turn: the message that called the tool comes back with its analysis.
    const followUp = ollama.requests[1]!.body.messages as Sent;
    const calling = followUp.find((m) => m.role === 'assistant')!;
    expect(calling.thinking).toBe('The user wants an echo; I will call tools__echo.');
    // The next turn (the session resumed): no thinking goes back, of either answer.
    const next = await runHac(home, ['-p', 'again', '--resume', '--model', 'gpt-oss:20b']);
    expect(next.stdout).toMatch(/Again\.\n$/);
    const later = ollama.requests[2]!.body.messages as Sent;
    expect(later.some((m) => m.role === 'assistant' && m.content.includes('It said oss.'))).toBe(true);
    expect(later.every((m) => m.thinking === undefined)).toBe(true);
  });

  it('gpt-oss-writing-harmony-tokens-as-text-gets-its-analysis-back-as-written-within-the-turn', async () => {
    // A server that does not parse harmony: the model's whole message comes as text, tokens and all.
    const { ollama, home } = await localHome('gpt-oss:20b');
    const analysis = '<|channel|>analysis<|message|>User wants an echo. Use tools__echo.<|end|>';
    const call =
      '<|start|>assistant<|channel|>commentary to=functions.tools__echo <|constrain|>json<|message|>{"text":"oss"}<|call|>';
    const message = analysis + call;
    ollama.reply(
      ollamaReply.text([message.slice(0, 25), message.slice(25, 80), message.slice(80)]),
      ollamaReply.text(['<|channel|>final<|message|>It said oss.<|return|>']),
      ollamaReply.text(['Again.']),
    );
    const first = await runHac(home, ['-p', 'echo oss', '--model', 'gpt-oss:20b']);
    expect(first.stdout).toMatch(/It said oss\.\n$/);
    const followUp = ollama.requests[1]!.body.messages as Sent;
    const calling = followUp.find((m) => m.role === 'assistant')!;
    expect(calling.content).toBe(message);
    expect(calling.thinking).toBeUndefined();
    // After the answer, the analysis is not kept: the call goes back without it.
    const next = await runHac(home, ['-p', 'again', '--resume', '--model', 'gpt-oss:20b']);
    expect(next.stdout).toMatch(/Again\.\n$/);
    const later = ollama.requests[2]!.body.messages as Sent;
    expect(later.some((m) => m.content.includes('User wants an echo'))).toBe(false);
    expect(later.every((m) => m.thinking === undefined)).toBe(true);
  });
});
