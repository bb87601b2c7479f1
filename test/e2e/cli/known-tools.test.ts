import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { runHac } from '../../helpers/run-hac.js';
import { useTempDir } from '../../helpers/temp-home.js';

// A server's tools as it listed them last run: the next run's request goes with them at once, while the server
// still starts, and a call waits for it and runs only what it lists now. `hac -p` with the test server, slowed
// down as an npx download or a cold runtime is.
const tempDir = useTempDir('hac-known-');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Long enough that a hac -p started beside a busy suite still asks well before the server could answer. */
const DELAY_MS = 3_000;

async function home() {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const dir = tempDir();
  const describedBy = path.join(dir, 'echo-description.txt');
  const base = testServerEntry() as { command: string; args: string[] };
  const broken = path.join(dir, 'broken');
  const entry = {
    ...base,
    args: [
      ...base.args,
      `--start-delay=${DELAY_MS}`,
      `--echo-description=${describedBy}`,
      `--fail-if=${broken}`,
    ],
  };
  writeCliHome(dir, fake.baseUrl, { servers: { tools: entry }, config: { toolCallMode: 'auto' } });
  const known = path.join(dir, '.humble-ai-cli', 'mcp-tools.json');
  const tools = (i: number) =>
    ((fake.requests[i]!.body.tools ?? []) as { function: { name: string; description: string } }[]).map(
      (t) => t.function,
    );
  return { fake, dir, known, describedBy, broken, tools };
}

describe('known tools before their servers are ready', () => {
  it('a-second-run-asks-with-the-known-tools-at-once-and-the-call-waits-for-the-server', async () => {
    const { fake, dir, known, tools } = await home();
    fake.reply(openaiReply.text(['First.']));
    const first = await runHac(dir, ['-p', 'hello']);
    expect(first.stdout).toBe('First.\n');
    // Never listed before: the first run waited for the server, and kept what it listed.
    expect(tools(0).map((t) => t.name)).toContain('tools__echo');
    const kept = readFileSync(known, 'utf8');
    expect(JSON.parse(kept).tools.tools.map((t: { name: string }) => t.name)).toContain('echo');
    expect(kept).not.toContain(process.execPath); // the entry as a digest, not as written

    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'tools__echo', arguments: { text: 'known' } }]),
      openaiReply.text(['Echoed.']),
    );
    const started = Date.now();
    const second = runHac(dir, ['-p', 'echo known']);
    const asked = await fake.nextRequest(1);
    // Sent before the server could have answered, with its tools.
    expect(Date.now() - started).toBeLessThan(DELAY_MS);
    expect(tools(1).map((t) => t.name)).toContain('tools__echo');
    expect(asked.body.messages.at(-1).content).toBe('echo known');
    expect((await second).stdout).toBe('Echoed.\n');
    const result = fake.requests[2]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(result.content).toBe('known');
  });

  it('a-tool-whose-description-changed-is-not-run-and-a-changed-entry-is-waited-for', async () => {
    const { fake, dir, known, describedBy, tools } = await home();
    fake.reply(openaiReply.text(['First.']));
    await runHac(dir, ['-p', 'hello']);
    expect(existsSync(known)).toBe(true);
    // The server was updated: echo says something else now.
    writeFileSync(describedBy, 'Echoes the text back, now in capitals.');
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'tools__echo', arguments: { text: 'stale' } }]),
      openaiReply.text(['It changed.']),
    );
    const run = await runHac(dir, ['-p', 'echo stale']);
    expect(run.stdout).toBe('It changed.\n');
    const result = fake.requests[2]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(result.content).toMatch(/^Error: tools\/echo changed since it was offered .*it was not run/);
    // The new listing was kept: the next run offers the new description.
    expect(readFileSync(known, 'utf8')).toContain('now in capitals');

    // An entry that changed (another argument): its old list is not used, the server is waited for.
    const file = path.join(dir, '.humble-ai-cli', 'mcp-servers.json');
    const servers = JSON.parse(readFileSync(file, 'utf8'));
    servers.mcpServers.tools.args.push('--extra-tools=1');
    writeFileSync(file, JSON.stringify(servers, null, 2));
    fake.reply(openaiReply.text(['Waited.']));
    const started = Date.now();
    const waited = runHac(dir, ['-p', 'hello again']);
    await fake.nextRequest(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(DELAY_MS);
    expect(tools(3).map((t) => t.name)).toContain('tools__extra-1');
    await waited;
  });

  it('a-known-tool-of-a-server-that-no-longer-starts-is-not-run-and-the-model-is-told-why', async () => {
    const { fake, dir, broken } = await home();
    fake.reply(openaiReply.text(['First.']));
    await runHac(dir, ['-p', 'hello']);
    writeFileSync(broken, 'yes');
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'tools__echo', arguments: { text: 'x' } }]),
      openaiReply.text(['It is down.']),
    );
    const run = await runHac(dir, ['-p', 'echo x']);
    expect(run.stdout).toBe('It is down.\n');
    const result = fake.requests[2]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(result.content).toMatch(
      /^Error: tools is not connected \(.*broken since the last run.*\): tools\/echo was not run\.$/,
    );
  });
});
