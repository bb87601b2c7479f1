import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { CAN_SEE_PROCESSES, eventually, isRunning, runningWith } from '../../helpers/processes.js';
import { HAC_BIN, HacPty, plain } from '../../helpers/pty.js';
import { useTempDir } from '../../helpers/temp-home.js';

// R-MCP-6 for servers behind wrappers (issue 17 §4): after every way of leaving hac, nothing it started is left,
// neither the wrapper nor what the wrapper started. Three kinds of server per run, all outliving stdin's end:
// `sh -c` around a lingering server, `sh -c` around one that also ignores SIGTERM, and a Node wrapper (what
// `npx` is) around a lingering server.

const SERVER = path.resolve(import.meta.dirname, '../../fixtures/mcp/test-server.mjs');
const NODE = process.execPath;
/** 2 sh + 1 node wrapper + 3 servers. */
const PROCESSES_PER_RUN = 6;

function wrappedServers(marker: string): Record<string, unknown> {
  const shell = (flag: string) => ({
    command: 'sh',
    // `; :` makes sh wait for the server instead of exec-ing it: a real wrapper.
    args: ['-c', `"${NODE}" "${SERVER}" stdio ${flag} --marker=${marker}; :`],
  });
  const spawnChild = `require('node:child_process').spawn(process.execPath, [${JSON.stringify(SERVER)}, 'stdio', '--linger', '--marker=${marker}'], { stdio: 'inherit' })`;
  return {
    lingering: shell('--linger'),
    stubborn: shell('--stubborn'),
    wrapped: { command: NODE, args: ['-e', spawnChild, '--', `--marker=${marker}`] },
  };
}

const tempDir = useTempDir();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const results: { path: string; started: number; left: number }[] = [];
afterAll(() => {
  if (!results.length) return;
  const left = results.reduce((n, r) => n + r.left, 0);
  const started = results.reduce((n, r) => n + r.started, 0);
  console.info(
    `orphan test: ${results.length} exit paths x 3 server kinds, ${started} processes started, ${left} left`,
  );
});

async function setup() {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  const marker = `hac-orphan-${randomBytes(6).toString('hex')}`;
  writeCliHome(home, fake.baseUrl, { servers: wrappedServers(marker), config: { toolCallMode: 'auto' } });
  // Whatever happens in the test, nothing it started outlives it.
  cleanups.push(() => runningWith(marker).forEach((pid) => process.kill(pid, 'SIGKILL')));
  return { fake, home, marker };
}

async function allStarted(marker: string): Promise<void> {
  const ok = await eventually(() => runningWith(marker).length === PROCESSES_PER_RUN, 15_000);
  expect(ok, `expected ${PROCESSES_PER_RUN} processes, saw ${runningWith(marker).length}`).toBe(true);
  await new Promise((r) => setTimeout(r, 300)); // the sessions are initialised
}

async function expectNothingLeft(name: string, hacPid: number, marker: string): Promise<void> {
  expect(await eventually(() => !isRunning(hacPid), 15_000), 'hac exits').toBe(true);
  await eventually(() => runningWith(marker).length === 0, 300);
  const left = runningWith(marker).length;
  results.push({ path: name, started: PROCESSES_PER_RUN, left });
  expect(left, `processes left after ${name}`).toBe(0);
}

async function repl(
  name: string,
  leave: (hac: HacPty, hacPid: number) => Promise<void> | void,
  toolCall = false,
) {
  const { fake, home, marker } = await setup();
  const hac = new HacPty(home, [], {}, { underShell: true });
  cleanups.push(() => hac.kill());
  await hac.waitFor('humble-ai> ');
  const hacPid = childOf(hac.pty.pid);
  await allStarted(marker);
  if (toolCall) {
    fake.reply(openaiReply.toolCalls([{ id: 'c1', name: 'wrapped__hang', arguments: {} }]));
    hac.write('wait for it\r');
    await hac.waitFor('Tool: hang');
    await new Promise((r) => setTimeout(r, 300));
  }
  await leave(hac, hacPid);
  await expectNothingLeft(name, hacPid, marker);
}

/** hac, the one child of the shell in the terminal. */
function childOf(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
  expect(children).toHaveLength(1);
  return Number(children[0]);
}

async function oneShot(name: string, signal: NodeJS.Signals) {
  const { fake, home, marker } = await setup();
  fake.reply(openaiReply.toolCalls([{ id: 'c1', name: 'stubborn__hang', arguments: {} }]));
  // --verbose: the tool's summary on stderr says the call has started.
  const child = spawn(NODE, [HAC_BIN, '-p', '--verbose', 'wait for it'], {
    env: { PATH: process.env.PATH, HOME: home, HAC_HOME: path.join(home, '.humble-ai-cli') },
  });
  cleanups.push(() => void child.kill('SIGKILL'));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  await allStarted(marker);
  expect(await eventually(() => plain(stderr).includes('Tool: hang'), 10_000), stderr).toBe(true);
  child.kill(signal);
  await expectNothingLeft(name, child.pid!, marker);
}

describe.skipIf(!CAN_SEE_PROCESSES)('no MCP process outlives hac (Linux: reads /proc)', () => {
  it('after-exit', () => repl('/exit', (hac) => hac.write('/exit\r')));
  it('after-ctrl-c-at-the-prompt', () => repl('Ctrl+C', (hac) => hac.write('\x03')));
  it('after-ctrl-d', () => repl('Ctrl+D', (hac) => hac.write('\x04')));
  it('after-sigterm', () => repl('SIGTERM', (_hac, pid) => void process.kill(pid, 'SIGTERM')));
  it('after-sighup', () => repl('SIGHUP', (_hac, pid) => void process.kill(pid, 'SIGHUP')));
  it('after-the-terminal-hangs-up', () =>
    repl('terminal hang-up', (hac) => (hac.pty as unknown as { destroy(): void }).destroy()));
  it('after-sigterm-during-a-running-tool-call', () =>
    repl('SIGTERM during a tool call', (_hac, pid) => void process.kill(pid, 'SIGTERM'), true));
  it('after-sigint-in-one-shot-during-a-tool-call', () => oneShot('one-shot SIGINT', 'SIGINT'));
  it('after-sigterm-in-one-shot-during-a-tool-call', () => oneShot('one-shot SIGTERM', 'SIGTERM'));
});
