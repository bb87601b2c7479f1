import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicReply, startAnthropicFake, type AnthropicFake } from '../../fakes/anthropic-fake.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { HacPty } from '../../helpers/pty.js';
import { runHac } from '../../helpers/run-hac.js';
import { useTempDir } from '../../helpers/temp-home.js';

// Claude through the whole CLI (issue 20, R-PROV-7): one-shot and REPL against a loopback Messages API.
const KEY = 'sk-ant-e2e-0123456789';
const tempDir = useTempDir();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(
  entry: Record<string, unknown> = {},
  options: { tools?: boolean; models?: string[] } = {},
) {
  const fake = await startAnthropicFake({ apiKey: KEY, models: options.models });
  cleanups.push(() => fake.close());
  const home = tempDir();
  const hacHome = path.join(home, '.humble-ai-cli');
  mkdirSync(hacHome);
  const model = {
    name: 'claude-sonnet-4-6',
    provider: 'anthropic',
    apiKey: '${ANTHROPIC_API_KEY}',
    baseUrl: fake.baseUrl,
    active: true,
    ...entry,
  };
  writeFileSync(path.join(hacHome, 'config.json'), JSON.stringify({ models: [model] }, null, 2));
  if (options.tools)
    writeFileSync(
      path.join(hacHome, 'mcp-servers.json'),
      JSON.stringify({ mcpServers: { tools: testServerEntry() } }),
    );
  const env = { ANTHROPIC_API_KEY: KEY };
  return { fake, home, hacHome, env };
}

const sessionText = (hacHome: string) =>
  readdirSync(path.join(hacHome, 'sessions'))
    .map((f) => readFileSync(path.join(hacHome, 'sessions', f), 'utf8'))
    .join('\n');

function userMessages(fake: AnthropicFake, request: number) {
  return (fake.requests[request]!.body.messages as { role: string; content: { type: string }[] }[]).filter(
    (m) => m.role === 'user',
  );
}

describe('hac with a Claude model', () => {
  it('streams-thinking-between-its-markers-then-the-answer', async () => {
    const { fake, home, env } = await setup({ think: true });
    fake.reply(
      anthropicReply.answer({
        blocks: [
          { type: 'thinking', chunks: ['Simple', ' greeting.'], signature: 'sig-x' },
          { type: 'text', chunks: ['Hello', ' from Claude.'] },
        ],
      }),
    );
    const result = await runHac(home, ['-p', '--verbose', 'hi'], { env });
    expect(result.stdout).toBe('Hello from Claude.\n');
    expect(result.stderr).toMatch(/<<< Thinking >>>\s*Simple greeting\.\s*<<< End Thinking >>>/);
    expect(result.status).toBe(0);
    expect(fake.requests[0]!.body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
  });

  it('a-tool-round-of-two-parallel-calls-answered-in-one-user-message-with-the-thinking-sent-back-and-never-saved', async () => {
    const { fake, home, hacHome, env } = await setup({ think: true }, { tools: true });
    fake.reply(
      anthropicReply.answer({
        blocks: [
          { type: 'thinking', chunks: ['Echo twice.'], signature: 'sig-secret-signature' },
          { type: 'tool_use', id: 'toolu_a', name: 'tools__echo', json: '{"text": "one"}', splitEvery: 2 },
          { type: 'tool_use', id: 'toolu_b', name: 'tools__echo', json: '{"text": "two"}', splitEvery: 7 },
        ],
      }),
      anthropicReply.text(['Both echoed.']),
    );
    const result = await runHac(home, ['-p', 'echo one and two', '--yes'], { env });
    expect(result.stdout).toBe('Both echoed.\n');
    const [, assistant, results] = fake.requests[1]!.body.messages as { role: string; content: unknown[] }[];
    expect(assistant!.content[0]).toEqual({
      type: 'thinking',
      thinking: 'Echo twice.',
      signature: 'sig-secret-signature',
    });
    expect(results).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_a', content: 'one' },
        { type: 'tool_result', tool_use_id: 'toolu_b', content: 'two' },
      ],
    });
    expect(sessionText(hacHome)).toContain('Both echoed.');
    expect(sessionText(hacHome)).not.toContain('sig-secret-signature');
  });

  it('a-failing-tool-is-an-is-error-result-and-the-model-explains', async () => {
    const { fake, home, env } = await setup({}, { tools: true });
    fake.reply(
      anthropicReply.answer({
        blocks: [
          { type: 'tool_use', id: 'toolu_f', name: 'tools__fail', json: '{"message": "disk on fire"}' },
        ],
      }),
      anthropicReply.text(['The tool failed: disk on fire.']),
    );
    const result = await runHac(home, ['-p', 'try it', '--yes'], { env });
    expect(result.stdout).toBe('The tool failed: disk on fire.\n');
    const [results] = userMessages(fake, 1).slice(-1);
    expect(results!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_f', content: 'Error: disk on fire', is_error: true },
    ]);
  });

  it('overloaded-529-is-retried-a-bad-key-and-a-mid-stream-overload-end-with-exit-1', async () => {
    const { fake, home, env } = await setup();
    fake.reply(anthropicReply.error(529, 'overloaded_error', 'Overloaded'), anthropicReply.text(['Back.']));
    const retried = await runHac(home, ['-p', 'hi'], { env });
    expect(retried.stdout).toBe('Back.\n');
    expect(retried.stderr).toMatch(/Anthropic is overloaded \(HTTP 529\): Overloaded; retrying/);

    const wrongKey = await runHac(home, ['-p', 'hi'], { env: { ANTHROPIC_API_KEY: 'sk-ant-wrong-key-9' } });
    expect(wrongKey.status).toBe(1);
    expect(wrongKey.stderr).toContain('Authentication failed for claude-sonnet-4-6: check apiKey in');
    expect(wrongKey.stderr).not.toContain('sk-ant-wrong-key-9');

    fake.reply(
      anthropicReply.answer({
        blocks: [{ type: 'text', chunks: ['Half an'] }],
        errorEvent: { type: 'overloaded_error', message: 'Overloaded' },
      }),
    );
    const midStream = await runHac(home, ['-p', 'hi', '--output', 'jsonl'], { env });
    expect(midStream.status).toBe(1);
    const events = midStream.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; text?: string; message?: string });
    expect(events.filter((e) => e.type === 'text-delta').map((e) => e.text)).toEqual(['Half an']);
    expect(events.find((e) => e.type === 'error')?.message).toBe('Anthropic is overloaded: Overloaded');
  });

  it('prompt-mode-works-for-claude-tools-in-the-system-prompt-and-the-call-parsed-from-the-text', async () => {
    const { fake, home, env } = await setup({ toolMode: 'prompt' }, { tools: true });
    const call = JSON.stringify({ server: 'tools', name: 'echo', arguments: { text: 'from text' } });
    fake.reply(
      anthropicReply.text(['Calling.\n', call.slice(0, 9), call.slice(9)]),
      anthropicReply.text(['Echoed.']),
    );
    const result = await runHac(home, ['-p', 'echo it', '--yes'], { env });
    expect(result.stdout).toContain('Echoed.');
    expect(result.stdout).not.toContain('"arguments"');
    const first = fake.requests[0]!.body;
    expect(first).not.toHaveProperty('tools');
    expect(first.system).toContain('echo');
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain('from text');
  });

  it('the-repl-streams-and-set-model-lists-the-accounts-claude-models-and-adds-one', async () => {
    const { fake, home, hacHome, env } = await setup(
      {},
      { models: ['claude-sonnet-4-6', 'claude-opus-4-7'] },
    );
    fake.reply(anthropicReply.text(['Hi', ' there.']));
    const hac = new HacPty(home, [], env);
    cleanups.push(() => hac.kill());
    await hac.waitFor('humble-ai> ');
    hac.write('hello\r');
    const answer = await hac.waitFor('Hi there.');
    await hac.waitFor('humble-ai> ', { from: answer });
    hac.write('/set-model\r');
    await hac.waitFor('2) claude-opus-4-7 (anthropic, not in config)');
    hac.write('2\r');
    await hac.waitFor('Active model set to claude-opus-4-7 (anthropic).');
    hac.write('/exit\r');
    await hac.exited;
    const config = JSON.parse(readFileSync(path.join(hacHome, 'config.json'), 'utf8')) as {
      models: unknown[];
    };
    expect(config.models[1]).toEqual({
      name: 'claude-opus-4-7',
      provider: 'anthropic',
      baseUrl: fake.baseUrl,
      apiKey: '${ANTHROPIC_API_KEY}',
      active: true,
    });
  });
});
