import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  addServerEntry,
  createRuntime,
  hacPaths,
  IMPORT_SOURCES,
  importedServers,
  importFiles,
  inertText,
  nodeUtil,
  readOtherClientFile,
  readServerEntries,
  removeServerEntry,
  serverState,
  userHome,
  type ImportSource,
  type Runtime,
  type ServerEntry,
} from '../../core/index.js';
import { EXIT } from '../exit-codes.js';
import { openInBrowser } from '../open-in-browser.js';

const MCP_HELP = `Usage:
  hac mcp add <name> <url> [--transport http|sse] [--header "K: V"]…    a remote server
  hac mcp add <name> [-e K=V]… -- <command> [args…]                     a local server hac starts
  hac mcp list                  every server, its state once hac tried to connect, its tools
  hac mcp get <name>            one server as mcp-servers.json holds it (secret values hidden)
  hac mcp remove <name>
  hac mcp login <name>          sign in to a remote server in the browser
  hac mcp logout <name>         forget its sign-in
  hac mcp import <claude-desktop|claude-code|vscode|cursor|FILE>
                                add the servers another client has configured

Every change keeps the rest of ~/.humble-ai-cli/mcp-servers.json as you wrote it.
`;

class McpUsage extends Error {}

/** `hac mcp …`: manages mcp-servers.json without editing it by hand, as other MCP clients' CLIs do. */
export async function runMcp(argv: string[]): Promise<number> {
  const [action = '', ...rest] = argv;
  if (action === '' || action === '--help' || action === '-h' || rest.includes('--help')) {
    process.stdout.write(MCP_HELP);
    return action === '' ? EXIT.usage : EXIT.ok;
  }
  const file = hacPaths().mcpServers;
  try {
    switch (action) {
      case 'add':
        return await add(file, rest);
      case 'remove':
        return say(
          (await removeServerEntry(file, named(rest))) ? `Removed "${rest[0]}".` : missing(rest[0]!),
        );
      case 'get':
        return await get(file, named(rest));
      case 'list':
        return await list();
      case 'login':
        return await login(named(rest));
      case 'logout':
        return await logout(named(rest));
      case 'import':
        return await importFrom(file, named(rest));
      default:
        throw new McpUsage(`unknown action "${action}"`);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`hac mcp: ${inertText(message)}\n`);
    if (error instanceof McpUsage) process.stderr.write('Run "hac mcp --help" for the usage.\n');
    return error instanceof McpUsage ? EXIT.usage : EXIT.failed;
  }
}

function say(line: string): number {
  process.stdout.write(`${inertText(line)}\n`);
  return line.startsWith('No MCP server') ? EXIT.failed : EXIT.ok;
}

function named(rest: string[]): string {
  const [name] = rest;
  if (!name || name.startsWith('-')) throw new McpUsage("give the server's name");
  return name;
}

const missing = (name: string) => `No MCP server named "${name}" in mcp-servers.json.`;

async function add(file: string, argv: string[]): Promise<number> {
  const split = argv.indexOf('--');
  const { values, positionals } = nodeUtil.parseArgs({
    args: split < 0 ? argv : argv.slice(0, split),
    allowPositionals: true,
    strict: true,
    options: {
      transport: { type: 'string', short: 't' },
      header: { type: 'string', short: 'H', multiple: true },
      env: { type: 'string', short: 'e', multiple: true },
    },
  });
  const [name, url, ...extra] = positionals;
  if (!name) throw new McpUsage("give the server's name");
  const pairs = (list: string[] | undefined, separator: RegExp, what: string) =>
    Object.fromEntries(
      (list ?? []).map((pair) => {
        const at = pair.search(separator);
        if (at <= 0)
          throw new McpUsage(`${what} "${pair}" is not KEY${what === '--header' ? ': ' : '='}VALUE`);
        return [pair.slice(0, at).trim(), pair.slice(at).replace(separator, '').trim()];
      }),
    );
  let entry: ServerEntry;
  if (split >= 0) {
    const [command, ...args] = argv.slice(split + 1);
    if (!command || url) throw new McpUsage('a local server is: hac mcp add <name> -- <command> [args…]');
    entry = { command, ...(args.length && { args }) };
    if (values.env) entry.env = pairs(values.env, /=/, '-e');
  } else {
    if (!url || extra.length) throw new McpUsage('a remote server is: hac mcp add <name> <url>');
    const transport = (values.transport ?? 'http').toLowerCase();
    if (transport !== 'http' && transport !== 'sse') throw new McpUsage('--transport takes http or sse');
    entry = { url, type: transport };
    if (values.header) entry.headers = pairs(values.header, /:/, '--header');
  }
  if (!(await addServerEntry(file, name, entry)))
    return say(
      `An MCP server named "${name}" exists already: hac mcp remove ${name} first, or choose another name.`,
    );
  process.stdout.write(`Added "${name}" to ${file}.\n`);
  return EXIT.ok;
}

async function get(file: string, name: string): Promise<number> {
  const entry = (await readServerEntries(file))[name];
  if (!entry) return say(missing(name));
  // Values of env and headers are often secrets: their names are shown, the values only as variables.
  const hidden = (map: unknown) =>
    Object.fromEntries(
      Object.entries((map ?? {}) as Record<string, unknown>).map(([k, v]) => [
        k,
        typeof v === 'string' && /^\$\{\w+\}$/.test(v) ? v : '(hidden)',
      ]),
    );
  const shown = {
    ...entry,
    ...(entry.env ? { env: hidden(entry.env) } : {}),
    ...(entry.headers ? { headers: hidden(entry.headers) } : {}),
  };
  process.stdout.write(`${inertText(JSON.stringify({ [name]: shown }, null, 2))}\n`);
  return EXIT.ok;
}

type Pool = NonNullable<Awaited<ReturnType<Runtime['mcpReady']>>>;

/** A runtime with its MCP servers started: what login and logout act on. */
async function withPool(run: (pool: Pool) => Promise<number>): Promise<number> {
  const runtime = await createRuntime({ blockingWrites: true });
  try {
    runtime.startMcp();
    const pool = await runtime.mcpReady();
    if (!pool) throw new Error(`no MCP servers in ${runtime.paths.mcpServers}`);
    return await run(pool);
  } finally {
    await runtime.close();
  }
}

async function list(): Promise<number> {
  const runtime = await createRuntime({ blockingWrites: true });
  try {
    runtime.startMcp();
    await runtime.mcpReady();
    const { servers, error, file } = await runtime.mcpServers();
    if (error) process.stdout.write(`${inertText(error.message)}\n`);
    if (servers.length === 0 && !error) process.stdout.write(`No MCP servers configured in ${file}.\n`);
    for (const s of servers) {
      const state = serverState(s, 'hac mcp login');
      const tools =
        s.enabled && s.state === 'connected'
          ? `, ${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`
          : '';
      process.stdout.write(`${inertText(`${s.name}: ${state}${tools}`)}\n`);
    }
    return EXIT.ok;
  } finally {
    await runtime.close();
  }
}

async function login(name: string): Promise<number> {
  return withPool(async (pool) => {
    const { url, done } = await pool.signIn(name);
    if (url) {
      process.stdout.write(
        `Sign in to "${name}" in your browser:\n${url.href}\nIf the browser cannot reach this machine (SSH), paste the address it ends on here and press Enter.\n`,
      );
      openInBrowser(url.href, () =>
        process.stdout.write('No browser could be opened: open the address above.\n'),
      );
      // A pasted address finishes the sign-in the same way the browser's redirect does.
      const { createInterface } = await import('node:readline');
      const lines = createInterface({ input: process.stdin, terminal: false });
      lines.on('line', (line) => line.trim() && pool.pasteSignIn(name, line.trim()));
      try {
        await done;
      } finally {
        lines.close();
      }
    } else await done;
    process.stdout.write(`MCP server "${name}" is signed in and connected.\n`);
    return EXIT.ok;
  });
}

async function logout(name: string): Promise<number> {
  return withPool(async (pool) =>
    say(
      (await pool.signOut(name))
        ? `Signed out of "${name}": its tokens are forgotten.`
        : `"${name}" had no sign-in.`,
    ),
  );
}

async function importFrom(file: string, from: string): Promise<number> {
  const cwd = process.cwd();
  const files = (IMPORT_SOURCES as readonly string[]).includes(from)
    ? importFiles(from as ImportSource, userHome(), cwd, process.env)
    : [path.resolve(from)];
  let read = 0;
  for (const source of files) {
    let text: string;
    try {
      text = await readFile(source, 'utf8');
    } catch {
      continue;
    }
    read += 1;
    for (const found of importedServers(readOtherClientFile(source, text), cwd)) {
      if ('skipped' in found) {
        say(`Skipped "${found.name}" from ${source}: ${found.skipped}.`);
        continue;
      }
      const added = await addServerEntry(file, found.name, found.entry);
      say(
        added
          ? `Added "${found.name}" from ${source}.`
          : `Skipped "${found.name}": a server of that name exists already.`,
      );
      for (const note of found.notes) say(`  "${found.name}": ${note}.`);
    }
  }
  if (read === 0) throw new Error(`found none of: ${files.join(', ')}`);
  return EXIT.ok;
}
