import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOllamaFake } from '../../fakes/ollama-fake.js';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { writeCliHome, type CliHomeFiles } from '../../helpers/cli-home.js';
import { HacPty, plain } from '../../helpers/pty.js';
import { useTempDir } from '../../helpers/temp-home.js';

const tempDir = useTempDir();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(files: CliHomeFiles = {}): Promise<{ fake: OpenAIFake; home: string; hacHome: string }> {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  return { fake, home, hacHome: writeCliHome(home, fake.baseUrl, files) };
}

function start(home: string, env: Record<string, string> = {}): HacPty {
  const hac = new HacPty(home, [], env);
  cleanups.push(() => hac.kill());
  return hac;
}

/** PIDs of live processes whose command line mentions `needle`. */
function processesWith(needle: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => l.includes(needle) && !l.includes('ps -eo'))
    .map((l) => l.trim().split(/\s+/)[0]!);
}

describe('hac commands in a pseudo-terminal', () => {
  it('mcp-shows-status-and-tools-and-toggle-mcp-rewrites-the-file', async () => {
    const servers = `{\n    "mcpServers": {\n        "tools": ${JSON.stringify(testServerEntry())},\n        "off": { "command": "nope", "enabled": false }\n    }\n}\n`;
    const { home, hacHome } = await setup({ servers });
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    hac.write('/mcp\r');
    await hac.waitFor(/tools: (connecting|connected)/);
    await hac.waitFor('off: disabled');
    hac.write('/toggle-mcp\r');
    await hac.waitFor('MCP servers found in mcp-servers.json:');
    await hac.waitFor('  1) tools: enabled');
    await hac.waitFor('  2) off: disabled');
    await hac.waitFor('Choose the MCP server to enable/disable (0 to cancel): ');
    hac.write('1\r');
    await hac.waitFor('Server "tools" is now disabled.');
    const file = readFileSync(path.join(hacHome, 'mcp-servers.json'), 'utf8');
    expect(JSON.parse(file).mcpServers.tools.enabled).toBe(false);
    expect(file).toContain('        "off": { "command": "nope", "enabled": false }'); // the rest as written
    hac.write('/toggle-mcp\r');
    await hac.waitFor('  1) tools: disabled');
    hac.write('0\r');
    await hac.waitFor('Toggle cancelled.');
    hac.write('/exit\r');
    expect((await hac.exited).exitCode).toBe(0);
  });

  it('two-lines-in-one-read-run-one-after-the-other-none-is-dropped', async () => {
    const { fake, home } = await setup();
    fake.reply(openaiReply.text(['first answer']));
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    hac.write('hello\r/exit\r'); // as a paste or a fast typist sends them: the second waits for the first
    await hac.waitFor('first answer');
    expect((await hac.exited).exitCode).toBe(0);
  });

  it('a-broken-mcp-servers-file-is-reported-and-chat-still-works', async () => {
    const { fake, home } = await setup({
      servers: '{"mcpServers": {"x": {"command": "a", "url": "http://b"}}}',
    });
    fake.reply(openaiReply.text(['still here']));
    const hac = start(home);
    await hac.waitFor('mcp-servers.json is not valid'); // at start, without asking (R-MCP-9)
    await hac.waitFor('hac runs without MCP tools; see /mcp.');
    await hac.waitFor('humble-ai> ');
    hac.write('hello\r');
    await hac.waitFor('still here');
    hac.write('/mcp\r');
    await hac.waitFor('mcp-servers.json is not valid');
    hac.write('/exit\r');
    expect((await hac.exited).exitCode).toBe(0);
  });

  it('one-invalid-server-entry-is-left-out-with-its-fix-and-the-others-start', async () => {
    const { home } = await setup({ servers: { tools: testServerEntry(), b: { url: 5 } } });
    const hac = start(home);
    await hac.waitFor('  - mcpServers.b.url: ');
    await hac.waitFor('Fix: Give the server address, starting with http:// or https://.');
    await hac.waitFor('Those servers are left out; the others start. See /mcp.');
    await hac.waitFor('humble-ai> ');
    // The valid server starts (it may take a moment), listed after the problem.
    await expect
      .poll(async () => {
        const from = plain(hac.output).length;
        await hac.say('/mcp', 'humble-ai> ');
        return plain(hac.output).slice(from);
      })
      .toMatch(/mcpServers\.b\.url[\s\S]*tools: connected — hac test server/);
    expect(plain(hac.output)).not.toContain('hac runs without MCP tools');
    hac.write('/exit\r');
    expect((await hac.exited).exitCode).toBe(0);
  });

  it('a-message-sent-early-waits-with-connecting-to-mcp-servers', async () => {
    const { fake, home } = await setup({ servers: { tools: testServerEntry() } });
    fake.reply(openaiReply.text(['tools ready']));
    const hac = start(home);
    hac.write('first\r'); // typed ahead, before the prompt and before the server is up
    await hac.waitFor('Connecting to MCP servers...');
    await hac.waitFor('tools ready');
    expect(
      fake.requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name),
    ).toContain('tools__echo');
    hac.write('/exit\r');
    await hac.exited;
  });

  it('ctrl-c-at-the-prompt-exits-0-and-leaves-no-mcp-child', async () => {
    const marker = `marker-${process.pid}-${Date.now()}`;
    const entry = { ...testServerEntry(), args: [...(testServerEntry().args as string[]), marker] };
    const { fake, home } = await setup({ servers: { tools: entry } });
    fake.reply(openaiReply.text(['ok']));
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    hac.write('hi\r');
    await hac.waitFor('ok');
    expect(processesWith(marker)).toHaveLength(1);
    await hac.waitFor('humble-ai> ', { from: plain(hac.output).lastIndexOf('ok') });
    hac.write('\x03');
    expect((await hac.exited).exitCode).toBe(0);
    expect(processesWith(marker)).toEqual([]);
  });

  it('sigterm-closes-mcp-and-exits-143', async () => {
    const marker = `term-${process.pid}-${Date.now()}`;
    const entry = { ...testServerEntry(), args: [...(testServerEntry().args as string[]), marker] };
    const { home } = await setup({ servers: { tools: entry } });
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    while (processesWith(marker).length === 0) await new Promise((r) => setImmediate(r));
    process.kill(hac.pty.pid, 'SIGTERM');
    expect((await hac.exited).exitCode).toBe(143);
    expect(processesWith(marker)).toEqual([]);
  });

  it('sighup-closes-and-ends-by-the-signal', async () => {
    const { home } = await setup();
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    process.kill(hac.pty.pid, 'SIGHUP');
    // After closing, hac ends by SIGHUP itself (a shell shows status 129), with the terminal restored.
    expect(await hac.exited).toMatchObject({ signal: 1 });
  });

  it('sessions-new-and-resume', async () => {
    const { fake, home } = await setup();
    fake.reply(openaiReply.text(['one']), openaiReply.text(['two']), openaiReply.text(['three']));
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    hac.write('alpha question\r');
    await hac.waitFor('one');
    hac.write('/new\r');
    await hac.waitFor('Started a new session.');
    hac.write('beta question\r');
    await hac.waitFor('two');
    hac.write('/sessions\r');
    await hac.waitFor(/1\) .*beta question .*\(2 messages\)/);
    await hac.waitFor(/2\) .*alpha question .*\(2 messages\)/);
    hac.write('/resume 2\r');
    await hac.waitFor('Resumed "alpha question" (2 messages).');
    hac.write('gamma\r');
    await hac.waitFor('three');
    const contents = fake.requests[2]!.body.messages.slice(1).map((m: { content: string }) => m.content);
    expect(contents).toEqual(['alpha question', 'one', 'gamma']);
    hac.write('/exit\r');
    await hac.exited;

    // `hac --resume` continues the newest: the one just written.
    fake.reply(openaiReply.text(['four']));
    const again = new HacPty(home, ['--resume']);
    cleanups.push(() => again.kill());
    await again.waitFor('Resumed "alpha question" (4 messages).');
    again.write('delta\r');
    await again.waitFor('four');
    expect(fake.requests[3]!.body.messages.slice(1).map((m: { content: string }) => m.content)).toEqual([
      'alpha question',
      'one',
      'gamma',
      'three',
      'delta',
    ]);
    again.write('/exit\r');
    await again.exited;
  });

  it('set-model-lists-local-ollama-models-not-in-config-and-adds-the-chosen-one', async () => {
    const ollama = await startOllamaFake({ models: ['llama3.2:latest', 'qwen3:8b'] });
    cleanups.push(() => ollama.close());
    const { home, hacHome } = await setup();
    const config = JSON.parse(readFileSync(path.join(hacHome, 'config.json'), 'utf8'));
    config.models.push({ name: 'llama3.2', provider: 'ollama', baseUrl: ollama.baseUrl });
    writeFileSync(path.join(hacHome, 'config.json'), JSON.stringify(config, null, 2));
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    hac.write('/set-model\r');
    await hac.waitFor('  2) llama3.2 (ollama)');
    await hac.waitFor('  3) qwen3:8b (ollama, not in config)');
    expect(plain(hac.output)).not.toContain('llama3.2:latest (ollama, not in config)');
    hac.write('3\r');
    await hac.waitFor('Active model set to qwen3:8b (ollama).');
    const saved = JSON.parse(readFileSync(path.join(hacHome, 'config.json'), 'utf8'));
    expect(saved.models.at(-1)).toEqual({
      name: 'qwen3:8b',
      provider: 'ollama',
      baseUrl: ollama.baseUrl,
      active: true,
    });
    expect(saved.models[0].active).toBe(false);
    hac.write('/exit\r');
    await hac.exited;
  });
});
