import path from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { ServerEntry } from './server-entries.js';

/** The clients whose MCP servers `hac mcp import` reads, by the name the user types. */
export const IMPORT_SOURCES = ['claude-desktop', 'claude-code', 'vscode', 'cursor'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** Where each client keeps its servers on this machine, user-wide first, then the project in `cwd`. */
export function importFiles(
  source: ImportSource,
  home: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): string[] {
  switch (source) {
    case 'claude-desktop': {
      const folder =
        process.platform === 'darwin'
          ? path.join(home, 'Library', 'Application Support')
          : process.platform === 'win32'
            ? (env.APPDATA ?? path.join(home, 'AppData', 'Roaming'))
            : (env.XDG_CONFIG_HOME ?? path.join(home, '.config'));
      return [path.join(folder, 'Claude', 'claude_desktop_config.json')];
    }
    case 'claude-code':
      return [path.join(home, '.claude.json'), path.join(cwd, '.mcp.json')];
    case 'vscode': {
      const user =
        process.platform === 'darwin'
          ? path.join(home, 'Library', 'Application Support', 'Code', 'User')
          : process.platform === 'win32'
            ? path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Code', 'User')
            : path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Code', 'User');
      return [path.join(user, 'mcp.json'), path.join(cwd, '.vscode', 'mcp.json')];
    }
    case 'cursor':
      return [path.join(home, '.cursor', 'mcp.json'), path.join(cwd, '.cursor', 'mcp.json')];
  }
}

/** Another client's config file: VS Code and Cursor allow comments and trailing commas in theirs. */
export function readOtherClientFile(file: string, text: string): unknown {
  const errors: ParseError[] = [];
  const json: unknown = parse(text, errors, { allowTrailingComma: true });
  const [first] = errors;
  if (first)
    throw new Error(`${file} cannot be read: ${printParseErrorCode(first.error)} at offset ${first.offset}`);
  return json;
}

/** One server found in another client's file: hac's entry for it, or why it cannot be carried over. */
export type ImportedServer =
  { name: string; entry: ServerEntry; notes: string[] } | { name: string; skipped: string };

/**
 * The servers of another client's config file, as mcp-servers.json entries. The formats differ: `mcpServers`
 * (Claude, Cursor, gemini-cli's `httpUrl`), VS Code's `servers` with `type` and `${input:…}` placeholders, and
 * Claude Code's per-project lists. Values are kept as written (a secret stays where it was written, a
 * `${VAR}` stays a variable); what cannot be carried over is said in one note per server.
 */
export function importedServers(json: unknown, cwd: string): ImportedServer[] {
  const root = (json ?? {}) as Record<string, unknown>;
  const lists = [root.mcpServers, root.servers];
  // Claude Code keeps a project's servers under its folder in ~/.claude.json.
  const projects = root.projects as Record<string, { mcpServers?: unknown }> | undefined;
  lists.push(projects?.[cwd]?.mcpServers);
  const found: ImportedServer[] = [];
  for (const list of lists) {
    if (typeof list !== 'object' || list === null) continue;
    for (const [name, raw] of Object.entries(list as Record<string, unknown>)) found.push(convert(name, raw));
  }
  return found;
}

function convert(name: string, raw: unknown): ImportedServer {
  if (typeof raw !== 'object' || raw === null) return { name, skipped: 'its entry is not an object' };
  const given = raw as Record<string, unknown>;
  const notes: string[] = [];
  const text = (value: unknown) => (typeof value === 'string' ? carried(value, notes) : value);
  const map = (value: unknown) =>
    typeof value === 'object' && value !== null
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, text(v)]))
      : undefined;
  const url = given.url ?? given.httpUrl ?? given.serverUrl;
  const entry: ServerEntry = {};
  if (typeof given.command === 'string') {
    entry.command = text(given.command);
    if (Array.isArray(given.args)) entry.args = given.args.map(text);
    if (given.env) entry.env = map(given.env);
    if (typeof given.cwd === 'string') entry.cwd = text(given.cwd);
  } else if (typeof url === 'string') {
    entry.url = text(url);
    const type = [given.type, given.transport].find((v) => typeof v === 'string');
    entry.type = type?.toLowerCase() === 'sse' ? 'sse' : 'http';
    if (given.headers) entry.headers = map(given.headers);
  } else return { name, skipped: 'it has neither "command" nor "url"' };
  if (given.disabled === true || given.enabled === false) entry.enabled = false;
  if (typeof given.envFile === 'string')
    notes.push(`its envFile ${given.envFile} is not read by hac: copy its values into "env"`);
  return { name, entry, notes };
}

/** A value with the other client's placeholders turned into hac's `${VAR}` where that means the same. */
function carried(value: string, notes: string[]): string {
  return value.replace(
    /\$\{(env|input|workspaceFolder|userHome)(?::([^}]*))?\}/g,
    (whole: string, kind: string, id: string | undefined) => {
      if (kind === 'env') return `\${${id ?? ''}}`;
      if (kind === 'userHome') return '${HOME}';
      if (kind === 'input') {
        const variable = (id ?? '').toUpperCase().replace(/[^A-Z0-9]+/g, '_');
        notes.push(`${whole} (asked by VS Code) became \${${variable}}: set ${variable} before starting hac`);
        return `\${${variable}}`;
      }
      notes.push(`${whole} has no meaning outside VS Code: write the folder instead`);
      return whole;
    },
  );
}
