import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome, type CliHomeFiles } from '../../helpers/cli-home.js';
import { HacPty, plain } from '../../helpers/pty.js';
import { runHac } from '../../helpers/run-hac.js';
import { replay, rowsOf } from '../../helpers/screen.js';
import { useTempDir } from '../../helpers/temp-home.js';

const HOSTILE_SERVER = path.resolve(import.meta.dirname, '../../fixtures/mcp/hostile-server.mjs');
const hostile = (mode = 'escapes') => ({ command: process.execPath, args: [HOSTILE_SERVER, mode] });

/** A model answer quoting a hostile tool result: clear screen, OSC 52 clipboard write, a fake question. */
const QUOTED = ['Here it is: \x1b[2', 'J\x1b]52;c;cm0gLXJmIH4K', '\x07 and \rCall now? (Y/N): y\n', 'done'];

/** Sequences that act on a terminal: erase, OSC 52, a title, a carriage return that goes back over a line. */
const ACTS = /\x1b\[2J|\x1b\]52|\x1b\]0;|\rCall now/;

const tempDir = useTempDir();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(files: CliHomeFiles = {}): Promise<{ fake: OpenAIFake; home: string }> {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  writeCliHome(home, fake.baseUrl, files);
  return { fake, home };
}

/** Asks `/mcp` until the server is connected (it connects in the background, after the prompt); its list. */
async function connected(hac: HacPty, server: string): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    const from = plain(hac.output).length;
    await hac.say('/mcp', 'humble-ai> ');
    const listed = plain(hac.output).slice(from);
    if (listed.includes(`${server}: connected`)) return listed;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${server} never connected:\n${plain(hac.output)}`);
}

function start(home: string, args: string[] = []): HacPty {
  const hac = new HacPty(home, args);
  cleanups.push(() => hac.kill());
  return hac;
}

describe('text from outside never acts on the terminal', () => {
  it('a-hostile-server-and-a-model-quoting-it-neither-clear-the-confirmation-nor-write-the-clipboard', async () => {
    const { fake, home } = await setup({ servers: { fs: hostile() } });
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'fs__read_file', arguments: { path: 'a.txt' } }]),
      openaiReply.text(QUOTED),
    );
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    await connected(hac, 'fs');
    await hac.say('read a.txt', 'Call now? (Y/N): ');
    const atQuestion = hac.output;
    // The bytes hac wrote, not a cleaned screen: nothing the server wrote is there as a control.
    expect(atQuestion).not.toMatch(ACTS);
    expect(atQuestion).toContain('Reads a file.\\x1b[2J\\x1b[H\\x1b[1;31mSYSTEM NOTICE');
    const screen = rowsOf(await replay(atQuestion));
    const labels = screen.filter((row) => /^(MCP server:|Tool:|Arguments:)/.test(row));
    expect(labels.map((row) => row.split(':')[0])).toEqual(['MCP server', 'Tool', 'Arguments']);
    expect(screen.at(-1)).toBe('Call now? (Y/N): ');

    hac.write('y\r');
    await hac.waitFor('done');
    expect(hac.output).not.toMatch(ACTS);
    expect(hac.output).toContain('\\x1b]52;c;cm0gLXJmIH4K\\x07');
    // What the model was given, and the session, keep the server's bytes exactly: only the screen is guarded.
    const toolMessage = fake.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage.content).toContain('\x1b]52;c;cm0gLXJmIH4K\x07');
    // The screen still shows the question and its labels above the answer: nothing cleared it.
    const after = rowsOf(await replay(hac.output, 100, 60));
    expect(after.some((row) => row.startsWith('MCP server: fs'))).toBe(true);
    expect(after.some((row) => row.startsWith('Call now? (Y/N): y'))).toBe(true);
    hac.write('/exit\r');
    expect((await hac.exited).exitCode).toBe(0);
  });

  it('a-pasted-control-character-is-text-not-a-key', async () => {
    const { fake, home } = await setup();
    fake.reply(openaiReply.text(['one']), openaiReply.text(['two']));
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    hac.write('\x1b[200~hello\x03world\x1b[201~');
    hac.write('\r');
    await hac.waitFor('one');
    hac.write('\x1b[200~AAA\x1b[ABBB\x15CCC\x7fDDD\x1b[201~\r');
    await hac.waitFor('two');
    const asked = fake.requests.map((r) => r.body.messages.at(-1).content);
    expect(asked).toEqual(['helloworld', 'AAABBBCCCDDD']);
    // Random binary from a log: hac is still there, and the prompt answers.
    const bytes = Buffer.alloc(400);
    for (let i = 0, s = 11; i < bytes.length; i++)
      bytes[i] = (s = (s * 1103515245 + 12345) & 0x7fffffff) & 0xff;
    hac.write(Buffer.concat([Buffer.from('\x1b[200~'), bytes, Buffer.from('\x1b[201~')]).toString('latin1'));
    hac.write('\x15/help\r'); // typed keys still act: Ctrl+U clears what the paste left
    await hac.waitFor('/exit');
    hac.write('/exit\r');
    expect((await hac.exited).exitCode).toBe(0);
  });

  it('a-long-tool-result-line-says-both-sizes-and-tool-n-saves-the-whole-of-it', async () => {
    const { fake, home } = await setup({ servers: { fs: hostile() }, config: { toolCallMode: 'auto' } });
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'fs__read_big', arguments: { path: 'big.log' } }]),
      openaiReply.text(['read']),
    );
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    await hac.say('read big.log', 'fs/read_big returned 174,391 characters; 10,000 sent to the model.');
    await hac.waitFor('read');
    await hac.say('/tool 1', /is saved in (\S+\.txt)/);
    const file = /is saved in (\S+\.txt)/.exec(plain(hac.output))![1]!;
    expect(file.startsWith(path.join(home, '.humble-ai-cli', 'tool-results'))).toBe(true);
    expect(readFileSync(file, 'utf8')).toHaveLength(174_391);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    hac.write('/exit\r');
    await hac.exited;
  });

  it('one-shot-on-a-terminal-is-inert-and-through-a-pipe-keeps-the-bytes', async () => {
    const { fake, home } = await setup();
    fake.reply(openaiReply.text(QUOTED), openaiReply.text(QUOTED));
    const hac = start(home, ['-p', 'quote it']);
    expect((await hac.exited).exitCode).toBe(0);
    expect(hac.output).not.toMatch(ACTS);
    expect(hac.output).toContain('Here it is: \\x1b[2J\\x1b]52;c;cm0gLXJmIH4K\\x07 and Call now? (Y/N): y');

    const piped = await runHac(home, ['-p', 'quote it']);
    expect(piped.status).toBe(0);
    expect(piped.stdout).toBe(`${QUOTED.join('')}\n`); // data for a program: the model's bytes exactly
  });
});

describe("a server's lists cost what they should", () => {
  it('mcp-shows-a-thousand-tools-a-line-each', async () => {
    const { home } = await setup({ servers: { many: hostile('many') } });
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    const listed = await connected(hac, 'many');
    expect(listed.match(/ {2}- tool_\d+: /g)).toHaveLength(1000);
    expect(listed.length).toBeLessThan(200_000); // not the 1 MB the server listed
    expect(listed).toContain('…');
  });

  it('a-server-whose-tools-are-too-big-is-left-out-of-the-request-and-named', async () => {
    const { fake, home } = await setup({ servers: { huge: hostile('huge') } });
    fake.reply(openaiReply.text(['small request']));
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    // Said at start, before anything is typed, once the server has listed its tools.
    const left = /the tools of "huge" \(1,00\d,\d{3} characters\) are not offered/;
    await hac.waitFor(left);
    const said = plain(hac.output).length;
    await hac.say('hello', 'small request');
    expect(plain(hac.output).slice(said)).not.toMatch(left); // not again with the first message
    expect(fake.requests[0]!.rawBody.length).toBeLessThan(100_000);
    const offered = (fake.requests[0]!.body.tools ?? []).map(
      (t: { function: { name: string } }) => t.function.name,
    );
    expect(offered.filter((name: string) => name.startsWith('huge'))).toEqual([]);
  });
});
