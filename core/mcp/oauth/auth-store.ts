import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import type { Logger } from '../../logging/logger.js';
import type { SecretRegistry } from '../../logging/secrets.js';
import { sha256Hex } from '../../text/sha256.js';
import type { StoredDpopKey } from './dpop-key.js';

/** What hac keeps of one server's sign-in: its registration, its tokens and what discovery found. */
export interface StoredAuth {
  /** The server's URL: one file per URL, so two entries naming the same server share a sign-in. */
  url: string;
  client?: OAuthClientInformationMixed;
  /** The redirect address the registration was made for (a loopback port changes between sign-ins). */
  clientRedirectUrl?: string;
  tokens?: OAuthTokens;
  /** When the access token expires (ms since the epoch), from the `expires_in` it came with. */
  tokensExpireAt?: number;
  discovery?: OAuthDiscoveryState;
  /** The key DPoP-bound tokens are tied to, where the authorization server offers DPoP. */
  dpopKey?: StoredDpopKey;
}

/**
 * Sign-ins of remote MCP servers in `mcp-auth/`: one JSON file per server URL, mode 0600 in a 0700 folder,
 * written atomically. Every token and client secret read or written is registered as a secret, so it never
 * reaches the screen, a log, JSONL or a session file. A file that cannot be read is treated as no sign-in
 * (said once in the log) and set aside, never overwritten in place.
 */
export class McpAuthStore {
  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
    private readonly secrets?: SecretRegistry,
  ) {}

  fileFor(url: string): string {
    return path.join(this.dir, `${sha256Hex(url).slice(0, 24)}.json`);
  }

  async read(url: string): Promise<StoredAuth> {
    const file = this.fileFor(url);
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.logger.warn(`MCP sign-in for ${url}: ${file} cannot be read (${String(error)}); signed out.`);
      return { url };
    }
    try {
      const stored = JSON.parse(text) as StoredAuth;
      if (stored.url !== url) throw new Error(`it is for ${String(stored.url)}`);
      this.register(stored);
      return stored;
    } catch (error) {
      const aside = `${file}.broken`;
      await fs.rename(file, aside).catch(() => undefined);
      this.logger.warn(`MCP sign-in for ${url}: ${file} is not valid (${String(error)}); moved to ${aside}.`);
      return { url };
    }
  }

  async write(stored: StoredAuth): Promise<void> {
    this.register(stored);
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.fileFor(stored.url), `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  }

  async remove(url: string): Promise<boolean> {
    try {
      await fs.unlink(this.fileFor(url));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  private register(stored: StoredAuth): void {
    const values = [
      stored.tokens?.access_token,
      stored.tokens?.refresh_token,
      stored.client?.client_secret,
      stored.dpopKey?.privateJwk.d,
    ];
    this.secrets?.add(values.filter((v): v is string => typeof v === 'string' && v.length > 0));
  }
}
