import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HAC_BIN, HacPty, plain } from '../../helpers/pty.js';
import { useTempDir } from '../../helpers/temp-home.js';

const tempDir = useTempDir();
const running: HacPty[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.kill()));
});

function start(home: string, args: string[] = []): HacPty {
  const hac = new HacPty(home, args);
  running.push(hac);
  return hac;
}

const expectedPrompt = readFileSync(
  path.resolve(import.meta.dirname, '../../fixtures/spec/default-system-prompt.txt'),
);

describe('hac in a pseudo-terminal', () => {
  it('first-run-creates-the-home-and-shows-the-prompt-then-exits-on-/exit', async () => {
    const home = tempDir();
    const hac = start(home);
    await hac.waitFor('humble-ai> ');
    const hacHome = path.join(home, '.humble-ai-cli');
    expect(readFileSync(path.join(hacHome, 'system_prompt.txt'))).toEqual(expectedPrompt);
    expect(existsSync(path.join(hacHome, 'config.json'))).toBe(false);
    hac.write('/exit\r');
    expect((await hac.exited).exitCode).toBe(0);
    // Run from a folder with no package.json above it (the pty's cwd is the temp home): the log is still written.
    const [log] = readdirSync(path.join(hacHome, 'logs'));
    expect(log).toMatch(/^application-hac-\d{4}-\d\d-\d\d\.log$/);
    expect(readFileSync(path.join(hacHome, 'logs', log!), 'utf8')).toMatch(
      /\[INFO\] hac \d+\.\d+\.\d+ started; active model: none\n/,
    );
  });

  it('ctrl-c-at-the-prompt-exits-with-0', async () => {
    const hac = start(tempDir());
    await hac.waitFor('humble-ai> ');
    hac.write('\x03');
    expect((await hac.exited).exitCode).toBe(0);
  });

  it('after-ctrl-z-and-fg-the-prompt-still-takes-input', async () => {
    const hac = start(tempDir());
    await hac.waitFor('humble-ai> ');
    hac.write('\x1a'); // Ctrl+Z: readline stops the process (a pty's orphaned group ignores the stop)
    // `fg` sends SIGCONT; readline answers it by redrawing the prompt. Send it until that redraw shows.
    const at = hac.output.length;
    while (hac.output.length === at) {
      process.kill(hac.pty.pid, 'SIGCONT');
      await new Promise((r) => setTimeout(r, 20));
    }
    await hac.type('/help', '\r');
    await hac.waitFor('Show the commands.', { from: plain(hac.output.slice(0, at)).length });
    hac.write('/exit\r');
    expect((await hac.exited).exitCode).toBe(0);
  });

  it('ctrl-d-on-an-empty-line-exits-with-0', async () => {
    const hac = start(tempDir());
    await hac.waitFor('humble-ai> ');
    hac.write('\x04');
    expect((await hac.exited).exitCode).toBe(0);
  });

  it('guides-when-no-model-is-configured-and-sends-nothing', async () => {
    const home = tempDir();
    const hac = start(home);
    // Said at start, before the prompt: not only after the first message fails.
    const hint = 'No active model is configured. Use /set-model to choose a model.';
    await hac.waitFor(`${hint}\nAdd a model to `);
    await hac.waitFor('humble-ai> ');
    expect(plain(hac.output).indexOf(hint)).toBeLessThan(plain(hac.output).indexOf('humble-ai> '));
    const before = plain(hac.output).length;
    hac.write('안녕하세요\r');
    await hac.waitFor(hint, { from: before });
    await hac.waitFor(`Add a model to ${path.join(home, '.humble-ai-cli', 'config.json')}, for example:`);
    await hac.waitFor(
      '{ "name": "claude-sonnet-4-6", "provider": "anthropic", "apiKey": "${ANTHROPIC_API_KEY}" }',
    );
    hac.write('/exit\r');
    expect((await hac.exited).exitCode).toBe(0);
  });

  it('with-a-key-in-the-environment-it-offers-to-write-config-json-and-writes-only-after-a-yes', async () => {
    const home = tempDir();
    const config = path.join(home, '.humble-ai-cli', 'config.json');
    const no = new HacPty(home, [], { OPENAI_API_KEY: 'sk-first-run-secret-42' });
    running.push(no);
    await no.waitFor('No config.json yet. hac can write');
    await no.waitFor('  1) openai: gpt-4o (key from $OPENAI_API_KEY)');
    await no.waitFor('Write config.json for which? (a number, 0 for not now): ');
    no.write('0\r');
    await no.waitFor('Nothing written.');
    expect(existsSync(config)).toBe(false);
    no.write('/exit\r');
    await no.exited;

    const yes = new HacPty(home, [], { OPENAI_API_KEY: 'sk-first-run-secret-42' });
    running.push(yes);
    await yes.waitFor('Write config.json for which?');
    yes.write('1\r');
    await yes.waitFor(
      'Wrote config.json with gpt-4o (openai) as the active model (its key is read from ${OPENAI_API_KEY}, never written). Ask away.',
    );
    const written = readFileSync(config, 'utf8');
    expect(JSON.parse(written)).toEqual({
      models: [{ name: 'gpt-4o', provider: 'openai', apiKey: '${OPENAI_API_KEY}', active: true }],
    });
    expect(written).not.toContain('sk-first-run-secret-42');
    expect(statSync(config).mode & 0o777).toBe(0o600);
    yes.write('/exit\r');
    await yes.exited;
  });

  it('hac-p-without-config-json-prints-the-example-and-the-environment-variables-it-reads', () => {
    const home = tempDir();
    const result = spawnSync(process.execPath, [HAC_BIN, '-p', 'hi'], {
      env: { PATH: process.env.PATH, HOME: home, HAC_HOME: path.join(home, '.humble-ai-cli') },
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('hac: no model to use. Add a model to');
    expect(result.stderr).toContain(
      'The keys are read from the environment variables named there (OPENAI_API_KEY, ANTHROPIC_API_KEY)',
    );
  });

  it('a-broken-config-stops-hac-with-exit-2-and-leaves-the-file-untouched', async () => {
    const home = tempDir();
    const hacHome = path.join(home, '.humble-ai-cli');
    mkdirSync(hacHome);
    const broken =
      '{\n  "toolCallMode": "sometimes",\n  "models": [{"name": "a", "provider": "openai", "active": true}, {"name": "b", "provider": "ollama", "active": true}]\n}\n';
    writeFileSync(path.join(hacHome, 'config.json'), broken);
    const hac = start(home);
    const { exitCode } = await hac.exited;
    expect(exitCode).toBe(2);
    const screen = plain(hac.output);
    expect(screen).toContain(`${path.join(hacHome, 'config.json')} is not valid:`);
    expect(screen).toContain('toolCallMode');
    expect(screen).toContain('2 models are marked "active": true');
    expect(readFileSync(path.join(hacHome, 'config.json'), 'utf8')).toBe(broken);
  });
});

describe('hac flags', () => {
  it('prints-the-version-and-the-help', () => {
    const version = spawnSync(process.execPath, [HAC_BIN, '--version'], { encoding: 'utf8' });
    expect(version.stdout).toMatch(/^hac \d+\.\d+\.\d+\n$/);
    const help = spawnSync(process.execPath, [HAC_BIN, '--help'], {
      encoding: 'utf8',
      env: { ...process.env, HAC_HOME: tempDir() },
    });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('hac -p "question"');
    expect(help.stdout).toContain('--screen-reader');
    // Within an 80-column terminal: no line of it is broken mid-word there.
    const widest = Math.max(...help.stdout.split('\n').map((line) => [...line].length));
    expect(widest).toBeLessThanOrEqual(80);
  });

  it('rejects-an-unknown-flag-with-exit-2', () => {
    const result = spawnSync(process.execPath, [HAC_BIN, '--frobnicate'], {
      encoding: 'utf8',
      env: { ...process.env, HAC_HOME: tempDir() },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Unknown option '--frobnicate'");
  });
});
