import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { HacPty } from '../../helpers/pty.js';
import { replay, rowsOf } from '../../helpers/screen.js';
import { useTempDir } from '../../helpers/temp-home.js';

const tempDir = useTempDir();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The screen as a terminal shows it. */
async function screen(hac: HacPty): Promise<string[]> {
  const term = await replay(hac.output);
  const rows = rowsOf(term);
  term.dispose();
  return rows;
}

async function setup(): Promise<{ fake: Awaited<ReturnType<typeof startOpenAIFake>>; hac: HacPty }> {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  writeCliHome(home, fake.baseUrl);
  const hac = new HacPty(home);
  cleanups.push(() => hac.kill());
  await hac.waitFor('humble-ai> ');
  return { fake, hac };
}

describe('typing ahead while an answer streams (R-TTY-1)', () => {
  it.each([
    ['Latin', 'abcdef'],
    ['Korean', '다음 질문'],
  ])(
    '%s keys are kept for the next prompt, never drawn into the answer; the next key appends',
    async (_name, typed) => {
      const { fake, hac } = await setup();
      let release!: () => void;
      const paused = new Promise<void>((resolve) => (release = resolve));
      fake.reply(
        openaiReply.text(['First line.\n', 'Second line.\n', 'Third.'], { pauseAfterFirst: paused }),
      );
      hac.write('ask\r');
      await hac.waitFor('First line.');
      hac.write(typed);
      await new Promise((r) => setTimeout(r, 200));
      release();
      const from = await hac.waitFor('Third.');
      await hac.waitFor('humble-ai> ', { from });
      await new Promise((r) => setTimeout(r, 100));
      const rows = await screen(hac);
      const asked = rows.indexOf('humble-ai> ask');
      expect(rows.slice(asked + 1)).toEqual([
        'Waiting for response...',
        'First line.',
        'Second line.',
        'Third.',
        `humble-ai> ${typed}`,
      ]);
      fake.reply(openaiReply.text(['ok']));
      hac.write('X\r');
      await expect.poll(() => fake.requests.length).toBe(2);
      expect(fake.requests[1]!.body.messages.at(-1).content).toBe(`${typed}X`);
    },
  );

  it('Enter typed during a turn sends nothing until the prompt is back; Ctrl+C still cancels at once', async () => {
    const { fake, hac } = await setup();
    fake.reply(openaiReply.text(['Working on it'], { end: 'stall' }));
    hac.write('first\r');
    await hac.waitFor('Working on it');
    hac.write('second\r');
    await new Promise((r) => setTimeout(r, 200));
    expect(fake.requests).toHaveLength(1);
    fake.reply(openaiReply.text(['Second answer.']));
    hac.write('\x03');
    await hac.waitFor('Response cancelled.');
    await hac.waitFor('Second answer.');
    expect(fake.requests.map((r) => r.body.messages.at(-1).content)).toEqual(['first', 'second']);
  });
});
