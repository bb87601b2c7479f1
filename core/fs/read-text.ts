import { promises as fs } from 'node:fs';

/**
 * A whole file as UTF-8 text, read at once and decoded once: `fs.readFile` with an encoding decodes in 512 KB
 * pieces through a StringDecoder and joins them, about twice as slow for the megabytes of a long session or of the
 * sessions' search index.
 */
export async function readText(file: string): Promise<string> {
  return (await fs.readFile(file)).toString('utf8');
}
