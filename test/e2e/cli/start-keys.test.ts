import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { HacPty } from '../../helpers/pty.js';
import { useTempDir } from '../../helpers/temp-home.js';

// Keys typed the moment the prompt appears (or before it) on a loaded machine: each takes effect, in order.
const tempDir = useTempDir();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

// The machine busy on purpose: processes that spin on every core while hac starts.
const spinners: ChildProcess[] = [];
beforeAll(() => {
  for (let i = 0; i < 3; i++)
    spinners.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
});
afterAll(() => {
  for (const s of spinners) s.kill('SIGKILL');
});

const UP = '\x1b[A';

async function start() {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  const hacHome = writeCliHome(home, fake.baseUrl, {
    servers: {
      ok: {
        command: process.execPath,
        args: [path.resolve(import.meta.dirname, '../../fixtures/mcp/test-server.mjs')],
      },
      broken: { command: 'no-such-command-here' },
    },
  });
  writeFileSync(path.join(hacHome, 'history'), 'oldest question\nmiddle question\nnewest question\n');
  fake.reply(openaiReply.text(['ok']));
  return { fake, home };
}

describe('keys typed right after start, the machine loaded', () => {
  it.each([0, 40, 120])('up-up-enter-the-moment-the-prompt-appears (%i ms apart)', async (gap) => {
    const { fake, home } = await start();
    const hac = new HacPty(home);
    cleanups.push(() => hac.kill());
    await hac.waitFor('humble-ai> ', { ms: 20_000 });
    for (const key of [UP, UP, '\r']) {
      hac.write(key);
      await new Promise((r) => setTimeout(r, gap));
    }
    await expect.poll(() => fake.requests.length, { timeout: 20_000 }).toBe(1);
    const sent = fake.requests[0]!.body.messages.at(-1) as { content: string };
    expect(sent.content).toBe('middle question');
  });

  it.each([1, 2])('up-up-enter-typed-before-the-prompt (%i)', async () => {
    const { fake, home } = await start();
    const hac = new HacPty(home);
    cleanups.push(() => hac.kill());
    hac.write(UP);
    hac.write(UP);
    hac.write('\r');
    await expect.poll(() => fake.requests.length, { timeout: 20_000 }).toBe(1);
    const sent = fake.requests[0]!.body.messages.at(-1) as { content: string };
    expect(sent.content).toBe('middle question');
  });
});
