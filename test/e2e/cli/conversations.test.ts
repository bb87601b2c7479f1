import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { HacPty, plain } from '../../helpers/pty.js';
import { replay, rowsOf } from '../../helpers/screen.js';
import { useTempDir } from '../../helpers/temp-home.js';

// Conversations you can find, name, remove, take away and redo, in a real terminal; the files on disk and the
// requests the fake model gets show what happened.
const tempDir = useTempDir();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start() {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  const second = {
    name: 'second-model',
    model: 'gpt-second',
    provider: 'openai',
    apiKey: 'sk-e2e-secret-123456',
    baseUrl: fake.baseUrl,
  };
  const hacHome = writeCliHome(home, fake.baseUrl, {
    moreModels: [second],
    servers: { tools: testServerEntry() },
    config: { toolCallMode: 'auto' },
  });
  const hac = new HacPty(home);
  cleanups.push(() => hac.kill());
  await hac.waitFor('humble-ai> ');
  const sessions = path.join(hacHome, 'sessions');
  const files = () => readdirSync(sessions).filter((f) => f.endsWith('.json'));
  const say = (line: string, until: string) => hac.say(line, until);
  const lastUser = (n: number) => (fake.requests[n]!.body.messages.at(-1) as { content: string }).content;
  return { fake, home, hac, sessions, files, say, lastUser };
}

describe('conversations: find, name, remove, take away, redo', () => {
  it('a-search-finds-korean-inside-words-and-resume-counts-in-its-results', async () => {
    const { fake, hac, say, lastUser } = await start();
    fake.reply(openaiReply.text(['맑음.']), openaiReply.text(['Fine.']), openaiReply.text(['Again.']));
    await say('서울날씨 알려줘', '맑음.');
    await say('/new', 'Started a new session.');
    await say('Review the DATABASE query', 'Fine.');
    await say('/sessions 날씨', 'Use /resume');
    await hac.waitFor('Sessions with "날씨", newest first:');
    await hac.waitFor('  1) ');
    await hac.waitFor('서울날씨 알려줘  (2 messages)');
    await say('/sessions database QUERY', 'Review the DATABASE query');
    await say('/sessions 날씨', 'Use /resume');
    await say('/resume 1', 'Resumed "서울날씨 알려줘" (2 messages).');
    await say('and tomorrow?', 'Again.');
    expect(fake.requests[2]!.body.messages.map((m: { content: string }) => m.content)).toContain('맑음.');
    expect(lastUser(2)).toBe('and tomorrow?');
  });

  it('resume-without-a-number-offers-the-latest-and-a-resumed-session-is-drawn-again', async () => {
    const { fake, hac, say } = await start();
    fake.reply(
      openaiReply.text(['서울은 맑고 18도입니다.\n내일은 비가 옵니다.']),
      openaiReply.text(['Fine.']),
    );
    await say('서울날씨 알려줘', '내일은 비가 옵니다.');
    await say('/new', 'Started a new session.');
    await say('Review the DATABASE query', 'Fine.');
    await say('/resume', 'Resume which? (Enter keeps this conversation): ');
    await hac.waitFor('  1) ');
    await hac.waitFor('  2) ');
    const from = plain(hac.output).length;
    await say('2', 'Resumed "서울날씨 알려줘" (2 messages).');
    // The conversation is drawn again as it was, then the line that says it was resumed.
    await hac.waitFor(
      'humble-ai> 서울날씨 알려줘\n서울은 맑고 18도입니다.\n내일은 비가 옵니다.\nResumed "서울날씨 알려줘" (2 messages).',
      { from },
    );
    await say('/resume', 'Resume which?');
    await say('', 'Kept this conversation.');
  });

  it('rename-moves-the-file-delete-asks-and-keeps-it-in-the-trash', async () => {
    const { fake, files, sessions, say } = await start();
    fake.reply(openaiReply.text(['Hi.']));
    await say('hello there', 'Hi.');
    await expect.poll(() => files()).toHaveLength(1); // written once the answer is shown
    const before = files()[0]!;
    await say('/rename 여행 계획', 'Renamed this session "여행 계획"');
    const after = files()[0]!;
    expect(files()).toHaveLength(1);
    expect(after).toBe(`${before.slice(0, 15)}_여행_계획.json`);
    expect(JSON.parse(readFileSync(path.join(sessions, after), 'utf8')).title).toBe('여행 계획');
    await say('/sessions', '여행 계획  (2 messages)');
    await say('/delete 1', 'Delete it? (1 to delete, 0 to keep): ');
    await say('0', 'Kept.');
    expect(files()).toEqual([after]);
    await say('/delete 1', 'Delete it?');
    await say('1', 'It was this conversation: a new session starts with your next message.');
    expect(files()).toEqual([]);
    expect(readdirSync(path.join(sessions, '.trash'))).toEqual([after]);
  });

  it('export-writes-markdown-with-tool-calls-and-json-and-asks-before-replacing', async () => {
    const { fake, home, say, hac } = await start();
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'tools__echo', arguments: { text: '안녕', times: 2 } }]),
      openaiReply.thinking(['Let me think.'], ['**Done**: the answer.']),
    );
    await say('explain it', 'the answer.');
    await say('/export', 'Exported this conversation to');
    const md = readdirSync(home).find((f) => f.endsWith('.md'))!;
    const text = readFileSync(path.join(home, md), 'utf8');
    expect(text).toContain('## 1. You');
    expect(text).toContain('explain it');
    expect(text).toContain('<details><summary>Thinking</summary>\n\nLet me think.\n\n</details>');
    expect(text).toContain('**Done**: the answer.');
    expect(text).toContain(
      '**Tool call** `tools/echo`\n\n```json\n{\n  "text": "안녕",\n  "times": 2\n}\n```',
    );
    expect(text).toMatch(/<details><summary>Result<\/summary>\n\n```\n안녕/);
    await say(`/export json out.json`, 'Exported this conversation to');
    expect(JSON.parse(readFileSync(path.join(home, 'out.json'), 'utf8')).messages).toHaveLength(2);
    await say('/export', 'exists.');
    await hac.waitFor('Replace it? (1 to replace, 0 to keep it): ');
    await say('0', 'Not exported.');
  });

  it('exports-are-inert-markdown-names-every-control-and-json-keeps-them-escaped', async () => {
    const { fake, home, say } = await start();
    // What the screen blocked: clear it, set the title, write `rm -rf ~ # pwned clipboard` to the clipboard, C1, RLO.
    const hostile =
      'Safe\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b]52;c;cm0gLXJmIH4gIyBwd25lZCBjbGlwYm9hcmQ=\x07\u009b2J\u202etxt.exe end';
    fake.reply(openaiReply.text([hostile]));
    await say('show me', 'Safe');
    await say('/export md hostile.md', 'Exported this conversation to');
    await say('/export json hostile.json', 'Exported this conversation to');
    const md = readFileSync(path.join(home, 'hostile.md'), 'utf8');
    expect(md).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    expect(md).toContain(
      'Safe\\x1b[2J\\x1b[H\\x1b]0;pwned\\x07\\x1b]52;c;cm0gLXJmIH4gIyBwd25lZCBjbGlwYm9hcmQ=\\x07\\x9b2J\\u202etxt.exe end',
    );
    const json = readFileSync(path.join(home, 'hostile.json'), 'utf8');
    expect(json).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    // The same data for a program: the answer exactly as the model wrote it.
    expect(JSON.parse(json).messages[1].content).toBe(hostile);
  });

  it('retry-edit-and-rewind-take-back-exchanges-from-the-context-and-the-file', async () => {
    const { fake, sessions, files, say, lastUser, hac } = await start();
    fake.reply(
      openaiReply.text(['One.']),
      openaiReply.text(['Two.']),
      openaiReply.text(['Two, again.']),
      openaiReply.unauthorized(),
      openaiReply.text(['Two, from the second model.']),
      openaiReply.text(['Edited.']),
    );
    const stored = () =>
      JSON.parse(readFileSync(path.join(sessions, files()[0]!), 'utf8')).messages.map(
        (m: { content: string }) => m.content,
      );
    await say('first', 'One.');
    await say('second', 'Two.');
    await say('/retry', 'Two, again.');
    expect(lastUser(2)).toBe('second');
    // The retried answer replaced the old one: the model saw each exchange once.
    expect(fake.requests[2]!.body.messages.filter((m: { content: string }) => m.content === 'Two.')).toEqual(
      [],
    );
    // A retry that gets no answer keeps the answer it was to replace, in the context and the file.
    await say('/retry', 'No new answer: the last one is kept.');
    await expect.poll(stored).toEqual(['first', 'One.', 'second', 'Two, again.']);
    await say('/retry second-model', 'Two, from the second model.');
    expect(fake.requests[4]!.body.messages.map((m: { content: string }) => m.content)).not.toContain(
      'Two, again.',
    );
    expect(fake.requests[4]!.body.model).toBe('gpt-second');
    await say('/edit', 'change it and press Enter to send it again.');
    await hac.waitFor('humble-ai> second');
    hac.write(' (edited)\r');
    await hac.waitFor('Edited.');
    expect(lastUser(5)).toBe('second (edited)');
    await expect.poll(stored).toEqual(['first', 'One.', 'second (edited)', 'Edited.']);
    await say('/rewind', '"second (edited)" → "Edited."');
    // A stray word is asked again, never taken for "keep"; y does it.
    await say('sure', 'Please answer 1 (or y) to go ahead, 0 (or n) to keep things as they are.');
    await say('y', 'Took back the last exchange.');
    expect(stored()).toEqual(['first', 'One.']);
    expect(existsSync(path.join(sessions, files()[0]!))).toBe(true);
    await say('/rewind', '"first" → "One."');
    await say('no', 'Nothing changed.');
    expect(stored()).toEqual(['first', 'One.']);
    // The only exchange taken back: no empty session stays in the list, the file waits in the trash.
    const name = files()[0]!;
    await say('/rewind', '"first" → "One."');
    await say('yes', 'Took back the last exchange.');
    expect(files()).toEqual([]);
    expect(existsSync(path.join(sessions, '.trash', name))).toBe(true);
    await say('/sessions', 'No saved sessions yet.');
  });
});

describe('nothing the user typed is lost', () => {
  const stored = (sessions: string, file: string) =>
    JSON.parse(readFileSync(path.join(sessions, file), 'utf8')).messages as {
      role: string;
      content: string;
      status?: string;
    }[];

  it('a-declined-call-keeps-the-question-and-the-model-learns-what-was-declined', async () => {
    const { fake, hac, files, sessions, say } = await start();
    fake.reply(
      // A destructive tool asks even in auto mode.
      openaiReply.toolCalls([{ id: 'c1', name: 'tools__delete-everything', arguments: { path: 'x.txt' } }]),
      openaiReply.text(['Then I leave it.']),
    );
    await say('clean up x.txt', 'Call now? (Y/N): ');
    await say('n', 'MCP call cancelled by user.');
    expect(existsSync(sessions) ? files() : []).toEqual([]); // no answer in this session yet: nothing on disk
    await say('no, keep it instead', 'Then I leave it.');
    const asked = fake.requests[1]!.body.messages.slice(1) as { role: string; content: string }[];
    expect(asked.map((m) => m.content)).toEqual([
      'clean up x.txt',
      '[I proposed calling the tool tools/delete-everything with {"path":"x.txt"}; the user declined, so it did not run.]',
      'no, keep it instead',
    ]);
    await expect.poll(() => files().length).toBe(1);
    expect(stored(sessions, files()[0]!).map((m) => [m.content.slice(0, 14), m.status])).toEqual([
      ['clean up x.txt', undefined],
      ['[I proposed ca', 'declined'],
      ['no, keep it in', undefined],
      ['Then I leave i', undefined],
    ]);
    hac.write('/exit\r');
    await hac.exited;
  });

  it('a-cancelled-answer-keeps-the-question-and-the-text-shown-marked-as-cut-off', async () => {
    const { fake, hac, files, sessions, say } = await start();
    fake.reply(
      openaiReply.text(['Hello.']),
      openaiReply.answer({ text: ['The first half of a long '], end: 'stall' }),
      openaiReply.text(['Going on.']),
    );
    await say('hi', 'Hello.');
    await say('tell me a long story', 'The first half of a long');
    hac.write('\x03');
    await hac.waitFor('Response cancelled.');
    // Written at once: the session has a file already.
    await expect
      .poll(() => stored(sessions, files()[0]!).map((m) => m.status ?? m.content))
      .toEqual(['hi', 'Hello.', 'tell me a long story', 'cancelled']);
    expect(stored(sessions, files()[0]!)[3]!.content).toBe(
      'The first half of a long\n\n[cancelled by the user]',
    );
    await say('go on', 'Going on.');
    const asked = fake.requests[2]!.body.messages.map((m: { content: string }) => m.content);
    expect(asked).toContain('The first half of a long\n\n[cancelled by the user]');
    hac.write('/exit\r');
    await hac.exited;
  });

  it('kill-9-mid-answer-keeps-the-question-and-a-resumed-retry-answers-it', async () => {
    const { fake, home, hac, files, sessions, say } = await start();
    fake.reply(openaiReply.text(['Hello.']), openaiReply.answer({ text: ['Half an answer '], end: 'stall' }));
    await say('hi', 'Hello.');
    await say('a question worth keeping', 'Half an answer');
    // The question is on disk, whole, while its answer streams: nothing hac does after this moment is needed.
    await expect
      .poll(() => stored(sessions, files()[0]!).map((m) => m.status ?? m.content))
      .toEqual(['hi', 'Hello.', 'a question worth keeping', 'failed']);
    hac.pty.kill('SIGKILL');
    await hac.exited;
    fake.reply(openaiReply.text(['The kept question, answered.']));
    const again = new HacPty(home, ['--resume']);
    cleanups.push(() => again.kill());
    await again.waitFor(
      'humble-ai> a question worth keeping\n[no answer: hac stopped before the answer came; /retry asks again]',
    );
    await again.waitFor('Its last question has no answer yet: /retry answers it.');
    const from = await again.waitFor('humble-ai> ');
    again.write('/retry\r');
    await again.waitFor('The kept question, answered.', { from });
    expect(fake.requests.at(-1)!.body.messages.at(-1).content).toBe('a question worth keeping');
    await expect
      .poll(() => stored(sessions, files()[0]!).map((m) => m.content))
      .toEqual(['hi', 'Hello.', 'a question worth keeping', 'The kept question, answered.']);
    expect(files()).toHaveLength(1);
    again.write('/exit\r');
    await again.exited;
  });

  it('ctrl-c-at-the-prompt-exits-and-keeps-the-draft-in-the-history-for-up', async () => {
    const { hac, home } = await start();
    await hac.type(...'a half-written 질문'.split(''));
    hac.write('\x03');
    expect((await hac.exited).exitCode).toBe(0);
    const history = path.join(home, '.humble-ai-cli', 'history');
    expect(readFileSync(history, 'utf8')).toBe('a half-written 질문\n');
    const again = new HacPty(home);
    cleanups.push(() => again.kill());
    const at = await again.waitFor('humble-ai> ');
    again.write('\x1b[A'); // Up
    await again.waitFor('humble-ai> a half-written 질문', { from: at });
    again.write('\x15\x03'); // cleared, then Ctrl+C: nothing new to keep
    await again.exited;
    expect(readFileSync(history, 'utf8')).toBe('a half-written 질문\n');
  });

  it('retry-after-a-failed-turn-answers-that-question-not-the-one-before-it', async () => {
    const { fake, hac, files, sessions, say } = await start();
    fake.reply(
      openaiReply.text(['Answered e429.']),
      openaiReply.error(400, { message: 'the connection dropped' }),
      openaiReply.text(['Answered the cut test.']),
    );
    await say('e429 please', 'Answered e429.');
    await say('cut-test please', 'the connection dropped');
    await expect
      .poll(() => stored(sessions, files()[0]!).map((m) => m.status ?? m.content))
      .toEqual(['e429 please', 'Answered e429.', 'cut-test please', 'failed']);
    await say('/retry', 'Answered the cut test.');
    await hac.waitFor('Asking again: "cut-test please"');
    expect(fake.requests[2]!.body.messages.at(-1).content).toBe('cut-test please');
    await expect
      .poll(() => stored(sessions, files()[0]!).map((m) => m.content))
      .toEqual(['e429 please', 'Answered e429.', 'cut-test please', 'Answered the cut test.']);
    hac.write('/exit\r');
    await hac.exited;
  });

  it('edit-gives-back-a-slash-message-exactly-as-typed', async () => {
    const { fake, hac, say, lastUser } = await start();
    fake.reply(openaiReply.text(['About /x.']), openaiReply.text(['About /x again.']));
    await say('//x slash message', 'About /x.');
    expect(lastUser(0)).toBe('/x slash message');
    await say('/edit', 'change it and press Enter to send it again.');
    await hac.waitFor('humble-ai> //x slash message');
    hac.write('\r');
    await hac.waitFor('About /x again.');
    expect(lastUser(1)).toBe('/x slash message');
    expect(hac.output).not.toContain('Unknown command');
    hac.write('/exit\r');
    await hac.exited;
  });
});

describe('typing and pasting long text', () => {
  /** 2,543 lines, about 200 KB: a log someone pastes to ask about. */
  const LOG = Array.from(
    { length: 2543 },
    (_, i) => `${String(i).padStart(5)} INFO request served in 12 ms ${'·'.repeat(40)}`,
  ).join('\n');

  it('alt-enter-ctrl-j-and-a-trailing-backslash-type-line-breaks-and-enter-sends', async () => {
    const { fake, hac, lastUser } = await start();
    fake.reply(openaiReply.text(['Three lines.']));
    await hac.type('o', 'n', 'e');
    hac.write('\x1b\r'); // Alt+Enter
    await hac.waitFor('one␤');
    await hac.type('t', 'w', 'o', '\n'); // Ctrl+J
    await hac.waitFor('one␤two␤');
    await hac.type('t', 'h', 'r', 'e', 'e', '\\');
    hac.write('\r'); // Enter after a backslash
    await hac.waitFor('one␤two␤three␤');
    hac.write('four\r');
    await hac.waitFor('Three lines.');
    expect(lastUser(0)).toBe('one\ntwo\nthree\nfour');
    hac.write('/exit\r');
    await hac.exited;
  });

  it('a-line-break-typed-where-the-line-wraps-leaves-no-stale-copy-of-the-line', async () => {
    const { fake, hac, lastUser } = await start();
    fake.reply(openaiReply.text(['Two lines.']));
    // Typed quickly (one chunk, as a fast typist or tmux sends it): the line wraps onto a second row of 100.
    const long = 'word '.repeat(19) + 'end';
    hac.write(`${long}\\`);
    await hac.waitFor('end\\');
    hac.write('\r'); // Enter after a backslash: a line break, the backslash taken away
    await hac.waitFor('end␤');
    hac.write('\x7f'); // and Backspace redraws the line from its first row
    await expect.poll(async () => rowsOf(await replay(hac.output)).at(-1)).toMatch(/word end$/);
    const rows = rowsOf(await replay(hac.output));
    expect(rows.filter((row) => row.startsWith('humble-ai> word'))).toHaveLength(1);
    hac.write(' more\r');
    await hac.waitFor('Two lines.');
    expect(lastUser(0)).toBe(`${long} more`);
    hac.write('/exit\r');
    await hac.exited;
  });

  it('a-200-kb-paste-is-one-folded-line-sent-whole-kept-short-in-history-and-warned-about', async () => {
    const { fake, hac, home, lastUser } = await start();
    fake.reply(openaiReply.text(['A long log.']));
    const before = hac.output.length;
    hac.write(`Why so slow? \x1b[200~${LOG}\x1b[201~`);
    await hac.waitFor(/Why so slow\? \[Pasted text: 2,543 lines, \d+ KB\]/);
    expect(hac.output.length - before).toBeLessThan(2_000); // one line drawn, not 1,600 rows
    hac.write('\r');
    await hac.waitFor('more than the whole context budget (80,000, contextMaxChars)');
    await hac.waitFor('A long log.');
    expect(lastUser(0)).toBe(`Why so slow? ${LOG}`);
    hac.write('/exit\r');
    await hac.exited;
    const history = readFileSync(path.join(home, '.humble-ai-cli', 'history'), 'utf8');
    expect(history).toContain('Why so slow? [Pasted text: 2,543 lines');
    expect(history.length).toBeLessThan(1_000);
  });
});

describe('export says what it cannot do', () => {
  it('an-unknown-format-and-a-missing-folder-are-refused-in-one-line', async () => {
    const { fake, home, say } = await start();
    fake.reply(openaiReply.text(['Exportable.']));
    await say('something to keep', 'Exportable.');
    await say('/export pdf', 'Unknown export format "pdf": use md or json');
    expect(existsSync(path.join(home, 'pdf'))).toBe(false);
    const missing = path.join(home, 'no-such-folder', 'chat.md');
    await say(`/export md ${missing}`, `Not exported: ${path.dirname(missing)} does not exist`);
    expect(existsSync(missing)).toBe(false);
    await say('/export md chat.md', 'Exported this conversation to');
    expect(readFileSync(path.join(home, 'chat.md'), 'utf8')).toContain('Exportable.');
  });
});
