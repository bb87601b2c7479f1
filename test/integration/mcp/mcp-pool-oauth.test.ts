import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SecretRegistry } from '../../../core/logging/secrets.js';
import { McpPool } from '../../../core/mcp/index.js';
import {
  root,
  startListening,
  until,
  WaitingLogger,
  writeServersFile,
  type ListeningServer,
} from './helpers.js';

// Sign-in to a hosted MCP server (OAuth 2.1) from outside: the SDK's own authorization server and protected
// MCP endpoint on loopback (test/fixtures/mcp/oauth-server.mjs), an HTTP client playing the browser.

const oauthServer = path.join(root, 'test/fixtures/mcp/oauth-server.mjs');
const never = new AbortController().signal;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(serverEnv: NodeJS.ProcessEnv = {}): Promise<{
  pool: McpPool;
  server: ListeningServer;
  logger: WaitingLogger;
  dir: string;
}> {
  const server = await startListening([oauthServer], serverEnv);
  cleanups.push(() => server.stop());
  const file = writeServersFile({ hosted: { url: `http://127.0.0.1:${server.port}/mcp`, type: 'http' } });
  const logger = new WaitingLogger();
  const secrets = new SecretRegistry();
  const pool = new McpPool({ file, logger, secrets, connectTimeoutMs: 10_000 });
  cleanups.push(() => pool.close());
  return { pool, server, logger, dir: path.dirname(file) };
}

const state = (pool: McpPool) => pool.status()[0]?.state;
const stats = async (port: number) =>
  (await (await fetch(`http://127.0.0.1:${port}/stats`)).json()) as Record<string, number | unknown[]>;

/** What the browser does: the authorization server redirects back at once; where does it send us? */
async function approve(link: URL): Promise<URL> {
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

describe('signing in to a hosted MCP server', () => {
  it('needs-sign-in-then-login-in-the-browser-connects-calls-refreshes-and-logout-forgets', async () => {
    const { pool, server, logger, dir } = await setUp();
    await pool.ready();
    expect(state(pool)).toBe('needs-sign-in');
    expect((await stats(server.port)).registrations).toBe(0); // nothing registered until the user asks

    const { url, done } = await pool.signIn('hosted');
    expect(url?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url?.searchParams.get('resource')).toBe(`http://127.0.0.1:${server.port}/mcp`);
    const back = await approve(url!);
    expect(back.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await fetch(back);
    expect(await page.text()).toContain('Signed in');
    await done;
    expect(state(pool)).toBe('connected');
    expect(await pool.call('hosted', 'whoami', {}, never)).toEqual({
      text: 'signed in as a registered client',
      isError: false,
    });

    // The tokens: one 0600 file in mcp-auth/, never in the log.
    const authDir = path.join(dir, 'mcp-auth');
    const [tokenFile] = readdirSync(authDir);
    expect(statSync(path.join(authDir, tokenFile!)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(path.join(authDir, tokenFile!), 'utf8')) as {
      tokens: { access_token: string; refresh_token: string };
    };
    const log = logger.lines.map((l) => l.message).join('\n');
    expect(log).not.toContain(stored.tokens.access_token);
    expect(log).not.toContain(stored.tokens.refresh_token);

    // An expired token is refreshed without a word; the call just works.
    await fetch(`http://127.0.0.1:${server.port}/expire`, { method: 'POST' });
    expect((await pool.call('hosted', 'whoami', {}, never)).isError).toBe(false);
    expect((await stats(server.port)).refreshes).toBe(1);

    // A refresh the server refuses: back to needs sign-in, said in one line.
    await fetch(`http://127.0.0.1:${server.port}/expire?revoke`, { method: 'POST' });
    const refused = await pool.call('hosted', 'whoami', {}, never).catch((e: Error) => e);
    expect((refused as Error).message).toBe('MCP server "hosted" needs sign-in: /mcp login hosted');
    expect(state(pool)).toBe('needs-sign-in');

    expect(await pool.signOut('hosted')).toBe(true);
    expect(readdirSync(authDir)).toEqual([]);
    await until(pool, () => state(pool) === 'needs-sign-in');
    await expect(pool.call('hosted', 'whoami', {}, never)).rejects.toThrow(
      'MCP server "hosted" needs sign-in: /mcp login hosted',
    );
  });

  it('a-fresh-start-uses-the-saved-sign-in-and-a-pasted-address-completes-a-sign-in-the-browser-could-not', async () => {
    const { pool, server, dir } = await setUp();
    await pool.ready();
    const { url, done } = await pool.signIn('hosted');
    // The browser is on another machine: it cannot reach hac's listener, the user pastes where it ended.
    const back = await approve(url!);
    expect(() => pool.pasteSignIn('hosted', back.href.replace(/state=[^&]+/, 'state=forged'))).toThrow(
      /another sign-in/,
    );
    pool.pasteSignIn('hosted', back.href);
    await done;
    expect(state(pool)).toBe('connected');
    await pool.close();

    // hac starts again: the saved tokens connect it at once, no browser.
    const again = new McpPool({ file: path.join(dir, 'mcp-servers.json'), connectTimeoutMs: 10_000 });
    cleanups.push(() => again.close());
    await again.ready();
    expect(state(again)).toBe('connected');
    expect((await stats(server.port)).authorizations).toBe(1);
  });

  it('a-token-about-to-run-out-is-renewed-before-the-call-so-the-server-never-refuses-one', async () => {
    // Tokens that live 5 s: inside the minute before expiry in which hac renews them.
    const { pool, server, logger } = await setUp({ HAC_TEST_TOKEN_TTL: '5' });
    await pool.ready();
    const { url, done } = await pool.signIn('hosted');
    await fetch(await approve(url!));
    await done;
    expect(await pool.call('hosted', 'whoami', {}, never)).toMatchObject({ isError: false });
    const after = await stats(server.port);
    expect(after.refreshes).toBe(1);
    expect(after.expiredRefusals).toBe(0);
    expect(logger.text()).toContain('access token renewed before it ran out');
  });
});
