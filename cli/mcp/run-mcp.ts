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
  parseMcpServers,
  readOtherClientFile,
  readServerEntries,
  removeServerEntry,
  serverState,
  userHome,
  type ImportSource,
  type Runtime,
  type ServerEntry,
  wrapOwnLines,
} from '../../core/index.js';
import { EXIT } from '../exit-codes.js';
import { openInBrowser } from '../open-in-browser.js';

/** The usage, naming the file hac really edits (under HAC_HOME when it is set). */
const mcpHelp = (file: string) => `Usage:
  hac mcp add <name> <url> [--transport http|sse] [--header "K: V"]…    a remote server
  hac mcp add <name> [-e K=V]… [--] <command> [args…]                   a local server hac starts
  hac mcp add-json <name> '<json>'   a server as its mcp-servers.json entry ({"command": …} or {"url": …})
  hac mcp list                  every server, its command or address, its state once hac tried to connect
  hac mcp get <name>            one server as mcp-servers.json holds it (secret values hidden)
  hac mcp remove <name>
  hac mcp login <name>          sign in to a remote server in the browser
  hac mcp logout <name>         forget its sign-in
  hac mcp import <claude-desktop|claude-code|vscode|cursor|FILE>
                                add the servers another client has configured

-s, --scope user is accepted (hac has one list of servers, its user scope). Every change keeps the rest of
${file} as you wrote it.
`;

class McpUsage extends Error {}

/** How long `hac mcp add` and `import` wait for servers to list their tools, to say whether they will fit. */
const FIT_CHECK_MS = 10_000;

/** `hac mcp …`: manages mcp-servers.json without editing it by hand, as other MCP clients' CLIs do. */
export async function runMcp(argv: string[]): Promise<number> {
  const [action = '', ...rest] = argv;
  const file = hacPaths().mcpServers;
  if (action === '' || action === '--help' || action === '-h' || rest.includes('--help')) {
    process.stdout.write(mcpHelp(file));
    return action === '' ? EXIT.usage : EXIT.ok;
  }
  try {
    switch (action) {
      case 'add':
        return await add(file, rest);
      case 'add-json':
        return await addJson(file, rest);
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
  // In a terminal, hac's own lines break at spaces to its width, never mid-word.
  const text = `${inertText(line)}\n`;
  process.stdout.write(process.stdout.isTTY ? wrapOwnLines(text, process.stdout.columns || 80) : text);
  return line.startsWith('No MCP server') ? EXIT.failed : EXIT.ok;
}

function named(rest: string[]): string {
  const [name] = rest;
  if (!name || name.startsWith('-')) throw new McpUsage("give the server's name");
  return name;
}

const missing = (name: string) => `No MCP server named "${name}" in mcp-servers.json.`;

/** The options of `hac mcp add`, each taking a value; `--scope` as Claude Code has it. */
const ADD_OPTIONS: Record<string, 'transport' | 'header' | 'env' | 'scope'> = {
  '--transport': 'transport',
  '-t': 'transport',
  '--header': 'header',
  '-H': 'header',
  '--env': 'env',
  '-e': 'env',
  '--scope': 'scope',
  '-s': 'scope',
};

/**
 * `hac mcp add` as people type it: `<name> <url>`, `<name> -- <command> [args…]`, and `<name> <command>
 * [args…]` without `--` (gemini-cli's and Claude Code's form): a first argument that is not an address is a
 * command, and what follows it is the command's own, `-y` included.
 */
function readAddArgs(argv: string[]) {
  const values: { transport?: string; header: string[]; env: string[]; scope?: string } = {
    header: [],
    env: [],
  };
  const positionals: string[] = [];
  let command: string[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      command = argv.slice(i + 1);
      break;
    }
    const [flag, inline] = arg.startsWith('--') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const option = ADD_OPTIONS[flag];
    if (option) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new McpUsage(`${flag} needs a value`);
      if (option === 'header' || option === 'env') values[option].push(value);
      else values[option] = value;
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') throw new McpUsage(`unknown option ${flag}`);
    positionals.push(arg);
    // After the name, a first argument that is not an address starts the command: the rest is its own.
    if (positionals.length === 2 && !isAddress(arg)) {
      command = [arg, ...argv.slice(i + 1)];
      positionals.pop();
      break;
    }
  }
  return { values, positionals, command };
}

const isAddress = (text: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(text);

async function add(file: string, argv: string[]): Promise<number> {
  const { values, positionals, command } = readAddArgs(argv);
  const [name, url, ...extra] = positionals;
  if (!name) throw new McpUsage("give the server's name");
  checkScope(values.scope);
  const pairs = (list: string[], separator: RegExp, what: string) =>
    Object.fromEntries(
      list.map((pair) => {
        const at = pair.search(separator);
        if (at <= 0)
          throw new McpUsage(`${what} "${pair}" is not KEY${what === '--header' ? ': ' : '='}VALUE`);
        return [pair.slice(0, at).trim(), pair.slice(at).replace(separator, '').trim()];
      }),
    );
  let entry: ServerEntry;
  if (command) {
    const [program, ...args] = command;
    if (!program || url) throw new McpUsage('a local server is: hac mcp add <name> [--] <command> [args…]');
    entry = { command: program, ...(args.length && { args }) };
    if (values.env.length) entry.env = pairs(values.env, /=/, '-e');
  } else {
    if (!url || extra.length) throw new McpUsage('a remote server is: hac mcp add <name> <url>');
    const transport = (values.transport ?? 'http').toLowerCase();
    if (transport !== 'http' && transport !== 'sse') throw new McpUsage('--transport takes http or sse');
    entry = { url, type: transport };
    if (values.header.length) entry.headers = pairs(values.header, /:/, '--header');
  }
  return added(file, name, entry);
}

/** `hac mcp add-json <name> '<json>'`: the entry as mcp-servers.json would hold it, checked before it is added. */
async function addJson(file: string, argv: string[]): Promise<number> {
  const scope = argv.findIndex((a) => a === '-s' || a === '--scope');
  if (scope >= 0) checkScope(argv.splice(scope, 2)[1]);
  const [name, json, ...extra] = argv;
  if (!name || json === undefined || extra.length)
    throw new McpUsage('add-json takes a name and one JSON object');
  let entry: unknown;
  try {
    entry = JSON.parse(json);
  } catch (error) {
    throw new McpUsage(`the JSON does not parse: ${(error as Error).message}`);
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    throw new McpUsage('the JSON must be one object, e.g. {"command": "npx", "args": ["-y", "pkg"]}');
  // Checked as the file will be read: a wrong entry is refused with its fix, never written.
  parseMcpServers(file, JSON.stringify({ mcpServers: { [name]: entry } }));
  return added(file, name, entry as ServerEntry);
}

/** Only the user scope exists: one list of servers, in hac's home. */
function checkScope(scope: string | undefined): void {
  if (scope === undefined || scope === 'user') return;
  throw new McpUsage(
    `--scope ${scope} is not supported: hac keeps one list of servers, in its home (the user scope); use --scope user or leave it out`,
  );
}

async function added(file: string, name: string, entry: ServerEntry): Promise<number> {
  if (!(await addServerEntry(file, name, entry))) {
    process.stderr.write(
      `hac mcp: an MCP server named "${inertText(name)}" exists already: hac mcp remove ${inertText(name)} first, or choose another name.\n`,
    );
    return EXIT.failed;
  }
  say(`Added "${name}" to ${file}.`);
  await sayWhatWillNotFit([name]);
  return EXIT.ok;
}

/**
 * After servers were added, in a terminal: starts the enabled servers as a conversation would and says if one just
 * added did not start, or if its tools will not be offered to the active model (too many, or over the tools'
 * share), in the lines hac gives at start, so nobody finds out only when the model does not use them. A script
 * (no terminal) gets the one line it got before, at once, without starting anything.
 */
async function sayWhatWillNotFit(names: readonly string[]): Promise<void> {
  if (!names.length || !process.stdout.isTTY) return;
  const runtime = await createRuntime({ blockingWrites: true, mcpConnectTimeoutMs: FIT_CHECK_MS });
  try {
    runtime.startMcp();
    await runtime.mcpReady();
    const { servers } = await runtime.mcpServers();
    for (const s of servers.filter((s) => names.includes(s.name) && s.enabled && s.state !== 'connected'))
      say(`"${s.name}": ${serverState(s, 'hac mcp login')}`);
    const lines = await runtime.toolLimitLines();
    if (lines.some((line) => names.some((name) => line.includes(`"${name}"`))))
      for (const line of lines) say(line);
  } catch {
    // A config.json that cannot be read is for the first conversation to say.
  } finally {
    await runtime.close();
  }
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
    if (error) say(error.message);
    if (servers.length === 0 && !error) say(`No MCP servers configured in ${file}.`);
    const entries: Record<string, ServerEntry> = await readServerEntries(file).catch(() => ({}));
    for (const s of servers) {
      const state = serverState(s, 'hac mcp login');
      const tools =
        s.enabled && s.state === 'connected'
          ? `, ${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`
          : '';
      const where = startedBy(entries[s.name]);
      say(`${s.name}: ${where ? `${where} — ` : ''}${state}${tools}`);
    }
    return EXIT.ok;
  } finally {
    await runtime.close();
  }
}

/** What a server is: the command hac starts (with its arguments) or the address it reaches. */
function startedBy(entry: ServerEntry | undefined): string | undefined {
  if (typeof entry?.url === 'string') return entry.url;
  if (typeof entry?.command !== 'string') return undefined;
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  return [entry.command, ...args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ');
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
    say(`MCP server "${name}" is signed in and connected.`);
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
  const imported: string[] = [];
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
      if (added) imported.push(found.name);
      say(
        added
          ? `Added "${found.name}" from ${source}.`
          : `Skipped "${found.name}": a server of that name exists already.`,
      );
      for (const note of found.notes) say(`  "${found.name}": ${note}.`);
    }
  }
  if (read === 0) throw new Error(`found none of: ${files.join(', ')}`);
  await sayWhatWillNotFit(imported);
  return EXIT.ok;
}
