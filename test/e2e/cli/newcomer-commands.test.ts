import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { HacPty, plain } from '../../helpers/pty.js';
import { useTempDir } from '../../helpers/temp-home.js';

// The commands a Claude Code, codex or gemini-cli user types first, in a real terminal against the fake model.
const tempDir = useTempDir();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start() {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  const hacHome = writeCliHome(home, fake.baseUrl, {
    moreModels: [
      { name: 'other', provider: 'openai', apiKey: 'sk-e2e-secret-123456', baseUrl: fake.baseUrl },
    ],
  });
  const hac = new HacPty(home);
  cleanups.push(() => hac.kill());
  await hac.waitFor('humble-ai> ');
  return { fake, hac, hacHome, say: (line: string, until: string) => hac.say(line, until) };
}

describe('commands people bring from other clients', () => {
  it('clear-model-cost-and-q-are-hacs-own-and-a-typo-names-the-nearest', async () => {
    const { fake, hac, say } = await start();
    fake.reply(openaiReply.text(['One.']), openaiReply.text(['Fresh.']));
    await say('first', 'One.');
    await say('/clear', 'Started a new session.');
    await say('second', 'Fresh.');
    // A new session: the model did not get the first exchange.
    expect(fake.requests[1]!.body.messages.map((m: { content: string }) => m.content)).not.toContain('One.');
    await say('/modle', 'Unknown command: /modle. Did you mean /model?');
    await say('/model', 'Choice (0 keeps the current model): ');
    await say('2', 'Active model set to other (openai).');
    await say('/cost', 'The last request filled');
    await say('/help', '/compact');
    await hac.waitFor('Also: /clear (/new), /model (/set-model), /quit or /q (/exit), /cost (/usage)');
    hac.write('/q\r');
    expect((await hac.exited).exitCode).toBe(0);
  });

  it('compact-summarises-all-but-the-last-exchange-now-shows-it-and-the-next-request-carries-it', async () => {
    const { fake, say, hacHome } = await start();
    fake.reply(
      openaiReply.text(['Seoul is 12°C.']),
      openaiReply.text(['Busan is 15°C.']),
      openaiReply.text(['Tokyo is 9°C.']),
      openaiReply.text(['- asked the weather in Seoul (12°C) and Busan (15°C)']),
      openaiReply.text(['Osaka is 10°C.']),
    );
    await say('weather in Seoul, please, with as much detail as you have', 'Seoul is 12°C.');
    await say('and in Busan, please, with as much detail as you have', 'Busan is 15°C.');
    await say('and in Tokyo?', 'Tokyo is 9°C.');
    await say('/compact', '- asked the weather in Seoul (12°C) and Busan (15°C)');
    const summaryRequest = fake.requests[3]!.body.messages as { role: string; content: string }[];
    expect(summaryRequest[0]!.content).toMatch(/^Summarise the following conversation/);
    expect(summaryRequest[1]!.content).toContain('weather in Seoul');
    expect(summaryRequest[1]!.content).not.toContain('Tokyo');
    await say('and Osaka?', 'Osaka is 10°C.');
    const sent = fake.requests[4]!.body.messages.map((m: { content: string }) => m.content) as string[];
    expect(
      sent.some((c) => c.includes('Summary of earlier conversation: - asked the weather in Seoul')),
    ).toBe(true);
    expect(sent).not.toContain('Seoul is 12°C.');
    expect(sent).toEqual(expect.arrayContaining(['and in Tokyo?', 'Tokyo is 9°C.', 'and Osaka?']));
    const sessions = path.join(hacHome, 'sessions');
    const file = readdirSync(sessions).find((f) => f.endsWith('.json'))!;
    const saved = JSON.parse(readFileSync(path.join(sessions, file), 'utf8'));
    expect(saved.summaries).toEqual([expect.objectContaining({ covers: 4 })]);
  });

  it('a-lone-esc-stops-a-streaming-answer-and-an-alt-key-does-not', async () => {
    const { fake, hac, say } = await start();
    fake.reply(
      openaiReply.answer({ text: ['A long answer begins '], end: 'stall' }),
      openaiReply.answer({ text: ['Another long answer '], end: 'stall' }),
    );
    await say('tell me everything', 'A long answer begins');
    hac.write('\x1b');
    await hac.waitFor('Response cancelled.');
    const at = await hac.waitFor('humble-ai> ', { from: plain(hac.output).indexOf('Response cancelled.') });
    hac.write('and more\r');
    await hac.waitFor('Another long answer', { from: at });
    // Alt+B (Escape and a key in one write) is a key for the prompt, not a cancel.
    hac.write('\x1bb');
    await new Promise((r) => setTimeout(r, 300));
    expect(plain(hac.output).slice(at)).not.toContain('Response cancelled.');
    hac.write('\x03');
    await hac.waitFor('Response cancelled.', { from: at });
  });

  it('at-path-attaches-a-text-file-and-refuses-a-binary-or-too-large-one-in-words', async () => {
    const fake = await startOpenAIFake();
    cleanups.push(() => fake.close());
    const home = tempDir();
    writeCliHome(home, fake.baseUrl);
    const project = path.join(home, 'project');
    mkdirSync(path.join(project, 'notes'), { recursive: true });
    writeFileSync(path.join(project, 'notes', 'readme.txt'), '# 설정\nport = 8080\n```not a fence end\n');
    writeFileSync(path.join(project, 'logo.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01, 0xff]));
    writeFileSync(path.join(project, 'huge.log'), 'x'.repeat(150_000));
    const hac = new HacPty(home, [], {}, { cwd: project });
    cleanups.push(() => hac.kill());
    await hac.waitFor('humble-ai> ');
    fake.reply(openaiReply.text(['It sets the port.']));
    // Tab completes the path after @.
    await hac.type(...'what is in @notes/re', '\t');
    await hac.waitFor('what is in @notes/readme.txt');
    hac.write('?\r');
    await hac.waitFor('Attached notes/readme.txt (36 characters).');
    await hac.waitFor('It sets the port.');
    const sent = fake.requests[0]!.body.messages.at(-1).content as string;
    expect(sent).toBe(
      'what is in @notes/readme.txt?\n\nFile notes/readme.txt:\n````\n# 설정\nport = 8080\n```not a fence end\n````',
    );
    await hac.say('and @logo.bin', 'logo.bin is not a text file: nothing was sent.');
    await hac.say(
      'and @huge.log',
      'huge.log is 150,000 bytes, more than the 100,000 a message attaches: nothing was sent.',
    );
    // @someone that is no file stays text.
    fake.reply(openaiReply.text(['Hi.']));
    await hac.say('say hi to @someone', 'Hi.');
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.body.messages.at(-1).content).toBe('say hi to @someone');
  });

  it('bang-runs-the-users-own-shell-command-shows-its-output-and-the-next-message-carries-it', async () => {
    const { fake, hac, say } = await start();
    await say(
      "!printf 'build ok: 세계\\033[2J\\n' && exit 3",
      '(exit 3; the command and its output go with your next message)',
    );
    // Its output is shown as text: the escape it printed is named, not obeyed.
    expect(plain(hac.output)).toContain('build ok: 세계\\x1b[2J');
    expect(hac.output).not.toContain('\x1b[2J');
    fake.reply(openaiReply.text(['It failed with 3.']));
    await say('why did it fail?', 'It failed with 3.');
    const sent = fake.requests[0]!.body.messages.at(-1).content as string;
    expect(sent).toBe(
      "I ran `printf 'build ok: 세계\\033[2J\\n' && exit 3` in my shell (exit code 3):\n```\nbuild ok: 세계\x1b[2J\n```\n\nwhy did it fail?",
    );
    // Carried once: the message after it is the user's alone.
    fake.reply(openaiReply.text(['Fine.']));
    await say('thanks', 'Fine.');
    expect(fake.requests[1]!.body.messages.at(-1).content).toBe('thanks');
  });

  it('toggle-mcp-switches-a-valid-server-while-another-entry-is-invalid', async () => {
    const fake = await startOpenAIFake();
    cleanups.push(() => fake.close());
    const home = tempDir();
    const hacHome = writeCliHome(home, fake.baseUrl, {
      servers: { tools: testServerEntry(), broken: { url: 5 } },
    });
    const hac = new HacPty(home);
    cleanups.push(() => hac.kill());
    await hac.waitFor('humble-ai> ');
    await hac.say('/toggle-mcp', 'Choose the MCP server to enable/disable (0 to cancel): ');
    await hac.waitFor('mcpServers.broken.url');
    await hac.waitFor('  1) tools: enabled');
    await hac.say('1', 'Server "tools" is now disabled.');
    const file = JSON.parse(readFileSync(path.join(hacHome, 'mcp-servers.json'), 'utf8'));
    expect(file.mcpServers.tools.enabled).toBe(false);
    expect(file.mcpServers.broken).toEqual({ url: 5 }); // left as the user wrote it
  });
});
