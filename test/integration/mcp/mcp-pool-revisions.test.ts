import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpPool } from '../../../core/mcp/index.js';
import {
  root,
  startEverything,
  startListening,
  stdioTestServer,
  WaitingLogger,
  writeServersFile,
} from './helpers.js';

// Both protocol eras, chosen per server: the stateless revision to a server that has only that, the handshake
// revisions to the servers on npm today.
const statelessServer = path.join(root, 'test/fixtures/mcp/stateless-server.mjs');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startPool(servers: Record<string, unknown>) {
  const logger = new WaitingLogger();
  const pool = new McpPool({ file: writeServersFile(servers), logger, env: process.env, killAfterMs: 600 });
  cleanups.push(() => pool.close());
  await pool.ready();
  return { pool, logger };
}

const never = new AbortController().signal;

describe('MCP protocol revisions', () => {
  it('a-stateless-only-server-lists-and-calls-its-tools-over-stdio', async () => {
    const { pool, logger } = await startPool({
      s: { command: process.execPath, args: [statelessServer, 'stdio'] },
    });
    expect(pool.status()[0]).toMatchObject({ state: 'connected', revision: '2026-07-28' });
    expect(pool.tools().map((t) => t.name)).toEqual(['add', 'deploy']);
    expect(await pool.call('s', 'add', { a: 2, b: 40 }, never)).toEqual({ text: '42', isError: false });
    // It refused `initialize` once, then was started again for the stateless revision.
    expect(logger.text()).toContain('refused initialize; starting it again for revision 2026-07-28');
  });

  it('a-stateless-only-server-lists-and-calls-its-tools-over-streamable-http-without-a-handshake', async () => {
    const server = await startListening([statelessServer, 'http']);
    cleanups.push(() => server.stop());
    const { pool } = await startPool({
      s: { url: `http://127.0.0.1:${server.port}/mcp`, transport: 'http' },
    });
    expect(pool.status()[0]).toMatchObject({ state: 'connected', revision: '2026-07-28' });
    expect(await pool.call('s', 'add', { a: 1, b: 2 }, never)).toEqual({ text: '3', isError: false });
    const methods = (await (await fetch(`http://127.0.0.1:${server.port}/recorded`)).json()) as string[];
    expect(methods).toContain('server/discover');
    expect(methods).not.toContain('initialize');
  });

  it('handshake-servers-keep-their-revision-over-stdio-and-http', async () => {
    const everything = await startEverything('streamableHttp');
    cleanups.push(() => everything.stop());
    const { pool, logger } = await startPool({
      local: stdioTestServer(),
      hosted: { url: `http://127.0.0.1:${everything.port}/mcp`, transport: 'http' },
    });
    const byName = Object.fromEntries(pool.status().map((s) => [s.name, s]));
    expect(byName.local).toMatchObject({ state: 'connected', revision: '2025-11-25' });
    expect(byName.hosted).toMatchObject({ state: 'connected', revision: '2025-11-25' });
    expect((await pool.call('hosted', 'echo', { message: 'hi' }, never)).text).toBe('Echo: hi');
    expect(logger.text()).toContain('MCP local: protocol revision 2025-11-25.');
  });
});
