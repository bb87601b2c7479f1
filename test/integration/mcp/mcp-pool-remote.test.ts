import { afterEach, describe, expect, it } from 'vitest';
import { McpPool } from '../../../core/mcp/index.js';
import {
  bindLoopback,
  everything,
  headerServer,
  startEverything,
  startListening,
  testServer,
  until,
  WaitingLogger,
  writeServersFile,
  type ListeningServer,
} from './helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function track(server: ListeningServer): ListeningServer {
  cleanups.push(() => server.stop());
  return server;
}

async function startPool(servers: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env) {
  const logger = new WaitingLogger();
  const pool = new McpPool({ file: writeServersFile(servers), logger, env, killAfterMs: 600 });
  cleanups.push(() => pool.close());
  await pool.ready();
  return { pool, logger };
}

const never = new AbortController().signal;

describe('McpPool with @modelcontextprotocol/server-everything', () => {
  async function checkEverything(pool: McpPool): Promise<void> {
    expect(pool.status()[0]).toMatchObject({ name: 'e', state: 'connected' });
    const names = pool.tools().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image']));
    expect(await pool.call('e', 'echo', { message: 'hello' }, never)).toEqual({
      text: 'Echo: hello',
      isError: false,
    });
    expect((await pool.call('e', 'get-sum', { a: 2, b: 3 }, never)).text).toContain('5');
    const image = await pool.call('e', 'get-tiny-image', {}, never);
    expect(image.text).toMatch(/\[image image\/png, \d+ bytes\]/);
  }

  it('works-over-stdio', async () => {
    const { pool } = await startPool({ e: { command: process.execPath, args: [everything, 'stdio'] } });
    await checkEverything(pool);
  });

  it('works-over-sse', async () => {
    const server = track(await startEverything('sse'));
    const { pool } = await startPool({ e: { url: `http://127.0.0.1:${server.port}/sse` } });
    expect(pool.status()[0]!.transport).toBe('sse');
    await checkEverything(pool);
  });

  it('works-over-streamable-http', async () => {
    const server = track(await startEverything('streamableHttp'));
    const { pool } = await startPool({
      e: { url: `http://127.0.0.1:${server.port}/mcp`, type: 'streamable-http' },
    });
    expect(pool.status()[0]!.transport).toBe('http');
    await checkEverything(pool);
  });
});

describe('remote servers get env as headers on every request', () => {
  async function recorded(
    port: number,
  ): Promise<{ method: string; path: string; headers: Record<string, string> }[]> {
    return (await fetch(`http://127.0.0.1:${port}/recorded`)).json() as never;
  }

  it.each([
    ['sse', '/sse'],
    ['http', '/mcp'],
  ] as const)('sends-every-env-entry-on-every-%s-request', async (transport, pathname) => {
    const server = track(await startListening([headerServer, transport]));
    const { pool, logger } = await startPool(
      {
        h: {
          url: `http://127.0.0.1:${server.port}${pathname}`,
          transport,
          env: { Authorization: 'Bearer ${TOKEN}', 'X-Team': 'blue' },
        },
      },
      { TOKEN: 'secret-token' },
    );
    expect(await pool.call('h', 'ping', {}, never)).toEqual({ text: 'pong', isError: false });
    await pool.close();
    const requests = await recorded(server.port);
    const methods = new Set(requests.map((r) => r.method));
    expect(methods).toEqual(
      transport === 'sse' ? new Set(['GET', 'POST']) : new Set(['POST', 'GET', 'DELETE']),
    );
    for (const request of requests) {
      expect(request.headers, `${request.method} ${request.path}`).toMatchObject({
        authorization: 'Bearer secret-token',
        'x-team': 'blue',
      });
    }
    expect(logger.text()).not.toContain('secret-token');
    expect(logger.text()).not.toContain('blue');
    expect(logger.text()).toContain('header keys: Authorization, X-Team');
  });
});

describe('remote session loss', () => {
  it('reconnects-to-a-restarted-streamable-http-server-and-retries-the-undelivered-call', async () => {
    const first = track(await startListening([testServer, 'http']));
    const { pool, logger } = await startPool({
      t: { url: `http://127.0.0.1:${first.port}/mcp`, transport: 'http' },
    });
    const pidBefore = (await pool.call('t', 'pid', {}, never)).text;
    await first.stop();
    const second = track(await startListening([testServer, 'http'], { PORT: String(first.port) }));
    // The old session id is unknown to the new server (404): the call never ran, so it is sent again on a new session.
    const pidAfter = (await pool.call('t', 'pid', {}, never)).text;
    expect(pidAfter).toBe(String(second.child.pid));
    expect(pidAfter).not.toBe(pidBefore);
    expect(pool.status()[0]!.state).toBe('connected');
    // Which comes first, the broken GET stream or the 404 on the POST, is a race; either way one reconnect.
    expect(logger.text()).toMatch(/\[warn\] MCP server "t": .*reconnects on next use/);
  });

  it('a-server-that-goes-away-during-a-call-is-named-by-its-address-once', async () => {
    const server = track(await startListening([testServer, 'http']));
    const url = `http://127.0.0.1:${server.port}/mcp`;
    const { pool } = await startPool({ t: { url, transport: 'http' } });
    const started = new Promise((resolve) =>
      server.child.stderr!.on('data', (chunk: Buffer) => chunk.includes('hang started') && resolve(true)),
    );
    const call = pool.call('t', 'hang', {}, never).catch((error: unknown) => error);
    await started;
    await server.stop();
    expect(((await call) as Error).message).toBe(
      `t/hang failed: ${url} closed the connection during the call; hac reconnects on the next use`,
    );
    await expect(pool.call('t', 'pid', {}, never)).rejects.toThrow(
      `MCP server "t" is not connected: nothing answers at ${url} (connection refused): is the server running?`,
    );
  });

  it('reconnects-to-a-restarted-sse-server-instead-of-the-sdks-silent-uninitialised-session', async () => {
    const first = track(await startEverything('sse'));
    const { pool, logger } = await startPool({ e: { url: `http://127.0.0.1:${first.port}/sse` } });
    expect((await pool.call('e', 'echo', { message: 'one' }, never)).text).toBe('Echo: one');
    await first.stop();
    await until(pool, () => pool.status()[0]!.state === 'disconnected');
    track(await startListening(['--import', bindLoopback, everything, 'sse'], { PORT: String(first.port) }));
    expect((await pool.call('e', 'echo', { message: 'two' }, never)).text).toBe('Echo: two');
    expect(pool.status()[0]!.state).toBe('connected');
    expect(logger.text()).toMatch(/\[warn\] MCP server "e": reconnecting/);
  });

  it('a-call-to-a-stopped-server-is-a-tool-error-and-the-server-shows-why', async () => {
    const server = track(await startListening([testServer, 'http']));
    const { pool } = await startPool({
      t: { url: `http://127.0.0.1:${server.port}/mcp`, transport: 'http' },
    });
    await server.stop();
    const tool = pool.tools().find((t) => t.name === 'echo')!;
    const result = await tool.call({ text: 'x' }, never);
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^MCP server "t" is not connected|^t\/echo failed/);
    // Whether the failed reconnect has been recorded yet when the call returns is a race; the reason is always there.
    const { state, reason } = pool.status()[0]!;
    expect(['failed', 'disconnected']).toContain(state);
    expect(reason).toBeTruthy();
  });
});
