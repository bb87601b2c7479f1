import { promises as fs } from 'node:fs';
import path from 'node:path';
import type SharpModule from 'sharp';
import type { Metadata } from 'sharp';
import { userHome } from '../config/paths.js';
import { HacError } from '../errors/hac-error.js';
import { sha256Hex } from '../text/sha256.js';
import type { MessageImage } from '../types/message.js';
import { fitWithin, type ImageLimits } from './image-limits.js';

/** An image that cannot be sent: one line that says which and why. Nothing is sent. */
export class ImageInputError extends HacError {
  override readonly name = 'ImageInputError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('image-unusable', message, options);
  }
}

const ACCEPTED = 'PNG, JPEG, WebP or GIF';
const FORMATS = new Set(['png', 'jpeg', 'webp', 'gif']);
/** Larger files are refused before they are decoded. */
const MAX_FILE_BYTES = 50 * 1024 * 1024;

type Sharp = typeof SharpModule;
let sharpModule: Promise<Sharp> | undefined;
// Loaded on the first image only: the native library costs start-up time a plain chat never needs.
const loadSharp = () => (sharpModule ??= import('sharp').then((m) => m.default));

/**
 * Bytes of a picture made ready for a model: PNG, JPEG, WebP or GIF (its first frame); scaled down to fit
 * `limits` when larger (never up). PNG and JPEG that fit go as they are; the rest become PNG (keeps
 * transparency and screenshots sharp) or JPEG (photos). The input is never changed.
 */
export async function prepareImage(
  bytes: Uint8Array,
  name: string,
  limits: ImageLimits,
): Promise<MessageImage> {
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch (error) {
    throw new ImageInputError(`${name} is not an image hac can send (${ACCEPTED}).`, { cause: error });
  }
  const format = meta.format ?? '';
  if (!FORMATS.has(format) || !meta.width || !meta.height)
    throw new ImageInputError(
      `${name} is not an image hac can send (${ACCEPTED}); it is ${format || 'unknown'}.`,
    );
  // EXIF orientation: what the user sees is the rotated picture.
  const turned = (meta.orientation ?? 1) >= 5;
  const width = turned ? meta.height : meta.width;
  const height = turned ? meta.width : meta.height;
  const target = fitWithin(width, height, limits);
  const fits = target.width === width && target.height === height;
  if (fits && (format === 'png' || format === 'jpeg') && (meta.orientation ?? 1) === 1)
    return describe(Buffer.from(bytes), format === 'png' ? 'image/png' : 'image/jpeg', width, height, name);
  const png = format === 'png' || format === 'gif' || (format === 'webp' && meta.hasAlpha === true);
  try {
    let pipeline = sharp(bytes, { failOn: 'none' })
      .rotate()
      .resize(target.width, target.height, { fit: 'fill' });
    pipeline = png ? pipeline.png() : pipeline.jpeg({ quality: 85, mozjpeg: false });
    const out = await pipeline.toBuffer({ resolveWithObject: true });
    return describe(out.data, png ? 'image/png' : 'image/jpeg', out.info.width, out.info.height, name);
  } catch (error) {
    throw new ImageInputError(`${name} could not be read as an image: ${(error as Error).message}.`, {
      cause: error,
    });
  }
}

/** An image file (`~` expanded, relative to `cwd`), made ready with `prepareImage`. */
export async function readImageFile(file: string, cwd: string, limits: ImageLimits): Promise<MessageImage> {
  const full = path.resolve(cwd, expandHome(file));
  let bytes: Buffer;
  try {
    const stat = await fs.stat(full);
    if (!stat.isFile()) throw new ImageInputError(`${file} is not a file.`);
    if (stat.size > MAX_FILE_BYTES)
      throw new ImageInputError(
        `${file} is too large to send (${Math.round(stat.size / 1048576)} MB; 50 MB at most).`,
      );
    bytes = await fs.readFile(full);
  } catch (error) {
    if (error instanceof ImageInputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code;
    throw new ImageInputError(`Cannot read image ${file}: ${why ?? (error as Error).message}.`, {
      cause: error,
    });
  }
  return prepareImage(bytes, path.basename(full), limits);
}

/** An image at an https address, downloaded once and made ready like a file (scaled, any provider). */
export async function fetchImage(
  url: string,
  limits: ImageLimits,
  signal?: AbortSignal,
): Promise<MessageImage> {
  let response: Response;
  try {
    response = await fetch(url, { signal: signal ?? AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new ImageInputError(`Cannot download image ${url}: ${(error as Error).message}.`, { cause: error });
  }
  if (!response.ok) throw new ImageInputError(`Cannot download image ${url}: HTTP ${response.status}.`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength > MAX_FILE_BYTES)
    throw new ImageInputError(`${url} is too large to send (50 MB at most).`);
  const name = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'image');
  return prepareImage(bytes, name, limits);
}

export function expandHome(file: string): string {
  return file === '~' || file.startsWith('~/') ? path.join(userHome(), file.slice(1)) : file;
}

function describe(
  data: Buffer,
  mediaType: MessageImage['mediaType'],
  width: number,
  height: number,
  name: string,
): MessageImage {
  return {
    mediaType,
    data: data.toString('base64'),
    width,
    height,
    bytes: data.byteLength,
    sha256: sha256Hex(data),
    name,
  };
}
