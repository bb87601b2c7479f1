import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { writeCliHome, type CliHomeFiles } from '../../helpers/cli-home.js';
import { HAC_BIN, HacPty, plain } from '../../helpers/pty.js';
import { runHac } from '../../helpers/run-hac.js';
import { useTempDir } from '../../helpers/temp-home.js';
import { replay, rowsOf } from '../../helpers/screen.js';

const tempDir = useTempDir();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(files: CliHomeFiles = {}): Promise<{ fake: OpenAIFake; home: string; hacHome: string }> {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  const other = { name: 'other', provider: 'openai', apiKey: 'sk-e2e-secret-123456', baseUrl: fake.baseUrl };
  const hacHome = writeCliHome(home, fake.baseUrl, { moreModels: [other], ...files });
  return { fake, home, hacHome };
}

function start(home: string, args: string[] = []): HacPty {
  const hac = new HacPty(home, args);
  cleanups.push(() => hac.kill());
  return hac;
}

describe('hac chat in a pseudo-terminal', () => {
  it('streams-an-answer-after-waiting-for-response', async () => {
    const { fake, home, hacHome } = await setup();
    fake.reply(openaiReply.text(['Hello', ' from', ' the fake.']));
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    hac.write('say hello\r');
    const waiting = await hac.waitFor('Waiting for response...');
    const answer = await hac.waitFor('Hello from the fake.');
    expect(answer).toBeGreaterThan(waiting);
    await hac.waitFor('humble-ai> ', { from: answer });
    hac.write('/exit\r');
    expect((await hac.exited).exitCode).toBe(0);
    expect(readdirSync(path.join(hacHome, 'sessions'))).toHaveLength(1);
    expect(fake.requests[0]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'say hello' });
  });

  it('korean-typed-with-cursor-moves-home-and-end-reaches-the-model-intact', async () => {
    const { fake, home } = await setup();
    fake.reply(openaiReply.text(['네']));
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    // Type "안녕하세요", move left twice, insert "반갑", delete and retype "갑", Home, insert "[", End, insert "]".
    await hac.type(
      ...'안녕하세요',
      '\x1b[D',
      '\x1b[D',
      ...'반갑',
      '\x7f',
      '갑',
      '\x1b[H',
      '[',
      '\x1b[F',
      ']',
      '\r',
    );
    await hac.waitFor('네');
    expect(fake.requests[0]!.body.messages.at(-1).content).toBe('[안녕하반갑세요]');
  });

  it('a-pasted-multi-line-text-is-one-message', async () => {
    const { fake, home } = await setup();
    fake.reply(openaiReply.text(['got it']));
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    hac.write('\x1b[200~first line\r\nsecond line\x1b[201~'); // what a terminal sends for a paste
    await hac.waitFor('first line␤second line');
    hac.write('\r');
    await hac.waitFor('got it');
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.body.messages.at(-1).content).toBe('first line\nsecond line');
  });

  it('ctrl-c-mid-stream-cancels-and-the-next-request-keeps-the-question-and-the-partial-answer', async () => {
    const { fake, home } = await setup();
    fake.reply(
      openaiReply.answer({ text: ['partial answer'], end: 'stall' }),
      openaiReply.text(['second answer']),
    );
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    hac.write('slow question\r');
    await hac.waitFor('partial answer');
    hac.write('\x03');
    await hac.waitFor('Response cancelled.');
    expect(await fake.requests[0]!.closed).toEqual({ byClient: true });
    const at = await hac.waitFor('humble-ai> ', { from: plain(hac.output).indexOf('Response cancelled.') });
    hac.write('next\r');
    const second = await hac.waitFor('second answer', { from: at });
    const messages = fake.requests[1]!.body.messages.slice(1) as { content: string }[];
    expect(messages.map((m) => m.content)).toEqual([
      'slow question',
      'partial answer\n\n[cancelled by the user]',
      'next',
    ]);
    await hac.waitFor('humble-ai> ', { from: second });
    hac.write('\x03');
    expect((await hac.exited).exitCode).toBe(0);
  });

  it('a-at-the-question-allows-the-tool-for-good-permissions-lists-and-removes-it', async () => {
    const { fake, home, hacHome } = await setup({ servers: { tools: testServerEntry() } });
    const echo = (id: string, text: string) =>
      openaiReply.toolCalls([{ id, name: 'tools__echo', arguments: { text } }]);
    fake.reply(
      echo('c1', 'one'),
      openaiReply.text(['echoed one']),
      echo('c2', 'two'),
      openaiReply.text(['echoed two']),
    );
    const configFile = path.join(hacHome, 'config.json');
    const before = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>;
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    hac.write('use the tool\r');
    // The question is unchanged; the line before it names the third answer.
    await hac.waitFor(
      'A: yes, and call tools/echo without asking from now on (/permissions lists and removes these).\nCall now? (Y/N): ',
    );
    hac.write('a\r');
    const first = await hac.waitFor('echoed one');
    hac.write('again\r');
    await hac.waitFor('echoed two', { from: first });
    expect(plain(hac.output).slice(first)).not.toContain('Call now?');
    // What runs without its question still says so.
    expect(plain(hac.output).slice(first)).toContain(
      'tools/echo ran without asking: always allowed (/permissions).',
    );
    const config = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>;
    // The rest of config.json as it was; the approval kept with the digest of the description it was given for.
    expect(config).toEqual({
      ...before,
      allowedTools: ['tools/echo'],
      allowedToolDigests: { 'tools/echo': expect.stringMatching(/^[0-9a-f]{16,64}$/) },
    });
    await hac.say('/permissions', '  1) tools/echo');
    await hac.say('/permissions remove 1', 'tools/echo asks again before each call.');
    fake.reply(echo('c3', 'three'));
    const removed = plain(hac.output).length;
    hac.write('once more\r');
    await hac.waitFor('Call now? (Y/N): ', { from: removed });
    hac.write('n\r');
    await hac.waitFor('MCP call cancelled by user.', { from: removed });
    hac.write('/exit\r');
    expect((await hac.exited).exitCode).toBe(0);
    const after = JSON.parse(readFileSync(path.join(hacHome, 'config.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(after).toMatchObject({ allowedTools: [], allowedToolDigests: {} });
  });

  it('a-long-tool-shows-its-progress-on-one-line-that-the-result-replaces', async () => {
    const { fake, home } = await setup({
      servers: { tools: testServerEntry() },
      config: { toolCallMode: 'auto' },
    });
    fake.reply(
      openaiReply.toolCalls([
        { id: 'c1', name: 'tools__progress', arguments: { steps: 4, intervalMs: 400 } },
      ]),
      openaiReply.text(['all done']),
    );
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    hac.write('copy everything\r');
    await hac.waitFor('tools/progress ▕█████░░░░░░░░░░░░░░░▏ 25% (1 of 4)');
    await hac.waitFor('tools/progress ▕██████████░░░░░░░░░░▏ 50% (2 of 4)');
    await hac.waitFor('all done');
    // On the screen: the result line where the progress was, no trace of the bar.
    const rows = rowsOf(await replay(hac.output)).join('\n');
    expect(rows).toContain('tools/progress returned 18 characters.');
    expect(rows).not.toContain('▕');
    hac.write('/exit\r');
    expect((await hac.exited).exitCode).toBe(0);
  });

  it('tool-call-answered-invalid-then-y-then-n', async () => {
    const { fake, home } = await setup({ servers: { tools: testServerEntry() } });
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'tools__echo', arguments: { text: 'ping' } }]),
      openaiReply.text(['echoed ping']),
      openaiReply.toolCalls([{ id: 'c2', name: 'tools__echo', arguments: { text: 'no' } }]),
    );
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    hac.write('use the tool\r');
    await hac.waitFor('Tool: echo: Echoes the text back.');
    await hac.waitFor('Call now? (Y/N): ');
    hac.write('perhaps\r');
    await hac.waitFor('Please answer with Y or N (or A: always).');
    hac.write('y\r');
    const done = await hac.waitFor('echoed ping');
    hac.write('again\r');
    await hac.waitFor('Call now? (Y/N): ', { from: done });
    hac.write('n\r');
    await hac.waitFor('MCP call cancelled by user.');
    hac.write('/exit\r');
    expect((await hac.exited).exitCode).toBe(0);
    // Y/N replies are answers, not prompts: the input history keeps only what was typed at humble-ai>.
    expect(readFileSync(path.join(home, '.humble-ai-cli', 'history'), 'utf8')).toBe(
      'use the tool\nagain\n/exit\n',
    );
  });

  it('commands-help-unknown-set-tool-mode-and-set-model', async () => {
    const { home, hacHome } = await setup();
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    hac.write('/help\r');
    await hac.waitFor('/toggle-mcp');
    hac.write('/frob\r');
    await hac.waitFor('Unknown command: /frob. Type /help for the list.');
    hac.write('/set-tool-mode sometimes\r');
    await hac.waitFor('Please enter either auto or manual.');
    hac.write('/set-tool-mode auto\r');
    await hac.waitFor('Tool call mode set to auto.');
    hac.write('/set-model\r');
    await hac.waitFor('  1) gpt-test (openai) *');
    await hac.waitFor('Choice (0 keeps the current model): ');
    hac.write('2\r');
    await hac.waitFor('Active model set to other (openai).');
    hac.write('/exit\r');
    await hac.exited;
    const config = JSON.parse(readFileSync(path.join(hacHome, 'config.json'), 'utf8'));
    expect(config.toolCallMode).toBe('auto');
    expect(config.models.map((m: { active?: boolean }) => m.active)).toEqual([false, true]);
  });
});

describe('hac -p (one-shot)', () => {
  // Asynchronous on purpose: the fake server lives in this process and must keep answering.
  const run = (home: string, args: string[], input = '') => runHac(home, args, { input });

  it('a-question-given-leaves-stdin-unread-even-when-it-is-open-and-holds-data', async () => {
    const { fake, home } = await setup();
    fake.reply(openaiReply.text(['The answer.']));
    // Under a shell that reads the rest of stdin after hac: whatever hac left unread comes out after the mark.
    const child = spawn(
      'sh',
      ['-c', `"${process.execPath}" "${HAC_BIN}" -p "what is 2+2"; echo "-- after hac: $?"; cat`],
      {
        cwd: home,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          HAC_HOME: path.join(home, '.humble-ai-cli'),
          NO_COLOR: '1',
        },
      },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    // Data waiting on stdin, which stays open: hac must neither wait for its end nor take it.
    child.stdin.write('data for the next program\n');
    await expect.poll(() => stdout, { timeout: 15_000 }).toContain('-- after hac: 0');
    child.stdin.end();
    await new Promise((resolve) => child.on('close', resolve));
    expect(stdout).toBe('The answer.\n-- after hac: 0\ndata for the next program\n');
    expect(fake.requests[0]!.body.messages.at(-1).content).toBe('what is 2+2');
  });

  it('prints-only-the-answer-and-exits-0', async () => {
    const { fake, home } = await setup();
    fake.reply(openaiReply.thinking(['hmm'], ['The answer.']), openaiReply.thinking(['hmm'], ['Again.']));
    const result = await run(home, ['-p', 'question?']);
    expect(result.stdout).toBe('The answer.\n');
    // A script's stderr is for what went wrong: no waiting line, no thinking.
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const verbose = await run(home, ['-p', '--verbose', 'question?']);
    expect(verbose.stdout).toBe('Again.\n');
    expect(verbose.stderr).toContain('Waiting for response...');
    expect(verbose.stderr).toContain('<<< Thinking >>>');
  });

  it('takes--p-as-people-type-it-options-before-the-question-or-the-question-on-stdin', async () => {
    const { fake, home } = await setup();
    const asked = async (args: string[], input = '') => {
      fake.reply(openaiReply.text(['ok']));
      const result = await run(home, args, input);
      expect(result.stderr).not.toMatch(/ambiguous|missing|Unknown/);
      expect(result).toMatchObject({ status: 0, stdout: 'ok\n' });
      return fake.requests.at(-1)!.body as { model: string; messages: { content: string }[] };
    };
    expect((await asked(['-p', '--model', 'other', 'what is this?'])).messages.at(-1)!.content).toBe(
      'what is this?',
    );
    expect((await asked(['-p', '--model', 'other', 'what is this?'])).model).toBe('other');
    expect((await asked(['-p'], 'from a pipe\n')).messages.at(-1)!.content).toBe('from a pipe\n');
    expect((await asked(['--prompt=-1 + 2?'])).messages.at(-1)!.content).toBe('-1 + 2?');
    expect((await asked(['-p', 'two', 'words'])).messages.at(-1)!.content).toBe('two words');
    // A question with no -p is not taken for one: hac says how to ask it.
    const stray = await run(home, ['what', 'is', 'this?']);
    expect(stray.status).toBe(2);
    expect(stray.stderr).toBe(
      'hac: unexpected argument "what": to ask one question, use hac -p "what is this?"\n',
    );
  });

  it('a-model-without-baseurl-goes-where-openai-base-url-points-and-an-unset-key-variable-is-named-first', async () => {
    const { fake, home } = await setup({
      moreModels: [{ name: 'proxied', provider: 'openai', apiKey: '${PROXY_KEY}' }],
    });
    fake.reply(openaiReply.text(['through the proxy']));
    const env = { OPENAI_BASE_URL: fake.baseUrl, PROXY_KEY: 'sk-proxy-7f3a9c' };
    const through = await runHac(home, ['-p', '--model', 'proxied', 'hi'], { env });
    expect(through).toMatchObject({ status: 0, stdout: 'through the proxy\n' });
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk-proxy-7f3a9c');
    const unset = await runHac(home, ['-p', '--model', 'proxied', 'hi'], {
      env: { OPENAI_BASE_URL: fake.baseUrl },
    });
    expect(unset.status).toBe(1);
    expect(unset.stderr).toContain(
      'PROXY_KEY is not set: set it in hac\'s environment, or give the key as "apiKey"',
    );
    expect(fake.requests).toHaveLength(1);
  });

  it('reads-the-question-from-stdin-and-prints-jsonl-events', async () => {
    const { fake, home } = await setup();
    fake.reply(openaiReply.text(['A', 'B']));
    const result = await run(home, ['--output', 'jsonl'], 'from stdin\n');
    const events = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // Deltas that arrive together are one event: the same kinds in a row count once.
    const kinds = events.map((e: { type: string }) => e.type);
    expect(kinds.filter((kind: string, i: number) => kind !== kinds[i - 1])).toEqual([
      'waiting',
      'text-delta',
      'turn-end',
    ]);
    expect(events.map((e: { text?: string }) => e.text ?? '').join('')).toBe('AB');
    expect(fake.requests[0]!.body.messages.at(-1).content).toBe('from stdin\n');
    expect(result.status).toBe(0);
  });

  it('a-reader-that-stops-early-ends-hac-quietly', async () => {
    const { fake, home } = await setup();
    fake.reply(openaiReply.text(Array.from({ length: 2000 }, (_, i) => `chunk ${i} `)));
    const child = spawn(process.execPath, [HAC_BIN, '-p', 'long', '--output', 'jsonl'], {
      env: { PATH: process.env.PATH, HOME: home, HAC_HOME: path.join(home, '.humble-ai-cli') },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy()); // like `| head -1`
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
  });

  it('exits-1-on-an-llm-error-2-on-a-usage-error-3-when-a-confirmation-is-needed', async () => {
    const { fake, home } = await setup({ servers: { tools: testServerEntry() } });
    fake.reply(openaiReply.unauthorized());
    expect((await run(home, ['-p', 'x'])).status).toBe(1);
    expect((await run(home, ['-p', 'x', '--model', 'nope'])).status).toBe(2);
    fake.reply(openaiReply.toolCalls([{ id: 'c1', name: 'tools__echo', arguments: { text: 'a' } }]));
    const needs = await run(home, ['-p', 'x']);
    expect(needs.status).toBe(3);
    // Says what was not run, why, and how to allow it; nothing else on stderr.
    expect(needs.stderr).toBe(
      'hac: tools/echo was not run: it needs your approval, and a one-shot run cannot ask. Allow tool calls with --yes, or set "toolCallMode": "auto" in config.json.\n',
    );
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'tools__echo', arguments: { text: 'a' } }]),
      openaiReply.text(['approved']),
    );
    const approved = await run(home, ['-p', 'x', '--yes']);
    expect(approved.stdout).toBe('approved\n');
    expect(approved.status).toBe(0);
    expect(approved.stderr).toBe(''); // no "A: yes, and call … without asking" hint in a script
  });

  it('c-continues-the-newest-session-resume-takes-a-number-or-title-words-and-m-picks-the-model', async () => {
    const { fake, home } = await setup();
    fake.reply(
      openaiReply.text(['Seoul is sunny.']),
      openaiReply.text(['Tokyo is rainy.']),
      openaiReply.text(['Still sunny.']),
      openaiReply.text(['Still rainy.']),
      openaiReply.text(['From the other model.']),
    );
    await run(home, ['-p', 'weather in Seoul']);
    await run(home, ['-p', 'weather in Tokyo']);
    const contents = (n: number) =>
      fake.requests[n]!.body.messages.map((m: { content: string }) => m.content);
    expect((await run(home, ['-p', '--resume=Seoul', 'and tomorrow?'])).stdout).toBe('Still sunny.\n');
    expect(contents(2)).toContain('Seoul is sunny.');
    expect(contents(2)).not.toContain('Tokyo is rainy.');
    // The newest conversation is the one just continued.
    expect((await run(home, ['-c', '-p', 'and the day after?'])).stdout).toBe('Still rainy.\n');
    expect(contents(3)).toEqual(
      expect.arrayContaining(['Seoul is sunny.', 'Still sunny.', 'and the day after?']),
    );
    expect((await run(home, ['-p', '-m', 'other', 'hi'])).stdout).toBe('From the other model.\n');
    expect(fake.requests[4]!.body.model).toBe('other');
  });
});

describe('hac line editing extras', () => {
  it('tab-completes-commands-and-up-recalls-history-kept-in-the-home', async () => {
    const { fake, home, hacHome } = await setup();
    fake.reply(openaiReply.text(['first answer']), openaiReply.text(['again']));
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    await hac.type(...'/he', '\t', '\r');
    await hac.waitFor('Show the commands.');
    await hac.type(...'remember me', '\r');
    await hac.waitFor('first answer');
    await hac.waitFor('humble-ai> ', { from: plain(hac.output).lastIndexOf('first answer') });
    await hac.type('/exit', '\r');
    await hac.exited;
    const { statSync } = await import('node:fs');
    const history = path.join(hacHome, 'history');
    expect(readFileSync(history, 'utf8').split('\n').filter(Boolean)).toEqual([
      '/help',
      'remember me',
      '/exit',
    ]);
    expect(statSync(history).mode & 0o777).toBe(0o600);

    const next = start(home);
    await next.waitFor('humble-ai> ');
    await next.type('\x1b[A', '\x1b[A', '\r');
    await next.waitFor('again');
    expect(fake.requests[1]!.body.messages.at(-1).content).toBe('remember me');
  });
});
