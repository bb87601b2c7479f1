import { updateJsonFile } from '../config/json-edit.js';
import { parseJsonText, readRawIfExists, stripBom } from '../config/read-json-file.js';

/** A server entry as mcp-servers.json holds it, written as the user would have written it. */
export type ServerEntry = Record<string, unknown>;

/** The entries of mcp-servers.json as written (`${VAR}` left as it is), in file order; none when it is missing. */
export async function readServerEntries(file: string): Promise<Record<string, ServerEntry>> {
  const raw = await readRawIfExists(file);
  if (raw === undefined) return {};
  const json = parseJsonText(file, stripBom(raw)) as { mcpServers?: unknown };
  const servers = json?.mcpServers;
  return typeof servers === 'object' && servers !== null ? (servers as Record<string, ServerEntry>) : {};
}

/**
 * Adds a server unless one of that name exists; the rest of the file stays as written (comments, order, BOM, a
 * symlink), and it is written atomically. False when the name was taken.
 */
export async function addServerEntry(file: string, name: string, entry: ServerEntry): Promise<boolean> {
  let added = false;
  await updateJsonFile(file, (current) => {
    const servers = (current as { mcpServers?: Record<string, unknown> } | null)?.mcpServers;
    if (servers && Object.hasOwn(servers, name)) return [];
    added = true;
    return [{ path: ['mcpServers', name], value: entry }];
  });
  return added;
}

/** Removes a server; false when there was none of that name. */
export async function removeServerEntry(file: string, name: string): Promise<boolean> {
  let removed = false;
  await updateJsonFile(file, (current) => {
    const servers = (current as { mcpServers?: Record<string, unknown> } | null)?.mcpServers;
    if (!servers || !Object.hasOwn(servers, name)) return [];
    removed = true;
    return [{ path: ['mcpServers', name], value: undefined }];
  });
  return removed;
}
