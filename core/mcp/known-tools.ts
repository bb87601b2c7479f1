import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { Logger } from '../logging/logger.js';
import type { McpToolInfo } from './list-tools.js';

/** What `mcp-tools.json` keeps of one server: its entry's digest and its tools as last listed. */
interface KnownServer {
  entry: string;
  tools: McpToolInfo[];
}

/**
 * Each MCP server's tools as it last listed them, kept in the home (`mcp-tools.json`), so a turn can be sent with
 * them while the server is still starting: a stdio server takes a few hundred milliseconds to list its tools, and
 * its tools rarely change between runs. A list stands only for the entry it was listed under (a digest of the
 * server's mcp-servers.json entry, so its secrets are not kept): an entry that changed is waited for again. The
 * file is replaced on every listing; one that cannot be read is as if there were none.
 */
export class KnownTools {
  private servers: Record<string, KnownServer> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(
    private readonly file: string,
    private readonly logger: Logger,
  ) {}

  /** The tools `server` listed last under the entry whose digest is `entry`; undefined if unknown or changed. */
  get(server: string, entry: string): McpToolInfo[] | undefined {
    const known = this.read()[server];
    return known?.entry === entry && Array.isArray(known.tools) ? known.tools : undefined;
  }

  /** A new listing of `server`: kept, and the file rewritten in the background (the newest state once). */
  remember(server: string, entry: string, tools: readonly McpToolInfo[]): void {
    const servers = this.read();
    const known = servers[server];
    if (known?.entry === entry && JSON.stringify(known.tools) === JSON.stringify(tools)) return;
    servers[server] = { entry, tools: [...tools] };
    if (this.dirty) return; // a write is already waiting: it takes this state
    this.dirty = true;
    this.writing = this.writing.then(async () => {
      this.dirty = false;
      const text = `${JSON.stringify(this.servers, null, 2)}\n`;
      await writeFileAtomic(this.file, text, { mode: 0o600 }).catch((error: unknown) =>
        this.logger.warn(`${this.file} not written: ${String(error)}`),
      );
    });
  }

  /** Every write begun has ended. */
  flush(): Promise<void> {
    return this.writing;
  }

  private read(): Record<string, KnownServer> {
    if (this.servers) return this.servers;
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.file, 'utf8'));
      this.servers = parsed && typeof parsed === 'object' ? (parsed as Record<string, KnownServer>) : {};
    } catch {
      this.servers = {};
    }
    return this.servers;
  }
}

/**
 * The enabled servers of mcp-servers.json in file order, each with its entry's digest (`enabled` left out, so
 * switching a server off and on keeps its list) and its description; undefined when the file cannot be read.
 * Read with a blocking call: the file is small, and a turn needs the answer before it sends.
 */
export function enabledEntries(
  file: string,
): Map<string, { digest: string; description: string }> | undefined {
  let servers: unknown;
  try {
    servers = (JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')) as { mcpServers?: unknown })
      .mcpServers;
  } catch {
    return undefined;
  }
  if (!servers || typeof servers !== 'object') return undefined;
  const found = new Map<string, { digest: string; description: string }>();
  for (const [name, entry] of Object.entries(servers as Record<string, unknown>)) {
    if (!entry || typeof entry !== 'object') continue;
    const { enabled, ...rest } = entry as Record<string, unknown>;
    if (enabled === false) continue;
    const digest = entryDigest(JSON.stringify(rest));
    found.set(name, { digest, description: typeof rest.description === 'string' ? rest.description : '' });
  }
  return found;
}

/**
 * A digest of an entry's text, to tell whether it changed since its tools were listed: two 32-bit FNV-1a hashes
 * with different offsets. Not a secret's protection (mcp-servers.json beside it holds the entry itself, 0600
 * both), only a way not to copy it; node:crypto would cost every start with MCP servers its load time.
 */
function entryDigest(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
