import { promises as fs } from 'node:fs';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { MessageImage } from '../types/message.js';

/**
 * Pictures of a session, stored once beside it: `<session>.assets/<sha256>.<png|jpg>`, 0600, written
 * atomically; the session file names them by hash, never holds their bytes.
 */
export function assetsDir(sessionFile: string): string {
  return `${sessionFile.replace(/\.json$/, '')}.assets`;
}

/** A picture's file name in the assets folder. */
export function assetName(image: Pick<MessageImage, 'sha256' | 'mediaType'>): string {
  return `${image.sha256}.${image.mediaType === 'image/png' ? 'png' : 'jpg'}`;
}

function assetFile(sessionFile: string, image: Pick<MessageImage, 'sha256' | 'mediaType'>): string {
  if (!/^[0-9a-f]{64}$/.test(image.sha256)) throw new Error(`not an image hash: ${image.sha256}`);
  return `${assetsDir(sessionFile)}/${assetName(image)}`;
}

/** Writes the pictures not yet beside the session. */
export async function saveSessionImages(sessionFile: string, images: readonly MessageImage[]): Promise<void> {
  if (!images.length) return;
  await fs.mkdir(assetsDir(sessionFile), { recursive: true, mode: 0o700 });
  for (const image of images) {
    const file = assetFile(sessionFile, image);
    if (!image.data || (await fs.stat(file).catch(() => undefined))) continue;
    await writeFileAtomic(file, Buffer.from(image.data, 'base64'), { mode: 0o600 });
  }
}

/** A session file's record of a picture: everything but its bytes. */
export function imageRecord(image: MessageImage): MessageImage {
  const { data: _bytes, ...record } = image;
  return record;
}

/**
 * The pictures a session names, with their bytes read back; one whose copy is gone or unreadable is left out
 * and named in `missing`, so the message can say so instead of failing.
 */
export async function loadSessionImages(
  sessionFile: string,
  records: readonly MessageImage[],
): Promise<{ images: MessageImage[]; missing: string[] }> {
  const images: MessageImage[] = [];
  const missing: string[] = [];
  for (const record of records) {
    try {
      const bytes = await fs.readFile(assetFile(sessionFile, record));
      images.push({ ...record, data: bytes.toString('base64') });
    } catch {
      missing.push(record.name);
    }
  }
  return { images, missing };
}
