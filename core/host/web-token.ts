import { promises as fs } from 'node:fs';
import { writeFileAtomic } from '../fs/atomic-write.js';

/** 256 random bits in base64url: 43 characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The key of `hac web`'s address, kept in a 0600 file of the home, so a tab left open across a restart of
 * `hac web` on the same port still holds a key that opens it and reconnects by itself. `renew` (`hac web
 * --new-token`) makes a new one, which locks out every address given before; so does removing the file. A file
 * that does not hold a key (hand-edited, cut short) is replaced by a new one: it is hac's own, nothing else.
 */
export async function webToken(file: string, renew = false): Promise<string> {
  if (!renew) {
    const kept = (await fs.readFile(file, 'utf8').catch(() => '')).trim();
    if (TOKEN.test(kept)) return kept;
  }
  // Loaded here, not with the module: every start of the CLI loads this module, and crypto costs it time.
  const { randomBytes } = await import('node:crypto');
  const token = randomBytes(32).toString('base64url');
  await writeFileAtomic(file, `${token}\n`, { mode: 0o600 });
  return token;
}
