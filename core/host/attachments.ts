import { existsSync, readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { userHome } from '../config/paths.js';
import type { ImageLimits } from '../images/image-limits.js';
import { expandHome, fetchImage, prepareImage, readImageFile } from '../images/prepare-image.js';
import type { MessageImage } from '../types/message.js';

/** Where a picture comes from: a file, an https address, or bytes a window was given (a paste, a drop). */
export type ImageSource = { file: string } | { url: string } | { bytes: Uint8Array; name: string };

const IMAGE_FILE = /\.(?:png|jpe?g|webp|gif)$/i;

/** Makes a picture from any source ready for a model with these limits; throws ImageInputError. */
export function loadImage(source: ImageSource, limits: ImageLimits, cwd: string): Promise<MessageImage> {
  if ('bytes' in source) return prepareImage(source.bytes, source.name, limits);
  if ('url' in source) return fetchImage(source.url, limits);
  return readImageFile(source.file, cwd, limits);
}

/** What `/image` accepts: an https address, else a file. */
export function imageSourceOf(arg: string): ImageSource {
  return /^https?:\/\//i.test(arg) ? { url: arg } : { file: unquote(arg) };
}

/**
 * The image files a message names with `@path` (also `@"path with spaces.png"`, `~` expanded): each is replaced
 * by its file name in the text, so the sentence still reads. Only names ending in an image extension count, so
 * `@someone` stays text.
 */
export function imageMentions(text: string): { text: string; files: string[] } {
  const files: string[] = [];
  const rest = text.replace(
    /(^|\s)@(?:"([^"]+)"|(\S+?))([,.;:!?)]*)(?=\s|$)/g,
    (whole, before: string, quoted: string | undefined, bare: string | undefined, after: string) => {
      const file = quoted ?? bare ?? '';
      if (!IMAGE_FILE.test(file)) return whole;
      files.push(file);
      return `${before}${path.basename(file)}${after}`;
    },
  );
  return { text: rest, files };
}

/**
 * A line that is nothing but the path of an existing image file: what a terminal types when a file is dropped
 * on it (quoted, with `\ ` escapes, or as a file:// URL).
 */
export function droppedImagePath(line: string, cwd: string): string | undefined {
  let text = line.trim();
  if (text.startsWith('file://')) {
    try {
      text = fileURLToPath(text);
    } catch {
      return undefined;
    }
  }
  text = unquote(text).replace(/\\(.)/g, '$1');
  if (!IMAGE_FILE.test(text) || /\n/.test(text)) return undefined;
  const full = path.resolve(cwd, expandHome(text));
  return existsSync(full) ? text : undefined;
}

function unquote(text: string): string {
  const t = text.trim();
  return /^(['"]).*\1$/.test(t) ? t.slice(1, -1) : t;
}

/**
 * Tab after `@`: the line completed with each folder (ending in `/`) and file (a picture or text to attach) that
 * the typed path starts with; a name with spaces is quoted (`@"my shot.png"`).
 */
export function completeImageMention(line: string, cwd: string): string[] {
  const match = /(^|\s)@"?([^\s"]*)$/.exec(line);
  if (!match) return [];
  const typed = match[2] ?? '';
  const slash = typed.lastIndexOf('/');
  const folder = typed.slice(0, slash + 1);
  const start = typed.slice(slash + 1);
  let entries: Dirent[];
  try {
    entries = readdirSync(path.resolve(cwd, expandHome(folder || '.')), { withFileTypes: true });
  } catch {
    return [];
  }
  const head = line.slice(0, match.index + match[1]!.length);
  return entries
    .filter((e) => e.name.startsWith(start) && (start.startsWith('.') || !e.name.startsWith('.')))
    .filter((e) => e.isDirectory() || e.isFile())
    .map((e) => `${folder}${e.name}${e.isDirectory() ? '/' : ''}`)
    .sort()
    .map((file) => `${head}@${/\s/.test(file) ? `"${file}"` : file}`);
}

/** The folder relative paths are read from: where hac started, or the home folder if that has been removed. */
export function workingDirectory(): string {
  try {
    return process.cwd();
  } catch {
    return userHome();
  }
}
