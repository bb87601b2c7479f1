import { promises as fs } from 'node:fs';

/**
 * A whole file as UTF-8 text, read at once and decoded once. `fs.readFile` with an encoding decodes in 512 KB pieces
 * through a StringDecoder and joins them: about twice as slow to read megabytes (a long session, the sessions'
 * search index), and the joined string it returns was 5-9 times slower to scan line by line than one decoded whole.
 */
export async function readText(file: string): Promise<string> {
  return (await fs.readFile(file)).toString('utf8');
}
