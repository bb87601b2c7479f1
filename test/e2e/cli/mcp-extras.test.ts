import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { HacPty, plain } from '../../helpers/pty.js';
import { runHac } from '../../helpers/run-hac.js';
import { useTempDir } from '../../helpers/temp-home.js';

// What MCP servers offer besides tools, from outside: a server's form asked field by field in a real terminal
// (Korean text, a wrong number asked again, Escape, Ctrl+C), a page to open, prompts and resources, a list that
// changes, and a one-shot run that cannot ask. The fake LLM's requests show what reached the model.
const root = path.resolve(import.meta.dirname, '../../..');
const askServer = path.join(root, 'test/fixtures/mcp/ask-server.mjs');
const everything = path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const tempDir = useTempDir();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const ESC = '\x1b';
const CTRL_C = '\x03';

async function start(extraServers: Record<string, unknown> = {}) {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  const servers = { ask: { command: process.execPath, args: [askServer] }, ...extraServers };
  const hacHome = writeCliHome(home, fake.baseUrl, { servers, config: { toolCallMode: 'auto' } });
  // The "browser": records the links it is asked to open.
  const browser = path.join(home, 'browser.sh');
  writeFileSync(browser, `#!/bin/sh\necho "$1" >> "${path.join(home, 'opened.txt')}"\n`);
  chmodSync(browser, 0o755);
  const hac = new HacPty(home, [], { BROWSER: browser });
  cleanups.push(() => hac.kill());
  await hac.waitFor('humble-ai> ');
  return { fake, home, hacHome, hac };
}

/** The text of the tool result the model got in request `n`. */
function toolResult(fake: Awaited<ReturnType<typeof startOpenAIFake>>, n: number): string {
  const messages = fake.requests[n]!.body.messages as { role: string; content: string }[];
  return messages.findLast((m) => m.role === 'tool')!.content;
}

const bookTable = openaiReply.toolCalls([{ id: 'c1', name: 'ask__book_table', arguments: {} }]);

describe('MCP servers that ask, prompts and resources, in the terminal', () => {
  it('a-form-is-asked-field-by-field-checked-and-sent-with-a-secret-never-written', async () => {
    const { fake, hac, hacHome } = await start();
    fake.reply(bookTable, openaiReply.text(['Your table is booked.']));
    hac.write('book a table\r');
    await hac.waitFor('MCP server "ask" asks: Details for your booking');
    await hac.waitFor('Name (at least 2 characters, required): ');
    await hac.type('x', '\r');
    await hac.waitFor('Give at least 2 characters.');
    await hac.type('김민수', '\r');
    const party = await hac.waitFor('Party size (a whole number, 1 to 12, required) [2]: ');
    await hac.type('lots', '\r');
    await hac.waitFor('"lots" is not a number.', { from: party });
    await hac.waitFor('Party size', { from: party + 30 });
    await hac.type('4', '\r');
    await hac.waitFor('Date (a date, YYYY-MM-DD, required): ');
    await hac.type('2026-12-24', '\r');
    await hac.waitFor('  2) Terrace');
    await hac.waitFor('Seating (a number, optional) [Indoors]: ');
    await hac.type('2', '\r');
    await hac.waitFor('  3) High chair');
    await hac.type('1, 2', '\r');
    await hac.waitFor('Newsletter (y/n, optional) [n]: ');
    await hac.type('\r');
    await hac.waitFor('Member code (optional): ');
    const code = await hac.waitFor('Member code (optional): ');
    await hac.type('club-secret-77', '\r');
    // Typed as dots: the server marked it write-only.
    await hac.waitFor('Member code (optional): ••••••••••••••\n', { from: code });
    await hac.waitFor(
      'Sent to MCP server "ask": Name: 김민수, Party size: 4, Date: 2026-12-24, Seating: Terrace, Extras: Birthday cake, Wine pairing, Newsletter: n, Member code: (hidden).',
    );
    await hac.waitFor('Your table is booked.');
    expect(toolResult(fake, 1)).toBe(
      'Booked: {"name":"김민수","party":4,"date":"2026-12-24","seating":"out","extras":["cake","wine"],"newsletter":false}; member code given.',
    );
    hac.write('/exit\r');
    await hac.exited;
    // Neither the screen nor any file of hac's holds the secret.
    expect(plain(hac.output)).not.toContain('club-secret-77');
    const sessions = path.join(hacHome, 'sessions');
    const files = [
      ...readdirSync(sessions).map((f) => path.join(sessions, f)),
      ...readdirSync(path.join(hacHome, 'logs')).map((f) => path.join(hacHome, 'logs', f)),
      path.join(hacHome, 'history'),
    ];
    for (const file of files) expect(readFileSync(file, 'utf8')).not.toContain('club-secret-77');
    expect(readFileSync(path.join(hacHome, 'history'), 'utf8')).not.toContain('김민수');
  });

  it('escape-declines-ctrl-c-cancels-and-a-page-is-opened-and-confirmed', async () => {
    const { fake, hac, home } = await start();
    fake.reply(bookTable, openaiReply.text(['Declined, fine.']));
    hac.write('book\r');
    await hac.waitFor('Name (at least 2 characters, required): ');
    hac.write(ESC);
    await hac.waitFor('Declined what MCP server "ask" asked.');
    await hac.waitFor('Declined, fine.');
    expect(toolResult(fake, 1)).toBe('Booking declined by the user.');

    fake.reply(bookTable, openaiReply.text(['Cancelled, fine.']));
    const mark = plain(hac.output).length;
    hac.write('book again\r');
    await hac.waitFor('Name (at least 2 characters, required): ', { from: mark });
    hac.write(CTRL_C);
    await hac.waitFor('Cancelled what MCP server "ask" asked.', { from: mark });
    await hac.waitFor('Cancelled, fine.', { from: mark });
    expect(toolResult(fake, 3)).toBe('Booking cancelled by the user.');

    fake.reply(
      openaiReply.toolCalls([{ id: 'c2', name: 'ask__connect_account', arguments: {} }]),
      openaiReply.text(['Connected.']),
    );
    hac.write('connect my account\r');
    await hac.waitFor('MCP server "ask" asks you to open a page: Connect your account');
    await hac.waitFor('https://accounts.example.com/connect?session=42\n  host: accounts.example.com');
    await hac.waitFor('Open this page in your browser? (Y/N): ');
    hac.write('y\r');
    await hac.waitFor('Press Enter once you are done on that page (n declines): ');
    hac.write('\r');
    await hac.waitFor('Connected.');
    expect(toolResult(fake, 5)).toBe('Account connection: accept.');
    expect(readFileSync(path.join(home, 'opened.txt'), 'utf8')).toBe(
      'https://accounts.example.com/connect?session=42\n',
    );
  });

  it('prompts-are-listed-completed-and-sent-and-resources-are-attached-with-at-server-uri', async () => {
    const { fake, hac } = await start({
      everything: { command: process.execPath, args: [everything, 'stdio'] },
    });
    hac.write('/prompts\r');
    await hac.waitFor('ask:trip — Plans a trip to a city');
    await hac.waitFor('    city (required): Where to');
    await hac.waitFor('everything:simple-prompt');
    // Tab completes the prompt's name; the missing argument is asked, with the server's suggestions.
    hac.write('/prompt ask:tr\t');
    await hac.waitFor('/prompt ask:trip');
    fake.reply(openaiReply.text(['Busan it is.']));
    hac.write(' days=2\r');
    await hac.waitFor('  3) Busan');
    await hac.waitFor('city (Where to): ');
    hac.write('3\r');
    await hac.waitFor('Sending prompt ask:trip:\nPlan a 2-day trip to Busan.');
    await hac.waitFor('Busan it is.');
    const sent = fake.requests[0]!.body.messages.at(-1) as { content: string };
    expect(sent.content).toBe('Plan a 2-day trip to Busan.');

    hac.write('/resources\r');
    await hac.waitFor("@ask:menu://today — Today's menu, text/markdown");
    await hac.waitFor('@ask:menu://dish/{name} — One dish, text/plain, template');
    await hac.waitFor('@everything:demo://resource/static/document/');
    fake.reply(openaiReply.text(['Bibimbap and soup.']));
    hac.write('what is on @ask:menu://today and @everything:demo://resource/static/document/features.md?\r');
    await hac.waitFor('Attached ask:menu://today');
    await hac.waitFor('Bibimbap and soup.');
    const asked = (fake.requests[1]!.body.messages.at(-1) as { content: string }).content;
    expect(asked).toContain('what is on menu://today and demo://resource/static/document/features.md?');
    expect(asked).toContain(
      '[Resource ask:menu://today, text/markdown]\n# Menu\n- 비빔밥 (bibimbap)\n- Soup\n[End of resource]',
    );
    expect(asked).toMatch(
      /\[Resource everything:demo:\/\/resource\/static\/document\/features\.md, text\/markdown\]\n#/,
    );
  });

  it('the-everything-servers-form-takes-a-korean-name-and-every-default-with-enter', async () => {
    const { fake, hac } = await start({
      everything: { command: process.execPath, args: [everything, 'stdio'] },
    });
    fake.reply(
      openaiReply.toolCalls([{ id: 'c4', name: 'everything__trigger-elicitation-request', arguments: {} }]),
      openaiReply.text(['Thanks.']),
    );
    hac.write('/prompts\r'); // waits for the servers (its form tool comes with a list change)
    await hac.waitFor('everything:simple-prompt');
    hac.write('fill the form\r');
    await hac.waitFor('MCP server "everything" asks: Please provide inputs for the following fields:');
    await hac.waitFor('String (required): ');
    await hac.type('이지은', '\r');
    const titles = [
      'Boolean',
      'String with default',
      'String with email format',
      'String with uri format',
      'String with date format',
      'Integer',
      'Number in range 1-1000',
      'Untitled Single Select Enum',
      'Untitled Multiple Select Enum',
      'Titled Single Select Enum',
      'Titled Multiple Select Enum',
      'Legacy Titled Single Select Enum',
    ];
    let from = 0;
    for (const title of titles) {
      from = await hac.waitFor(new RegExp(`^${title} \\([^\\n]*: $`, 'm'), { from });
      await hac.type('\r');
    }
    await hac.waitFor('Thanks.');
    const result = toolResult(fake, 1);
    expect(result).toContain('- Name: 이지은');
    expect(result).toContain('- Favorite Integer: 42');
    expect(result).toMatch(/"titledMultipleSelectEnum": \[\s*"fish-1"\s*\]/);
  });

  it('a-list-that-changes-is-picked-up-between-turns-and-mcp-shows-the-new-counts', async () => {
    const { fake, hac } = await start();
    hac.write('/prompts\r'); // waits for the servers
    await hac.waitFor('ask:trip');
    hac.write('/mcp\r');
    await hac.waitFor('  1 prompt (/prompts), 2 resources (/resources)');
    fake.reply(
      openaiReply.toolCalls([{ id: 'c3', name: 'ask__add_more', arguments: {} }]),
      openaiReply.text(['Added.']),
      openaiReply.text(['Sure.']),
    );
    hac.write('add more\r');
    await hac.waitFor('Added.');
    const mark = plain(hac.output).length;
    hac.write('/mcp\r');
    await hac.waitFor('  2 prompts (/prompts), 3 resources (/resources)', { from: mark });
    await hac.waitFor('  - extra_tool_1: Extra tool 1', { from: mark });
    hac.write('next\r');
    await hac.waitFor('Sure.', { from: mark });
    const tools = (fake.requests[2]!.body.tools as { function: { name: string } }[]).map(
      (t) => t.function.name,
    );
    expect(tools).toContain('ask__extra_tool_1');
  });

  it('a-one-shot-run-declines-what-a-server-asks-in-one-line-naming-it', async () => {
    const fake = await startOpenAIFake();
    cleanups.push(() => fake.close());
    const home = tempDir();
    writeCliHome(home, fake.baseUrl, { servers: { ask: { command: process.execPath, args: [askServer] } } });
    fake.reply(bookTable, openaiReply.text(['Could not book.']));
    const result = await runHac(home, ['-p', 'book a table', '--yes']);
    expect(result.stdout).toBe('Could not book.\n');
    const lines = result.stderr.split('\n').filter((l) => l.includes('"ask"'));
    expect(lines).toEqual([
      'MCP server "ask" asked for input; declined: nobody can answer in a one-shot run.',
    ]);
    expect(toolResult(fake, 1)).toBe('Booking declined by the user.');
  });
});
