import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { HacPty, plain } from '../../helpers/pty.js';
import { runHac } from '../../helpers/run-hac.js';
import { useTempDir } from '../../helpers/temp-home.js';

// Memory the user controls, in a real terminal: memory.md written by /remember and the model's remember call,
// the AGENTS.md files of the folder hac starts in, what the fake model receives, and compression with the summary
// model when the memories outgrow their share.
const tempDir = useTempDir();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const INSTRUCTION = '다음 메모리를 핵심 사실만 보존하여 50% 이하로 요약하세요. 라인 단위(`- ...`) 형식 유지.';

/** A home with hac set up on the fake; `folder` makes the folder hac starts in (the home by default). */
async function start(config: Record<string, unknown> = {}, folder?: (home: string) => string) {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  const hacHome = writeCliHome(home, fake.baseUrl, { config });
  const memory = path.join(hacHome, 'memory.md');
  const cwd = folder ? folder(home) : home;
  const open = async () => {
    const hac = new HacPty(home, [], {}, { cwd });
    cleanups.push(() => hac.kill());
    await hac.waitFor('humble-ai> ');
    return { hac, say: (line: string, until: string) => hac.say(line, until) };
  };
  const system = (n: number) => (fake.requests[n]!.body.messages[0] as { content: string }).content;
  return { fake, home, hacHome, memory, open, system };
}

/** A project folder two levels down a repository, each level with its AGENTS.md, and one above the repository. */
function project(home: string): string {
  const repo = path.join(home, 'work');
  const app = path.join(repo, 'app');
  mkdirSync(path.join(repo, '.git'), { recursive: true });
  mkdirSync(app);
  writeFileSync(path.join(home, 'AGENTS.md'), 'Outside the repository: never read.\n');
  writeFileSync(path.join(repo, 'AGENTS.md'), '# Repo rules\nIndent with tabs.\n');
  writeFileSync(path.join(app, 'AGENTS.md'), 'Run npm test before every commit.\n');
  writeFileSync(path.join(app, 'HAC.md'), 'Answer in Korean.\n');
  return app;
}

describe('memory the user controls', () => {
  it('remember-memory-forget-and-a-new-hac-sends-workspace-then-personal-memory', async () => {
    const { fake, home, memory, open, system } = await start({}, project);
    const { hac, say } = await open();
    await say('/remember I prefer metric units', 'Remembered: - I prefer metric units');
    await say('/remember 매운 음식을 좋아함', 'Remembered: - 매운 음식을 좋아함');
    expect(readFileSync(memory, 'utf8')).toBe('- I prefer metric units\n- 매운 음식을 좋아함\n');
    expect(statSync(memory).mode & 0o777).toBe(0o600);
    await say('/memory', '/forget <n> removes line n');
    const shown = plain(hac.output);
    expect(shown).toContain(' 1  - I prefer metric units');
    expect(shown).toContain(' 2  - 매운 음식을 좋아함');
    expect(shown).toContain(path.join(home, 'work', 'AGENTS.md'));
    expect(shown).toContain(path.join(home, 'work', 'app', 'HAC.md'));
    expect(shown).not.toContain('Outside the repository');
    await hac.kill();

    // A new hac in the same folder sends both memories, in seed 003's order.
    fake.reply(openaiReply.text(['Hi.']));
    const { hac: h2, say: say2 } = await open();
    await say2('hello', 'Hi.');
    const sent = system(0);
    const order = [
      'You are',
      'Current date:',
      'Workspace memory',
      'Indent with tabs.',
      'Run npm test before every commit.',
      'Answer in Korean.',
      'Personal memory',
      '- I prefer metric units',
      '- 매운 음식을 좋아함',
    ].map((part) => sent.indexOf(part));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(sent).not.toContain('Outside the repository');

    const from = plain(h2.output).length;
    await say2('/forget 1', 'Forget it? (1 to forget, 0 to keep): ');
    await h2.waitFor('Forget line 1: - I prefer metric units', { from });
    await say2('1', 'Forgot: - I prefer metric units');
    expect(readFileSync(memory, 'utf8')).toBe('- 매운 음식을 좋아함\n');
  });

  it('the-models-remember-call-is-shown-asked-and-written-only-after-yes', async () => {
    const { fake, memory, open } = await start();
    fake.reply(
      openaiReply.toolCalls([{ name: 'hac__remember', arguments: { fact: 'The user drinks green tea' } }]),
      openaiReply.text(['Noted.']),
    );
    const { hac, say } = await open();
    await say('remember that I drink green tea', 'Call now? (Y/N)');
    expect(plain(hac.output)).toContain('hac');
    expect(existsSync(memory)).toBe(false);
    await say('y', 'Noted.');
    expect(readFileSync(memory, 'utf8')).toBe('- The user drinks green tea\n');
    expect(
      fake.requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name),
    ).toContain('hac__remember');
  });

  it('memories-over-their-share-are-summarised-workspace-first-personal-kept-as-a-snapshot', async () => {
    const { fake, home, memory, open, system } = await start({ contextMaxChars: 3000 }); // share: 600 chars
    writeFileSync(path.join(home, 'AGENTS.md'), `${'- Project rule number one is long. '.repeat(20)}\n`);
    const original = Array.from({ length: 20 }, (_, i) => `- fact ${i} about the user, kept for later`).join(
      '\n',
    );
    writeFileSync(memory, `${original}\n`);
    // A summary a real model writes: every fact still there in fewer words (between a sixth and a half).
    const summary = [0, 5, 10, 15]
      .map((i) => `- facts ${i} to ${i + 4} about the user, for later`)
      .join('\n');
    fake.reply(
      openaiReply.text(['- rules: short']),
      openaiReply.text([summary]),
      openaiReply.text(['Answer.']),
    );
    const { hac, say } = await open();
    await say('hello', 'Answer.');
    const summaryRequest = (n: number) =>
      (fake.requests[n]!.body.messages.at(-1) as { content: string }).content;
    expect(summaryRequest(0).startsWith(INSTRUCTION)).toBe(true);
    expect(summaryRequest(0)).toContain('Project rule number one');
    expect(summaryRequest(1).startsWith(INSTRUCTION)).toBe(true);
    expect(summaryRequest(1)).toContain('- fact 19 about the user');
    expect(system(2)).toContain('- rules: short');
    expect(system(2)).toContain('- facts 15 to 19 about the user');
    expect(system(2)).not.toContain('fact 19');
    expect(readFileSync(`${memory}.snapshot`, 'utf8')).toBe(`${original}\n`);
    expect(readFileSync(memory, 'utf8')).toBe(`${summary}\n`);
    expect(readFileSync(path.join(home, 'AGENTS.md'), 'utf8')).toContain('Project rule number one');
    const screen = plain(hac.output);
    expect(screen).toContain('Workspace memory summarised for this run');
    expect(screen).toContain('Personal memory summarised');
  });

  it('a-summary-longer-than-the-memory-is-refused-and-memory-md-stays', async () => {
    const { fake, memory, open, system } = await start({ contextMaxChars: 1000 });
    const original = Array.from({ length: 10 }, (_, i) => `- fact ${i} about the user`).join('\n');
    writeFileSync(memory, `${original}\n`);
    fake.reply(openaiReply.text([`- ${'much longer summary '.repeat(40)}`]), openaiReply.text(['Answer.']));
    const { hac, say } = await open();
    const line = await say('hello', 'it is not at most half of the memory');
    await hac.waitFor('memory.md is unchanged, and is not summarised again until it changes.', {
      from: line,
    });
    await hac.waitFor('Answer.', { from: line });
    expect(readFileSync(memory, 'utf8')).toBe(`${original}\n`);
    expect(existsSync(`${memory}.snapshot`)).toBe(false);
    expect(system(1)).toContain('- fact 9 about the user');
  });

  it.each([
    ['a-one-line-junk-reply', 'OK, I have summarised your memory as requested.'],
    ['a-refusal', "- I can't help with summarising personal data."],
    ['a-collapse', '- the user has many facts'],
  ])('%s-never-replaces-a-400-line-memory', async (_what, reply) => {
    const { fake, memory, open, home } = await start({ contextMaxChars: 20_000 }); // share: 4,000 characters
    const original = Array.from(
      { length: 400 },
      (_, i) => `- fact ${i}: the user's project uses tool ${i}`,
    ).join('\n');
    writeFileSync(memory, `${original}\n`);
    fake.reply(openaiReply.text([reply]), openaiReply.text(['Answer.']), openaiReply.text(['Again.']));
    const { hac, say } = await open();
    const line = await say('hello', 'was refused:');
    await hac.waitFor('Answer.', { from: line });
    expect(readFileSync(memory, 'utf8')).toBe(`${original}\n`); // byte for byte
    expect(existsSync(`${memory}.snapshot`)).toBe(false);
    // Not asked again in this run while memory.md says the same.
    await say('again', 'Again.');
    expect(fake.requests).toHaveLength(3);
    // Nor in the next run, nor by `hac -p`: the refusal is remembered until memory.md changes.
    hac.write('/exit\r');
    await hac.exited;
    fake.reply(openaiReply.text(['Next run.']), openaiReply.text(['One shot.']));
    const next = await open();
    const at = await next.say('hello again', 'Next run.');
    expect(plain(next.hac.output).slice(at)).not.toContain('was refused');
    next.hac.write('/exit\r');
    await next.hac.exited;
    expect((await runHac(home, ['-p', 'quick one'])).stdout).toBe('One shot.\n');
    expect(fake.requests).toHaveLength(5);
    // Changed, it is summarised again.
    writeFileSync(memory, `${original}\n- one more fact\n`);
    fake.reply(openaiReply.text([reply]), openaiReply.text(['After the change.']));
    const changed = await runHac(home, ['-p', 'and now']);
    expect(changed.stdout).toBe('After the change.\n');
    expect(fake.requests).toHaveLength(7);
  });

  it('memory-says-when-it-was-summarised-and-restore-puts-the-original-back', async () => {
    const { fake, memory, open, system } = await start({ contextMaxChars: 3000 });
    const original = Array.from({ length: 20 }, (_, i) => `- fact ${i} about the user, kept for later`).join(
      '\n',
    );
    writeFileSync(memory, `${original}\n`);
    const summary = [0, 5, 10, 15]
      .map((i) => `- facts ${i} to ${i + 4} about the user, for later`)
      .join('\n');
    fake.reply(
      openaiReply.text([summary]),
      openaiReply.text(['Answer.']),
      openaiReply.text(['Whole again.']),
    );
    const { say } = await open();
    await say('hello', 'Answer.');
    expect(readFileSync(memory, 'utf8')).toBe(`${summary}\n`);
    await say('/memory', '/memory restore puts back the original');
    await say('/memory restore', 'memory.md is back as it was before its summary (20 lines)');
    expect(readFileSync(memory, 'utf8')).toBe(`${original}\n`);
    expect(readFileSync(`${memory}.snapshot`, 'utf8')).toBe(`${summary}\n`);
    // The restored memory goes whole with the next request, not summarised again in this run.
    await say('and now?', 'Whole again.');
    expect(fake.requests).toHaveLength(3);
    expect(system(2)).toContain('- fact 19 about the user');
  });
});
