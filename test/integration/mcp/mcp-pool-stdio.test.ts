import { getEventListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { McpPool, McpPoolError, type McpPoolOptions } from '../../../core/mcp/index.js';
import { isAlive, stdioTestServer, until, WaitingLogger, writeServersFile } from './helpers.js';

const pools: McpPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

async function startPool(servers: Record<string, unknown> | string, options: Partial<McpPoolOptions> = {}) {
  const file = writeServersFile(servers);
  const logger = new WaitingLogger();
  const pool = new McpPool({ file, logger, killAfterMs: 600, ...options });
  pools.push(pool);
  await pool.ready();
  return { pool, logger, file };
}

const never = new AbortController().signal;

/** The log without the lines that quote a tool's own result. */
function ownLines(logger: WaitingLogger): string {
  return logger.lines
    .filter((l) => !/ result: /.test(l.message))
    .map((l) => l.message)
    .join('\n');
}

async function pidOf(pool: McpPool, server: string): Promise<number> {
  return Number((await pool.call(server, 'pid', {}, never)).text);
}

describe('McpPool with stdio servers', () => {
  it('connects-lists-tools-in-server-order-and-calls-them', async () => {
    const { pool } = await startPool({ t: stdioTestServer() });
    expect(pool.status()).toMatchObject([
      { name: 't', state: 'connected', enabled: true, description: 'hac test server', reason: undefined },
    ]);
    const tools = pool.tools();
    expect(tools.slice(0, 3).map((t) => t.name)).toEqual(['echo', 'fail', 'hang']);
    const echo = tools[0]!;
    expect(echo.server).toBe('t');
    expect(echo.description).toBe('Echoes the text back.\nSecond line of the description.');
    // The server sends "$schema" first; the SDK's own parser would move "type" first.
    expect(Object.keys(echo.inputSchema)).toEqual(['$schema', 'type', 'properties', 'required']);
    expect(await echo.call({ text: 'hi', times: 2 }, never)).toEqual({ text: 'hi hi', isError: false });
  });

  it('a-turn-signal-used-for-many-calls-collects-no-listeners', async () => {
    const { pool } = await startPool({ t: stdioTestServer() });
    const turn = new AbortController();
    for (let i = 0; i < 12; i += 1) await pool.call('t', 'echo', { text: String(i) }, turn.signal);
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
  });

  it('keeps-destructive-hint-annotations', async () => {
    const { pool } = await startPool({ t: stdioTestServer() });
    const tool = pool.tools().find((t) => t.name === 'delete-everything')!;
    expect(tool.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
  });

  it('reports-is-error-results-as-a-flag', async () => {
    const { pool } = await startPool({ t: stdioTestServer() });
    expect(await pool.call('t', 'fail', { message: 'nope' }, never)).toEqual({ text: 'nope', isError: true });
    const unknown = await pool.call('t', 'no-such-tool', {}, never);
    expect(unknown.isError).toBe(true);
  });

  it('converts-images-to-one-line-notes-in-order', async () => {
    const { pool } = await startPool({ t: stdioTestServer() });
    expect((await pool.call('t', 'mixed', {}, never)).text).toBe('first\n[image image/png, 5 bytes]\nsecond');
  });

  it('times-out-a-silent-call-and-tells-the-server', async () => {
    const { pool } = await startPool({ t: stdioTestServer({ timeout: 300 }) });
    const error = await pool.call('t', 'hang', {}, never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpPoolError);
    expect(error).toMatchObject({ code: 'mcp-timeout', message: 't/hang did not answer within 0.3 s.' });
    expect((await pool.call('t', 'cancelled-count', {}, never)).text).toBe('1');
    const tool = pool.tools().find((t) => t.name === 'hang')!;
    expect(await tool.call({}, never)).toEqual({
      text: 't/hang did not answer within 0.3 s.',
      isError: true,
    });
  });

  it('progress-notifications-reset-the-timeout', async () => {
    const { pool } = await startPool({ t: stdioTestServer({ timeout: 600 }) });
    // 8 steps of 150 ms: 1.2 s in all, twice the timeout, never 600 ms without news.
    expect(await pool.call('t', 'progress', { steps: 8, intervalMs: 150 }, never)).toEqual({
      text: 'done after 8 steps',
      isError: false,
    });
  });

  it('abort-sends-notifications-cancelled-and-throws-cancelled', async () => {
    const { pool, logger } = await startPool({ t: stdioTestServer() });
    const controller = new AbortController();
    const call = pool.call('t', 'hang', {}, controller.signal);
    await logger.waitFor(/MCP t stderr: hang started/);
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'cancelled' });
    await logger.waitFor(/hang cancelled \(1\)/);
    expect((await pool.call('t', 'cancelled-count', {}, never)).text).toBe('1');

    // Through the Tool seam a cancel still throws (the engine ends the turn); other failures are results.
    const hang = pool.tools().find((t) => t.name === 'hang')!;
    const second = new AbortController();
    const toolCall = hang.call({}, second.signal);
    await logger.waitFor(/MCP t stderr: hang started/, 2);
    second.abort();
    await expect(toolCall).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('a-server-that-dies-during-a-call-is-named-with-its-command-and-last-words-once', async () => {
    const { pool, logger } = await startPool({ t: stdioTestServer() });
    const pid = await pidOf(pool, 't');
    const call = pool.call('t', 'hang', {}, never).catch((error: unknown) => error);
    await logger.waitFor(/MCP t stderr: hang started/);
    process.kill(pid, 'SIGKILL');
    const error = (await call) as McpPoolError;
    expect(error.message).toBe(
      `t/hang failed: "${process.execPath}" ended during the call; its last words: hang started; it starts again on the next use`,
    );
    expect(error.message.match(/failed/g)).toHaveLength(1);
    expect(await pidOf(pool, 't')).not.toBe(pid);
  });

  it('reconnects-once-after-the-server-process-exits', async () => {
    const { pool, logger } = await startPool({ t: stdioTestServer() });
    const first = await pidOf(pool, 't');
    await pool.call('t', 'exit', { code: 3 }, never).catch(() => undefined);
    await until(pool, () => pool.status()[0]!.state === 'disconnected');
    expect(pool.status()[0]!.reason).toBe('the server process exited');
    expect(pool.tools().length).toBeGreaterThan(0);
    const second = await pidOf(pool, 't');
    expect(second).not.toBe(first);
    expect(isAlive(first)).toBe(false);
    expect(pool.status()[0]!.state).toBe('connected');
    expect(logger.text()).toMatch(/\[warn\] MCP server "t": reconnecting/);
    expect(pool.status()[0]!.stderrTail).toContain('exiting with code 3');
  });

  it('gives-the-child-only-the-safe-environment-plus-env-with-vars-substituted', async () => {
    const hacEnv = { ...process.env, HAC_TEST_SECRET: 'do-not-pass', TOKEN: 'tok-123' };
    const { pool, logger } = await startPool(
      {
        t: stdioTestServer({
          env: { GIVEN: 'Bearer ${TOKEN}', DEFAULTED: '${UNSET_VAR:-fallback}', NUMBER: 5 },
        }),
      },
      { env: hacEnv },
    );
    const childEnv = JSON.parse((await pool.call('t', 'env', {}, never)).text);
    expect(childEnv.HAC_TEST_SECRET).toBeUndefined();
    expect(childEnv).toMatchObject({
      GIVEN: 'Bearer tok-123',
      DEFAULTED: 'fallback',
      NUMBER: '5',
      PATH: process.env.PATH,
    });
    // Values never reach the log, keys do (R-LOG-4); only the tool's own answer (logged at debug) shows what it printed.
    expect(ownLines(logger)).not.toContain('tok-123');
    expect(logger.text()).toContain('env keys: GIVEN, DEFAULTED, NUMBER');
  });

  it('substitutes-vars-in-args', async () => {
    const args = (stdioTestServer().args as string[]).concat('--token=${TOKEN}');
    const { pool, logger } = await startPool(
      { t: stdioTestServer({ args }) },
      { env: { ...process.env, TOKEN: 'tok-456' } },
    );
    expect(JSON.parse((await pool.call('t', 'argv', {}, never)).text)).toEqual(['stdio', '--token=tok-456']);
    expect(ownLines(logger)).not.toContain('tok-456');
  });

  it('fails-a-server-whose-env-names-an-unset-variable', async () => {
    const { pool } = await startPool(
      { t: stdioTestServer({ env: { KEY: '${HAC_SURELY_UNSET}' } }) },
      { env: {} },
    );
    expect(pool.status()[0]).toMatchObject({ state: 'failed' });
    expect(pool.status()[0]!.reason).toContain('uses ${HAC_SURELY_UNSET}, which is not set');
    expect(pool.tools()).toEqual([]);
  });

  it('a-failing-or-hanging-server-affects-only-itself', async () => {
    const { pool, logger } = await startPool(
      {
        good: stdioTestServer(),
        missing: { command: '/nonexistent/hac-mcp-server' },
        slow: stdioTestServer({}, ['--hang-start']),
      },
      // Long enough for a healthy server on a loaded 2-core machine; the hanging one still times out.
      { connectTimeoutMs: 5000 },
    );
    const [good, missing, slow] = pool.status();
    expect(good!.state).toBe('connected');
    expect(missing).toMatchObject({ state: 'failed' });
    expect(missing!.reason).toBe(
      'the command "/nonexistent/hac-mcp-server" was not found: is it installed and on PATH? Check "command" (mcp-servers.json)',
    );
    expect(slow).toMatchObject({ state: 'failed', reason: 'no answer within 5 s' });
    expect(pool.tools().every((t) => t.server === 'good')).toBe(true);
    expect(logger.lines.filter((l) => l.level === 'error')).toHaveLength(2);
    // The timed-out child is not left running.
    await logger.waitFor(/MCP slow stderr: test-server started/);
    const slowPid = Number(/pid=(\d+)/.exec(pool.status()[2]!.stderrTail.join('\n'))![1]);
    await pool.close();
    expect(isAlive(slowPid)).toBe(false);
  });

  it('close-leaves-no-child-running-even-a-stubborn-one', async () => {
    const { pool, logger } = await startPool({
      polite: stdioTestServer(),
      stubborn: stdioTestServer({}, ['--stubborn']),
    });
    const pids = [await pidOf(pool, 'polite'), await pidOf(pool, 'stubborn')];
    expect(pids.every(isAlive)).toBe(true);
    await pool.close();
    expect(pids.map(isAlive)).toEqual([false, false]);
    expect(logger.text()).toMatch(/MCP server "stubborn" \(pid \d+\) did not exit; killing it/);
    // A closed pool starts nothing again.
    await expect(pool.call('polite', 'echo', { text: 'x' }, never)).rejects.toMatchObject({
      code: 'mcp-not-connected',
    });
    expect(pids.map(isAlive)).toEqual([false, false]);
  });

  it('close-during-a-slow-start-stops-the-child-at-once', async () => {
    const file = writeServersFile({ slow: stdioTestServer({}, ['--hang-start']) });
    const logger = new WaitingLogger();
    const pool = new McpPool({ file, logger, connectTimeoutMs: 60_000, killAfterMs: 600 });
    await pool.start();
    expect(pool.status()[0]!.state).toBe('connecting');
    await logger.waitFor(/MCP slow stderr: test-server started/);
    const pid = Number(/pid=(\d+)/.exec(pool.status()[0]!.stderrTail.join('\n'))![1]);
    const started = Date.now();
    await pool.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(isAlive(pid)).toBe(false);
    await pool.ready();
  });

  it('keeps-the-last-20-stderr-lines-and-logs-them', async () => {
    const { pool, logger } = await startPool({ t: stdioTestServer() });
    const lines = Array.from({ length: 25 }, (_, i) => `line-${i + 1}`);
    await pool.call('t', 'stderr', { lines }, never);
    await logger.waitFor(/MCP t stderr: line-25$/);
    const tail = pool.status()[0]!.stderrTail;
    expect(tail).toHaveLength(20);
    expect(tail.at(-1)).toBe('line-25');
    expect(tail[0]).toBe('line-6');
  });

  it('refreshes-tools-on-list-changed', async () => {
    const { pool } = await startPool({ t: stdioTestServer() });
    const events: string[] = [];
    pool.subscribe((e) => events.push(`${e.type}:${e.server}`));
    await pool.call('t', 'add-tool', { name: 'late-tool' }, never);
    await until(pool, () => pool.tools().some((t) => t.name === 'late-tool'));
    expect(events).toContain('tools:t');
    expect(await pool.call('t', 'late-tool', {}, never)).toEqual({ text: 'late-tool', isError: false });
  });

  it('set-enabled-rewrites-the-file-keeping-its-format-and-starts-or-stops-the-server', async () => {
    const server = stdioTestServer();
    const original = `{\n    "mcpServers": {\n        "t": {\n            "x-unknown": [1, 2,   3],\n            "command": ${JSON.stringify(server.command)},\n            "args": ${JSON.stringify(server.args)}\n        }\n    },\n    "other":   true\n}\n`;
    const { pool, file } = await startPool(original);
    const pid = await pidOf(pool, 't');
    await pool.setEnabled('t', false);
    expect(isAlive(pid)).toBe(false);
    expect(pool.status()[0]).toMatchObject({ state: 'disabled', enabled: false });
    expect(pool.tools()).toEqual([]);
    const written = readFileSync(file, 'utf8');
    const args = JSON.stringify(server.args);
    expect(written).toBe(
      original.replace(`"args": ${args}`, `"args": ${args},\n            "enabled": false`),
    );
    await expect(pool.call('t', 'echo', { text: 'x' }, never)).rejects.toMatchObject({
      code: 'mcp-disabled',
    });

    await pool.setEnabled('t', true);
    expect(readFileSync(file, 'utf8')).toContain('"enabled": true');
    await until(pool, () => pool.status()[0]!.state === 'connected');
    expect((await pool.call('t', 'echo', { text: 'back' }, never)).text).toBe('back');
  });

  it('starts-disabled-servers-as-disabled-and-unknown-servers-are-errors', async () => {
    const { pool } = await startPool({ off: stdioTestServer({ enabled: false }) });
    expect(pool.status()).toMatchObject([{ name: 'off', enabled: false, state: 'disabled', tools: [] }]);
    await expect(pool.call('nope', 'echo', {}, never)).rejects.toMatchObject({ code: 'mcp-unknown-server' });
    await expect(pool.setEnabled('nope', true)).rejects.toMatchObject({ code: 'mcp-unknown-server' });
  });

  it('a-broken-file-leaves-the-pool-empty-with-the-error-kept', async () => {
    const { pool } = await startPool('{\n  "mcpServers": {\n    "a": { "command": "x" },\n  }\n}\n');
    expect(pool.status()).toEqual([]);
    expect(pool.tools()).toEqual([]);
    expect(pool.configError?.problems[0]?.at).toBe('line 4, column 3');
  });
});
