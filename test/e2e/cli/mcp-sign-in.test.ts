import { execFile } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { HAC_BIN, HacPty, plain } from '../../helpers/pty.js';
import { useTempDir } from '../../helpers/temp-home.js';
import { runHac } from '../../helpers/run-hac.js';
import { root, startListening } from '../../integration/mcp/helpers.js';

// Signing in to a hosted MCP server from the terminal, from outside: hac in a pty, the MCP SDK's own OAuth
// server and protected MCP endpoint on loopback, the browser played by a script (BROWSER) and an HTTP client.

const oauthServer = path.join(root, 'test/fixtures/mcp/oauth-server.mjs');
const hostileAuthServer = path.join(root, 'test/fixtures/mcp/hostile-auth-server.mjs');
const tempDir = useTempDir('hac-sign-in-');
const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(serverEnv: NodeJS.ProcessEnv = {}) {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const server = await startListening([oauthServer], serverEnv);
  cleanups.push(() => server.stop());
  const home = tempDir();
  const hacHome = writeCliHome(home, fake.baseUrl, {
    servers: { hosted: { url: `http://127.0.0.1:${server.port}/mcp`, type: 'http' } },
    config: { toolCallMode: 'auto' },
  });
  // The "browser": writes down the link it was asked to open.
  const opened = path.join(home, 'opened.txt');
  const browser = path.join(home, 'browser.sh');
  writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > "${opened}"\n`);
  chmodSync(browser, 0o755);
  return { fake, server, home, hacHome, opened, browser };
}

describe('signing in to a hosted MCP server in the terminal', () => {
  it('says-needs-sign-in-logs-in-through-the-browser-then-its-tool-works-and-no-token-is-ever-shown', async () => {
    const { fake, home, hacHome, opened, browser } = await setup();
    const hac = new HacPty(home, [], { BROWSER: browser });
    cleanups.push(() => hac.kill());
    await hac.waitFor('humble-ai> ');
    await hac.waitFor('MCP server "hosted" needs sign-in: /mcp login hosted');
    hac.write('/mcp\r');
    await hac.waitFor('hosted: needs sign-in (/mcp login hosted)');

    hac.write('/mcp login hosted\r');
    await hac.waitFor('Sign in to "hosted" in your browser:');
    await hac.waitFor('paste the address it ends on: /mcp login hosted <address>');
    // The link went to the browser, and is on screen as one line.
    await expect.poll(() => readFileSync(opened, 'utf8').length, { timeout: 5000 }).toBeGreaterThan(0);
    const link = readFileSync(opened, 'utf8');
    expect(plain(hac.output)).toContain(link);
    const back = await fetch(link, { redirect: 'manual' });
    expect(await (await fetch(back.headers.get('location')!)).text()).toContain('Signed in');
    await hac.waitFor('MCP server "hosted" is signed in and connected (1 tool).');

    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'hosted__whoami', arguments: {} }]),
      openaiReply.text(['You are signed in.']),
    );
    hac.write('who am I?\r');
    await hac.waitFor('You are signed in.');
    expect(JSON.stringify(fake.requests[1])).toContain('signed in as a registered client');

    // Signing in again while signed in: connected at once with the tokens held, never "needs sign-in" on the way.
    const before = plain(hac.output).length;
    await hac.say('/mcp login hosted', 'MCP server "hosted" is connected.');
    expect(plain(hac.output).slice(before)).not.toContain('needs sign-in');

    // The tokens: in one 0600 file, and nowhere else (screen, logs, sessions).
    hac.write('/exit\r');
    await hac.exited;
    const authDir = path.join(hacHome, 'mcp-auth');
    const [file] = readdirSync(authDir);
    expect(statSync(path.join(authDir, file!)).mode & 0o777).toBe(0o600);
    const { tokens } = JSON.parse(readFileSync(path.join(authDir, file!), 'utf8')) as {
      tokens: { access_token: string; refresh_token: string };
    };
    const everywhere = [
      hac.output,
      ...['logs', 'sessions'].flatMap((dir) =>
        readdirSync(path.join(hacHome, dir)).map((f) => readFileSync(path.join(hacHome, dir, f), 'utf8')),
      ),
    ].join('\n');
    expect(everywhere).not.toContain(tokens.access_token);
    expect(everywhere).not.toContain(tokens.refresh_token);
  });

  it('one-shot-never-opens-a-browser-it-names-the-server-on-stderr-and-answers-without-it', async () => {
    const { fake, home, opened, browser } = await setup();
    fake.reply(openaiReply.text(['An answer without tools.']));
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [HAC_BIN, '-p', 'hello'], {
      cwd: home,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        HAC_HOME: path.join(home, '.humble-ai-cli'),
        BROWSER: browser,
      },
    });
    expect(stdout).toBe('An answer without tools.\n');
    expect(stderr).toContain('MCP server "hosted" needs sign-in: /mcp login hosted');
    expect(() => statSync(opened)).toThrow();
  });

  it.each([
    ['http://evil.example/authorize', 'is not HTTPS (plain http only on this machine)'],
    ['file:///etc/passwd', 'is not a web address (file:)'],
  ])(
    'an-authorization-endpoint-at-%s-is-refused-before-anything-is-registered-or-opened',
    async (authorize, why) => {
      const fake = await startOpenAIFake();
      cleanups.push(() => fake.close());
      const server = await startListening([hostileAuthServer], { HOSTILE_AUTHORIZE: authorize });
      cleanups.push(() => server.stop());
      const home = tempDir();
      writeCliHome(home, fake.baseUrl, {
        servers: { evil: { url: `http://127.0.0.1:${server.port}/mcp`, type: 'http' } },
      });
      const opened = path.join(home, 'opened.txt');
      const browser = path.join(home, 'browser.sh');
      writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > "${opened}"\n`);
      chmodSync(browser, 0o755);
      const hac = new HacPty(home, [], { BROWSER: browser });
      cleanups.push(() => hac.kill());
      await hac.waitFor('humble-ai> ');
      const refusal = `its authorization endpoint ${authorize} ${why}, so hac refused to sign in: nothing was registered or opened`;
      await hac.waitFor(`MCP server "evil" failed: ${refusal}`);
      await hac.say('/mcp login evil', `Sign-in to "evil" failed: ${refusal}`);
      await hac.waitFor('humble-ai> ', { from: plain(hac.output).lastIndexOf(refusal) });
      expect(plain(hac.output)).not.toContain('No browser could be opened');
      expect(plain(hac.output)).not.toContain('Sign in to "evil" in your browser');
      expect(() => statSync(opened)).toThrow(); // no browser was asked to open anything
      const stats = (await (await fetch(`http://127.0.0.1:${server.port}/stats`)).json()) as {
        registrations: number;
      };
      expect(stats.registrations).toBe(0);
    },
  );

  describe('an authorization server that follows RFC 9207 (iss in its redirect, as Keycloak)', () => {
    it('signs-in-through-the-browser-whose-page-says-signed-in-only-once-hac-holds-a-token', async () => {
      const { home, opened, browser, server } = await setup({ HAC_TEST_ISS: '1' });
      const hac = new HacPty(home, [], { BROWSER: browser });
      cleanups.push(() => hac.kill());
      await hac.waitFor('MCP server "hosted" needs sign-in: /mcp login hosted');
      hac.write('/mcp login hosted\r');
      await expect.poll(() => readFileSync(opened, 'utf8').length, { timeout: 5000 }).toBeGreaterThan(0);
      const back = await fetch(readFileSync(opened, 'utf8'), { redirect: 'manual' });
      const callback = new URL(back.headers.get('location')!);
      expect(callback.searchParams.get('iss')).toBe(`http://127.0.0.1:${server.port}/`);
      const page = await (await fetch(callback)).text();
      expect(page).toContain('Signed in');
      const first = await hac.waitFor('MCP server "hosted" is signed in and connected (1 tool).');
      expect(plain(hac.output)).not.toMatch(/Issuer mismatch|failed/);
      // Signed out by the server (every token revoked), signing in again (its listener on another port) keeps
      // the one registration (RFC 8252 §7.3).
      await fetch(`http://127.0.0.1:${server.port}/expire?revoke`, { method: 'POST' });
      writeFileSync(opened, '');
      hac.write('/mcp login hosted\r');
      await expect.poll(() => readFileSync(opened, 'utf8').length, { timeout: 5000 }).toBeGreaterThan(0);
      const again = await fetch(readFileSync(opened, 'utf8'), { redirect: 'manual' });
      expect(await (await fetch(again.headers.get('location')!)).text()).toContain('Signed in');
      await hac.waitFor('MCP server "hosted" is signed in and connected (1 tool).', { from: first });
      const stats = (await (await fetch(`http://127.0.0.1:${server.port}/stats`)).json()) as {
        registrations: number;
        codeExchanges: number;
      };
      expect(stats).toMatchObject({ registrations: 1, codeExchanges: 2 });
    });

    it('signs-in-through-a-pasted-address-with-its-iss', async () => {
      const { home, opened, server } = await setup({ HAC_TEST_ISS: '1' });
      // No browser here (over SSH): the user opens the link elsewhere and pastes where it ended.
      const hac = new HacPty(home, [], { BROWSER: path.join(home, 'no-browser.sh') });
      cleanups.push(() => hac.kill());
      await hac.waitFor('MCP server "hosted" needs sign-in: /mcp login hosted');
      hac.write('/mcp login hosted\r');
      const from = await hac.waitFor('paste the address it ends on: /mcp login hosted <address>');
      const link = /(http:\/\/127\.0\.0\.1:\d+\/authorize\S+)/.exec(plain(hac.output))![1]!;
      const back = await fetch(link, { redirect: 'manual' });
      const ended = back.headers.get('location')!;
      expect(new URL(ended).searchParams.get('iss')).toBe(`http://127.0.0.1:${server.port}/`);
      hac.write(`/mcp login hosted ${ended}\r`);
      await hac.waitFor('MCP server "hosted" is signed in and connected (1 tool).', { from });
      expect(existsSync(opened)).toBe(false);
    });
  });

  it('an-authorization-server-without-registration-says-to-add-a-client-id-and-where', async () => {
    const { home, browser } = await setup({ HAC_TEST_NO_DCR: '1' });
    const hac = new HacPty(home, [], { BROWSER: browser });
    cleanups.push(() => hac.kill());
    await hac.waitFor('MCP server "hosted" needs sign-in: /mcp login hosted');
    const advice =
      'add "oauth": {"clientId": "<that id>"} to "hosted" in mcp-servers.json, then /mcp login hosted';
    hac.write('/mcp login hosted\r');
    const first = await hac.waitFor(advice);
    // Tried again, it fails again: said again, not left to /mcp.
    hac.write('/mcp login hosted\r');
    await hac.waitFor(advice, { from: first + advice.length });
    expect(plain(hac.output)).not.toContain('Incompatible auth server');
  });

  it('a-token-endpoint-that-answers-html-is-named-with-its-status-on-each-try-and-the-page-says-so', async () => {
    const { home, opened, browser, server } = await setup({ HAC_TEST_TOKEN_HTML: '1' });
    const hac = new HacPty(home, [], { BROWSER: browser });
    cleanups.push(() => hac.kill());
    await hac.waitFor('MCP server "hosted" needs sign-in: /mcp login hosted');
    const line = `its token endpoint http://127.0.0.1:${server.port}/token answered 502 Bad Gateway with a web page, not a token`;
    let from = 0;
    for (const attempt of [1, 2]) {
      writeFileSync(opened, '');
      hac.write('/mcp login hosted\r');
      await expect.poll(() => readFileSync(opened, 'utf8').length, { timeout: 5000 }).toBeGreaterThan(0);
      const back = await fetch(readFileSync(opened, 'utf8'), { redirect: 'manual' });
      const page = await (await fetch(back.headers.get('location')!)).text();
      expect(page, `attempt ${attempt}`).not.toContain('Signed in');
      expect(page).toContain('502 Bad Gateway');
      from = await hac.waitFor(`MCP server "hosted" failed: ${line}`, { from });
      from += line.length;
    }
    // Pasted back instead (over SSH), the failure is said too.
    writeFileSync(opened, '');
    hac.write('/mcp login hosted\r');
    await expect.poll(() => readFileSync(opened, 'utf8').length, { timeout: 5000 }).toBeGreaterThan(0);
    const ended = (await fetch(readFileSync(opened, 'utf8'), { redirect: 'manual' })).headers.get(
      'location',
    )!;
    hac.write(`/mcp login hosted ${ended}\r`);
    await hac.waitFor(`MCP server "hosted" failed: ${line}`, { from });
    expect(plain(hac.output)).not.toContain('is not valid JSON');
  });

  it('hac-mcp-login-signs-in-from-the-shell-and-logout-forgets-it', async () => {
    const { home, opened, browser } = await setup();
    const env = { BROWSER: browser };
    const login = runHac(home, ['mcp', 'login', 'hosted'], { env });
    await expect
      .poll(() => (existsSync(opened) ? readFileSync(opened, 'utf8').length : 0), { timeout: 10_000 })
      .toBeGreaterThan(0);
    const back = await fetch(readFileSync(opened, 'utf8'), { redirect: 'manual' });
    expect(await (await fetch(back.headers.get('location')!)).text()).toContain('Signed in');
    const done = await login;
    expect(done.stdout).toContain('Sign in to "hosted" in your browser:');
    expect(done.stdout).toContain('MCP server "hosted" is signed in and connected.');
    expect(done.status).toBe(0);
    const listed = await runHac(home, ['mcp', 'list']);
    expect(listed.stdout).toMatch(/^hosted: http:\/\/127\.0\.0\.1:\d+\/mcp — connected, 1 tool\n$/);
    const out = await runHac(home, ['mcp', 'logout', 'hosted']);
    expect(out).toMatchObject({ status: 0, stdout: 'Signed out of "hosted": its tokens are forgotten.\n' });
    expect((await runHac(home, ['mcp', 'list'])).stdout).toMatch(
      /^hosted: http:\/\/127\.0\.0\.1:\d+\/mcp — needs sign-in \(hac mcp login hosted\)\n$/,
    );
  });
});
