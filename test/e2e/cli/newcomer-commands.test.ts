import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
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
});
