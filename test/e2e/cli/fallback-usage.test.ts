import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { HacPty, plain } from '../../helpers/pty.js';
import { useTempDir } from '../../helpers/temp-home.js';

// The fallback model and token use, in a real terminal against the fake: which model each request named, what
// the screen says, and what the session file records.
const tempDir = useTempDir();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start() {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  const backup = {
    name: 'backup',
    model: 'gpt-backup',
    provider: 'openai',
    apiKey: 'sk-e2e-secret-123456',
    baseUrl: fake.baseUrl,
  };
  const hacHome = writeCliHome(home, fake.baseUrl, {
    moreModels: [backup],
    config: { fallbackModels: ['backup'] },
  });
  const hac = new HacPty(home);
  cleanups.push(() => hac.kill());
  await hac.waitFor('humble-ai> ');
  const say = (line: string, until: string) => hac.say(line, until);
  const models = () => fake.requests.map((r) => r.body.model as string);
  const session = () => {
    const dir = path.join(hacHome, 'sessions');
    const [file] = readdirSync(dir).filter((f) => f.endsWith('.json'));
    return JSON.parse(readFileSync(path.join(dir, file!), 'utf8')) as {
      messages: { role: string; model?: string }[];
    };
  };
  return { fake, hac, say, models, session };
}

describe('a fallback model, and token use in view', () => {
  it('an-unavailable-model-hands-the-turn-to-the-fallback-after-its-retries', async () => {
    const { fake, hac, say, models, session } = await start();
    fake.reply(
      openaiReply.overloaded(),
      openaiReply.overloaded(),
      openaiReply.overloaded(),
      openaiReply.text(['From the backup.']),
    );
    const line = await say('hello', 'gpt-test is unavailable; answering with backup.');
    await hac.waitFor('From the backup.', { from: line });
    expect(models()).toEqual(['gpt-test', 'gpt-test', 'gpt-test', 'gpt-backup']);
    await expect.poll(() => session().messages.at(-1)?.model).toBe('gpt-backup');
  });

  it('a-refused-key-is-not-handed-on', async () => {
    const { fake, hac, say, models } = await start();
    fake.reply(openaiReply.unauthorized(), openaiReply.text(['never']));
    await say('hello', 'humble-ai> ');
    await hac.waitFor(/key|401|auth/i);
    expect(models()).toEqual(['gpt-test']);
    expect(plain(hac.output)).not.toContain('answering with backup');
  });

  it('usage-shows-each-turn-and-the-conversation-as-the-provider-reported-them', async () => {
    const { fake, hac, say } = await start();
    fake.reply(
      openaiReply.text(['One.'], { usage: { input: 1200, output: 34 } }),
      openaiReply.text(['Two.'], { usage: { input: 1300, output: 56 } }),
    );
    await say('first', 'One.');
    await say('second', 'Two.');
    const from = await say('/usage', 'of contextMaxChars.');
    const table = plain(hac.output).slice(from - 600);
    expect(table).toMatch(/turn\s+model\s+input\s+output\s+total/);
    expect(table).toMatch(/1\s+gpt-test\s+1,200\s+34\s+1,234/);
    expect(table).toMatch(/2\s+gpt-test\s+1,300\s+56\s+1,356/);
    expect(table).toMatch(/all\s+2,500\s+90\s+2,590/);
    expect(table).not.toContain('~');
  });
});
