import { promises as fs, statSync } from 'node:fs';
import path from 'node:path';
import { expandHome } from '../images/prepare-image.js';

/** The most of a text file `@path` attaches: about 25,000 tokens, an eighth of an everyday model's window. */
export const TEXT_FILE_MAX_BYTES = 100_000;

const IMAGE_FILE = /\.(?:png|jpe?g|webp|gif)$/i;

/**
 * The text files a message names with `@path` (also `@"a name with spaces.md"`, `~` expanded) that exist as files:
 * `@someone` or an address that is no file stays text, and pictures are attached as pictures elsewhere.
 */
export function textFileMentions(text: string, cwd: string): string[] {
  const files: string[] = [];
  for (const match of text.matchAll(/(?:^|\s)@(?:"([^"]+)"|(\S+?))[,.;:!?)]*(?=\s|$)/g)) {
    const file = match[1] ?? match[2] ?? '';
    if (!file || IMAGE_FILE.test(file) || files.includes(file)) continue;
    const stat = statSafe(path.resolve(cwd, expandHome(file)));
    if (stat?.isFile()) files.push(file);
  }
  return files;
}

function statSafe(file: string) {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/**
 * A text file's content to send with the message, under its name; throws, in words, for one that is too large or
 * not text (a NUL byte, or bytes that are not UTF-8), so nothing is sent in its place.
 */
export async function readTextAttachment(file: string, cwd: string): Promise<string> {
  const full = path.resolve(cwd, expandHome(file));
  const { size } = await fs.stat(full);
  if (size > TEXT_FILE_MAX_BYTES)
    throw new Error(
      `${file} is ${size.toLocaleString('en-US')} bytes, more than the ${TEXT_FILE_MAX_BYTES.toLocaleString('en-US')} a message attaches: nothing was sent. Attach a part of it, or ask the model to read it with a tool.`,
    );
  const bytes = await fs.readFile(full);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = '\0';
  }
  if (text.includes('\0'))
    throw new Error(`${file} is not a text file: nothing was sent. Only text files attach with @.`);
  return text;
}

/** The file as the model reads it after the message: its name, then its text in a fence it cannot close. */
export function attachedFileText(file: string, text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `File ${file}:\n${fence}\n${text.replace(/\n$/, '')}\n${fence}`;
}
