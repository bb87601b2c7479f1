import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ollamaAnswerSteps, startOllamaFake } from '../../fakes/ollama-fake.js';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome, type CliHomeFiles } from '../../helpers/cli-home.js';
import { HAC_BIN, HacPty } from '../../helpers/pty.js';
import { runHac, type HacRun } from '../../helpers/run-hac.js';
import { useTempDir } from '../../helpers/temp-home.js';

// Files that are not what hac expects (issue 17 §2, R-REL-2, R-HOME-5, R-CFG-9): each ends with a message that
// names the path and says what to do, the right exit code, no stack trace, and the user's file unchanged.

const tempDir = useTempDir();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(files: CliHomeFiles = {}) {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  const hacHome = writeCliHome(home, fake.baseUrl, files);
  return { fake, home, hacHome, config: path.join(hacHome, 'config.json') };
}

function expectClearStop(result: HacRun, file: string, advice: RegExp): void {
  expect(result.status).toBe(2);
  expect(result.stderr).toContain(file);
  expect(result.stderr).toMatch(advice);
  expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  expect(result.stdout).toBe('');
}

function leftovers(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.tmp'));
}

const isRoot = process.getuid?.() === 0;
/** As root, permission cases need `nobody` to be able to run node and read the built hac (not so under /root). */
const nobodyCanRunHac =
  !isRoot ||
  spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(HAC_BIN)})`], {
    uid: 65534,
    gid: 65534,
    cwd: '/',
  }).status === 0;
/** Root ignores file modes: permission cases run hac as `nobody` then, over a home it owns. */
function asUnprivileged(home: string): Record<string, number> {
  if (!isRoot) return {};
  for (const entry of ['', ...readdirSync(home, { recursive: true, encoding: 'utf8' })])
    chownSync(path.join(home, entry), 65534, 65534);
  return { uid: 65534, gid: 65534 };
}

/** A small tmpfs at `dir` (root only); undefined when this machine cannot mount one. */
function mountTmpfs(dir: string, options: string): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'ignore' });
    cleanups.push(() => void execFileSync('umount', ['-l', dir], { stdio: 'ignore' }));
    return true;
  } catch {
    return false;
  }
}
const canMount = isRoot && mountTmpfs(path.join(tempDir(), 'probe'), 'size=16k');
const MOUNT_SKIP = 'needs root and mount for a read-only or full tmpfs; skipped otherwise';

describe('config.json that is not an object or not a file', () => {
  for (const [what, text] of [
    ['null', 'null\n'],
    ['a number', '42\n'],
    ['a string', '"models"\n'],
  ] as const) {
    it(`top-level-${what.replace(' ', '-')}-is-a-report-with-the-fix-and-exit-2`, async () => {
      const { home, config } = await setup();
      writeFileSync(config, text);
      const result = await runHac(home, ['-p', 'hi']);
      expectClearStop(result, config, /\(top level\).*\n\s+Fix: The file must hold one JSON object/);
      expect(readFileSync(config, 'utf8')).toBe(text);
    });
  }

  it('a-folder-named-config-json-is-named-with-what-to-do', async () => {
    const { home, config } = await setup();
    execFileSync('rm', [config]);
    mkdirSync(config);
    expectClearStop(await runHac(home, ['-p', 'hi']), config, /is a folder, but hac needs a file there/);
  });
});

describe('a home that hac cannot use', () => {
  it('logs-that-is-a-file-is-named-and-kept', async () => {
    const { home, hacHome } = await setup();
    writeFileSync(path.join(hacHome, 'logs'), 'my notes\n');
    const result = await runHac(home, ['-p', 'hi']);
    expectClearStop(result, path.join(hacHome, 'logs'), /is a file, but hac needs a folder there/);
    expect(readFileSync(path.join(hacHome, 'logs'), 'utf8')).toBe('my notes\n');
  });

  it('system-prompt-txt-that-is-a-folder-is-named', async () => {
    const { home, hacHome } = await setup();
    mkdirSync(path.join(hacHome, 'system_prompt.txt'));
    const result = await runHac(home, ['-p', 'hi']);
    expectClearStop(result, path.join(hacHome, 'system_prompt.txt'), /is a folder, but hac needs a file/);
  });

  it.skipIf(!nobodyCanRunHac)(
    'an-unreadable-config-json-and-a-home-without-write-permission-stop-with-exit-2 (as root: needs nobody to reach node and dist/; skipped otherwise)',
    async () => {
      const { home, hacHome, config } = await setup();
      const user = asUnprivileged(home);
      chmodSync(config, 0o000);
      const unreadable = await runHac(home, ['-p', 'hi'], user);
      expectClearStop(unreadable, config, /cannot read .*permission denied.*chmod u\+rw/);
      chmodSync(config, 0o600);
      chmodSync(hacHome, 0o500);
      const readOnly = await runHac(home, ['-p', 'hi'], user);
      chmodSync(hacHome, 0o700);
      expectClearStop(readOnly, hacHome, /cannot use .*permission denied.*chmod u\+rwx/);
    },
  );

  it.skipIf(!canMount)(`a-read-only-home-stops-at-start-with-exit-2 (${MOUNT_SKIP})`, async () => {
    const { home, hacHome, config } = await setup();
    const text = readFileSync(config, 'utf8');
    const ro = path.join(home, 'ro-home');
    expect(mountTmpfs(ro, 'size=64k')).toBe(true);
    writeFileSync(path.join(ro, 'config.json'), text);
    execFileSync('mount', ['-o', 'remount,ro', ro]);
    const result = await runHac(home, ['-p', 'hi'], { env: { HAC_HOME: ro } });
    expectClearStop(result, ro, /read-only\. Set HAC_HOME to a writable folder/);
    expect(readFileSync(path.join(ro, 'config.json'), 'utf8')).toBe(text);
    expect(hacHome).toBeTruthy();
  });

  it.skipIf(!canMount)(
    `a-full-disk-keeps-the-answer-the-config-and-leaves-no-temp-file (${MOUNT_SKIP})`,
    async () => {
      const { fake, home, hacHome } = await setup();
      const full = path.join(home, 'full-home');
      expect(mountTmpfs(full, 'size=64k')).toBe(true);
      writeFileSync(path.join(full, 'config.json'), readFileSync(path.join(hacHome, 'config.json')));
      writeFileSync(path.join(full, 'system_prompt.txt'), 'Be brief.\n');
      mkdirSync(path.join(full, 'logs'));
      mkdirSync(path.join(full, 'sessions'));
      try {
        writeFileSync(path.join(full, 'filler'), Buffer.alloc(1024 * 1024)); // fills the disk; ENOSPC is expected
      } catch {
        /* full */
      }
      const configText = readFileSync(path.join(full, 'config.json'), 'utf8');
      fake.reply(openaiReply.text(['The answer.']));
      const result = await runHac(home, ['-p', 'hi'], { env: { HAC_HOME: full } });
      expect(result.stdout).toBe('The answer.\n');
      expect(result.stderr).toMatch(
        /session file could not be written: cannot write .*sessions.*the disk is full/,
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);

      const hac = new HacPty(home, [], { HAC_HOME: full });
      cleanups.push(() => hac.kill());
      await hac.waitFor('humble-ai> ');
      hac.write('/set-tool-mode auto\r');
      await hac.waitFor(
        /cannot write .*config\.json: the disk is full\. Free some space and try again\..*unchanged/s,
      );
      hac.write('/exit\r');
      await hac.exited;
      expect(readFileSync(path.join(full, 'config.json'), 'utf8')).toBe(configText);
      expect(leftovers(full)).toEqual([]);
    },
  );
});

describe('servers that send what their protocol does not allow', () => {
  it.each([
    // A proxy in front of Ollama labels the stream application/json and slips a line of its own in.
    ['plain text', 'application/json; charset=utf-8', 'upstream timed out, retrying'],
    // Braces around it pass a first look; the SDK itself would print "invalid json" and drop it.
    ['a line in braces that is still not JSON', 'application/x-ndjson', '{upstream: "timed out"}'],
  ])(
    'an-ollama-stream-with-%s-is-a-provider-error-with-exit-1-and-the-sdk-prints-nothing',
    async (_what, type, line) => {
      const fake = await startOllamaFake();
      cleanups.push(() => fake.close());
      const home = tempDir();
      const hacHome = path.join(home, '.humble-ai-cli');
      mkdirSync(hacHome);
      const model = { provider: 'ollama', model: 'llama3.2', baseUrl: fake.baseUrl, active: true };
      writeFileSync(path.join(hacHome, 'config.json'), JSON.stringify({ models: [model] }));
      fake.reply((request) => ({
        status: 200,
        headers: { 'content-type': type },
        steps: [...ollamaAnswerSteps({ text: ['Partial'], end: 'eof' }, request), { write: `${line}\n` }],
      }));
      const result = await runHac(home, ['-p', 'hi']);
      expect(result.status).toBe(1);
      expect(result.stdout).toContain('Partial');
      expect(result.stderr).toContain(`a line that is not JSON: ${line}`);
      expect(result.stderr).not.toContain('invalid json');
    },
  );

  it('a-tools-call-result-that-breaks-the-mcp-schema-is-a-tool-error-naming-the-server-and-the-problem', async () => {
    const server = path.resolve(import.meta.dirname, '../../fixtures/mcp/bad-result-server.mjs');
    const { fake, home } = await setup({
      servers: { bad: { command: process.execPath, args: [server] } },
    });
    const toolMessage = async (tool: string) => {
      fake.reply(
        openaiReply.toolCalls([{ id: 'c1', name: `bad__${tool}`, arguments: {} }]),
        openaiReply.text(['The tool is broken.']),
      );
      const result = await runHac(home, ['-p', 'use the tool', '--yes']);
      expect(result.stdout).toBe('The tool is broken.\n');
      const followUp = fake.requests.at(-1)!.body.messages;
      return { result, content: followUp.find((m: { role: string }) => m.role === 'tool').content as string };
    };
    const { result, content } = await toolMessage('content_not_array');
    expect(content).toMatch(
      /^Error: MCP server "bad" sent a tools\/call result that does not follow the MCP schema: content: .*array/,
    );
    expect((await toolMessage('item_without_type')).content).toMatch(
      /MCP server "bad" sent a tools\/call result .*: content\[0\]: /,
    );
    expect(result.stderr).toContain(
      'MCP server "bad" sent a tools/call result that does not follow the MCP schema',
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
