import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeCliHome } from '../../helpers/cli-home.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { HacPty, plain } from '../../helpers/pty.js';
import { runHac } from '../../helpers/run-hac.js';
import { useTempDir } from '../../helpers/temp-home.js';

// `hac mcp …` through pipes, as a user coming from another MCP client types it.
const tempDir = useTempDir('hac-mcp-cli-');

function home(servers?: string) {
  const dir = tempDir();
  mkdirSync(path.join(dir, '.humble-ai-cli'));
  const file = path.join(dir, '.humble-ai-cli', 'mcp-servers.json');
  if (servers !== undefined) writeFileSync(file, servers);
  return { dir, file };
}

describe('hac mcp', () => {
  it('adds-gets-lists-and-removes-keeping-the-rest-of-the-file-as-written', async () => {
    const written =
      '\uFEFF{\n\t"note": "mine",\n\t"mcpServers": {\n\t\t"tools": ' +
      JSON.stringify(testServerEntry()) +
      '\n\t}\n}\n';
    // Kept in a dotfiles folder and linked, as many keep their configuration.
    const { dir, file: link } = home();
    const file = path.join(dir, 'dotfiles-mcp.json');
    writeFileSync(file, written);
    symlinkSync(file, link);
    const run = (...args: string[]) => runHac(dir, ['mcp', ...args]);

    expect(
      await run(
        'add',
        'docs',
        'https://mcp.example.com/mcp',
        '--header',
        'Authorization: Bearer sk-live-abcdef',
      ),
    ).toMatchObject({ status: 0 });
    expect(
      await run(
        'add',
        'fs',
        '-e',
        'ROOT=/srv',
        '-e',
        'TOKEN=${FS_TOKEN}',
        '--',
        'npx',
        '-y',
        '@modelcontextprotocol/server-filesystem',
        '/srv',
      ),
    ).toMatchObject({ status: 0 });
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('\uFEFF{\n\t"note": "mine",\n\t"mcpServers": {\n\t\t"tools": ')).toBe(true);
    const json = JSON.parse(text.slice(1)) as {
      mcpServers: Record<string, unknown>;
    };
    expect(Object.keys(json.mcpServers)).toEqual(['tools', 'docs', 'fs']);
    expect(json.mcpServers.docs).toEqual({
      url: 'https://mcp.example.com/mcp',
      type: 'http',
      headers: { Authorization: 'Bearer sk-live-abcdef' },
    });
    expect(json.mcpServers.fs).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv'],
      env: { ROOT: '/srv', TOKEN: '${FS_TOKEN}' },
    });

    // A name taken is not overwritten, and says so as a failure.
    const again = await run('add', 'docs', 'https://elsewhere.example/mcp');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('an MCP server named "docs" exists already');

    const got = await run('get', 'docs');
    expect(got.status).toBe(0);
    expect(got.stdout).toContain('"Authorization": "(hidden)"');
    expect(got.stdout).not.toContain('sk-live-abcdef');
    expect((await run('get', 'fs')).stdout).toContain('"TOKEN": "${FS_TOKEN}"');

    expect(await run('remove', 'docs')).toMatchObject({ status: 0, stdout: 'Removed "docs".\n' });
    expect(await run('remove', 'fs')).toMatchObject({ status: 0 });
    const listed = await run('list');
    // Each server with what starts it.
    expect(listed.stdout).toMatch(/^tools: \S+ \S+test-server\.mjs stdio — connected, \d+ tools\n$/);
    expect(readFileSync(file, 'utf8')).toBe(written);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(await run('get', 'nope')).toMatchObject({ status: 1 });
  });

  it('imports-another-clients-servers-each-with-a-line-and-says-what-cannot-be-carried-over', async () => {
    const { dir, file } = home();
    const vscode = path.join(dir, 'project', '.vscode');
    mkdirSync(vscode, { recursive: true });
    writeFileSync(
      path.join(vscode, 'mcp.json'),
      `{
  // VS Code's format: "servers", "type", and values it asks for
  "inputs": [{ "type": "promptString", "id": "github-token", "password": true }],
  "servers": {
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": { "Authorization": "Bearer \${input:github-token}" } },
    "local": { "type": "stdio", "command": "node", "args": ["server.js"], "env": { "HOME_DIR": "\${env:HOME}" } },
    "broken": { "type": "stdio" }
  }
}`,
    );
    const claude = path.join(dir, 'xdg', 'Claude');
    mkdirSync(claude, { recursive: true });
    writeFileSync(
      path.join(claude, 'claude_desktop_config.json'),
      JSON.stringify({
        mcpServers: {
          memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
          local: { command: 'other' },
        },
      }),
    );
    const fromVscode = await runHac(path.join(dir, 'project'), ['mcp', 'import', 'vscode'], {
      env: { HOME: dir, HAC_HOME: path.join(dir, '.humble-ai-cli') },
    });
    expect(fromVscode.status).toBe(0);
    expect(fromVscode.stdout).toContain('Added "github" from ');
    expect(fromVscode.stdout).toContain(
      '"github": ${input:github-token} (asked by VS Code) became ${GITHUB_TOKEN}: set GITHUB_TOKEN before starting hac.',
    );
    expect(fromVscode.stdout).toContain('Skipped "broken" from ');
    const fromClaude = await runHac(dir, ['mcp', 'import', 'claude-desktop'], {
      env: { XDG_CONFIG_HOME: path.join(dir, 'xdg') },
    });
    expect(fromClaude.stdout).toContain('Added "memory" from ');
    expect(fromClaude.stdout).toContain('Skipped "local": a server of that name exists already.');
    const servers = (JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, unknown> })
      .mcpServers;
    expect(servers).toEqual({
      github: {
        url: 'https://api.githubcopilot.com/mcp/',
        type: 'http',
        headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
      },
      local: { command: 'node', args: ['server.js'], env: { HOME_DIR: '${HOME}' } },
      memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
    });
    const none = await runHac(dir, ['mcp', 'import', path.join(dir, 'missing.json')]);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('found none of:');
  });

  it('takes---help-and-says-the-usage-for-a-wrong-line', async () => {
    const { dir } = home();
    const help = await runHac(dir, ['mcp', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('hac mcp add <name> <url>');
    expect((await runHac(dir, ['mcp', 'add', '--help'])).status).toBe(0);
    expect((await runHac(dir, ['web', '--help'])).status).toBe(0);
    // The real file, under HAC_HOME.
    expect(help.stdout).toContain(path.join(dir, '.humble-ai-cli', 'mcp-servers.json'));
    const wrong = await runHac(dir, ['mcp', 'add', 'x']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('a remote server is: hac mcp add <name> <url>');
    // An unknown option: one plain line and the way to the usage, exit 2.
    const unknown = await runHac(dir, ['mcp', 'add', 'x', '--frob', 'https://a.example/mcp']);
    expect(unknown).toMatchObject({
      status: 2,
      stderr: 'hac mcp: unknown option --frob\nRun "hac mcp --help" for the usage.\n',
    });
    const scope = await runHac(dir, ['mcp', 'add', '-s', 'project', 'x', 'https://a.example/mcp']);
    expect(scope.status).toBe(2);
    expect(scope.stderr).toContain('--scope project is not supported: hac keeps one list of servers');
  });

  it('adds-as-claude-code-and-gemini-cli-users-type-it-and-writes-a-tidy-new-file', async () => {
    const { dir, file } = home();
    const run = (...args: string[]) => runHac(dir, ['mcp', ...args]);
    // Without `--`: a first argument that is not an address is the command, its own options included.
    expect(
      await run('add', '-s', 'user', 'fs', 'npx', '-y', '@modelcontextprotocol/server-filesystem', '/root'),
    ).toMatchObject({ status: 0 });
    expect(
      await run('add-json', 'docs', '{"url": "https://mcp.example.com/mcp", "type": "http"}'),
    ).toMatchObject({
      status: 0,
    });
    const bad = await run('add-json', 'broken', '{"url": "ftp://x"}');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('mcpServers.broken.url');
    expect(await run('add-json', 'fs', '{"command": "other"}')).toMatchObject({ status: 1 });
    const text = readFileSync(file, 'utf8');
    const servers = {
      mcpServers: {
        fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/root'] },
        docs: { url: 'https://mcp.example.com/mcp', type: 'http' },
      },
    };
    // A file hac creates is laid out as JSON.stringify(…, null, 2) would.
    expect(text).toBe(`${JSON.stringify(servers, null, 2)}\n`);
  });

  it('says-why-each-server-did-not-start-in-plain-words-once', async () => {
    // A port nothing listens on: one that was just free.
    const free = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const { dir } = home(
      JSON.stringify({
        mcpServers: {
          missing: { command: 'no-such-mcp-server' },
          down: { url: `http://127.0.0.1:${free}/mcp`, type: 'http' },
          old: { url: `http://127.0.0.1:${free}/sse`, type: 'sse' },
          crash: {
            command: process.execPath,
            args: ['-e', "console.error('set API_KEY first'); process.exit(3)"],
          },
        },
      }),
    );
    const listed = await runHac(dir, ['mcp', 'list']);
    expect(listed.stdout.split('\n')).toEqual([
      'missing: no-such-mcp-server — failed: the command "no-such-mcp-server" was not found: is it installed and on PATH? Check "command" (mcp-servers.json)',
      `down: http://127.0.0.1:${free}/mcp — failed: nothing answers at http://127.0.0.1:${free}/mcp (connection refused): is the server running?`,
      `old: http://127.0.0.1:${free}/sse — failed: nothing answers at http://127.0.0.1:${free}/sse (connection refused): is the server running?`,
      `crash: ${process.execPath} -e "console.error('set API_KEY first'); process.exit(3)" — failed: "${process.execPath}" ended before it answered; its last words: set API_KEY first (/mcp shows more)`,
      '',
    ]);
  });

  it('in-a-terminal-says-when-an-added-server-does-not-start-or-will-not-fit', async () => {
    // Two thousand characters for tools (toolShare of a small contextMaxChars): the test server takes more.
    const dir = tempDir();
    writeCliHome(dir, 'http://127.0.0.1:9/v1', { config: { contextMaxChars: 4_000 } });
    const entry = testServerEntry() as { command: string; args: string[] };
    const added = new HacPty(dir, ['mcp', 'add', 'tools', '--', entry.command, ...entry.args]);
    await added.exited;
    const text = plain(added.output);
    expect(text).toContain('Added "tools" to ');
    expect(text).toMatch(
      /Tool definitions may take 2,000 characters of a request \(toolShare of contextMaxChars\): the tools of "tools" \([\d,]+ characters\) are not offered\. Use \/toggle-mcp to choose the servers\./,
    );
    const crash = new HacPty(dir, ['mcp', 'add', 'crash', '--', process.execPath, '-e', 'process.exit(3)']);
    await crash.exited;
    expect(plain(crash.output)).toMatch(/"crash": failed: .* ended before it answered/);
    // Through a pipe (a script), nothing is started: the one line, at once.
    const piped = await runHac(dir, ['mcp', 'add', 'later', '--', process.execPath, '-e', 'process.exit(3)']);
    expect(piped.stdout.trim().split('\n')).toEqual([
      `Added "later" to ${path.join(dir, '.humble-ai-cli', 'mcp-servers.json')}.`,
    ]);
  });
});
