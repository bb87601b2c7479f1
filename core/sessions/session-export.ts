import { conversationTitle } from './session-index.js';
import { fileAccessError } from '../fs/file-access.js';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { assetName, assetsDir, loadSessionImages } from './session-assets.js';
import type { SessionFile } from './session-file.js';
import type { MessageImage } from '../types/message.js';
import { inertControls, inertJson } from '../text/inert-text.js';

/** A step kept with an answer (the engine's TurnStep, as the session file holds it). */
type Step =
  | { thinking: string }
  | { tool: { server: string; name: string; arguments: unknown; ok: boolean; result: string } };

/**
 * A conversation as Markdown to keep or share: a heading per turn, the model's thinking folded away in a
 * `<details>` block, each tool call with its arguments and result, pictures as links: `picture` gives each
 * picture's address (the copy exported beside the file, or the picture itself as a data: URL).
 */
export function sessionMarkdown(
  session: SessionFile,
  fallbackTitle: string,
  picture: (image: MessageImage, file: string) => string,
): string {
  const out: string[] = [`# ${session.title || fallbackTitle}`, ''];
  const about = [
    session.startedAt && `started ${session.startedAt}`,
    session.model && `model ${session.model}`,
  ];
  if (about.some(Boolean)) out.push(`_Exported from hac; ${about.filter(Boolean).join(', ')}._`, '');
  let turn = 0;
  for (const message of session.messages) {
    if (message.role === 'user') {
      turn += 1;
      out.push(
        `## ${turn}. You${message.createdAt ? ` (${message.createdAt})` : ''}`,
        '',
        message.content,
        '',
      );
      for (const image of message.images ?? []) {
        out.push(`![${image.name}](${picture(image, assetName(image))})`, '');
      }
      continue;
    }
    out.push(`### Answer${message.model ? ` (${message.model})` : ''}`, '');
    for (const step of (Array.isArray(message.steps) ? message.steps : []) as Step[])
      out.push(...stepLines(step));
    out.push(message.content, '');
  }
  // Made inert whole: a model's or a tool's escapes must not act when the file is `cat` or previewed.
  return inertControls(`${out.join('\n').trimEnd()}\n`);
}

function stepLines(step: Step): string[] {
  if ('thinking' in step)
    return ['<details><summary>Thinking</summary>', '', step.thinking.trim(), '', '</details>', ''];
  const { server, name, arguments: args, ok, result } = step.tool;
  return [
    `**Tool call** \`${server}/${name}\`${ok ? '' : ' (failed)'}`,
    '',
    fence('json', JSON.stringify(args, null, 2)),
    '',
    '<details><summary>Result</summary>',
    '',
    fence('', result),
    '',
    '</details>',
    '',
  ];
}

/** A fenced block that its own text cannot close: the fence is longer than any run of backticks inside. */
function fence(language: string, text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${language}\n${text}\n${marks}`;
}

/** Where `/export` wrote, or the file it would not overwrite without asking. */
export type ExportResult = { file: string } | { exists: string };

/**
 * Writes a session for the user to take away: `md` (the Markdown above, its pictures copied beside it) or `json`
 * (the session file as saved, its pictures beside it too), to `target` (a file, or a folder for the session's own
 * name), else the current folder. An existing file is never replaced unless `overwrite`.
 */
/** An export that could not be written, said in one line (the path and what to do). */
export class ExportError extends Error {
  override readonly name = 'ExportError';
}

export async function exportSession(
  sessionFile: string,
  session: SessionFile,
  format: 'md' | 'json',
  target: string | undefined,
  cwd: string,
  overwrite = false,
): Promise<ExportResult> {
  const base = path.basename(sessionFile, '.json');
  const wanted = path.resolve(cwd, target ?? '.');
  const isFolder =
    target === undefined ||
    /[\\/]$/.test(target) ||
    (await fs.stat(wanted).catch(() => undefined))?.isDirectory();
  const file = isFolder ? path.join(wanted, `${base}.${format}`) : wanted;
  const assets = `${file.replace(/\.(md|json)$/i, '')}.assets`;
  // A JSON export is the session file as saved, with what JSON leaves raw escaped.
  const linked = (_image: MessageImage, name: string) => encodeURI(`${path.basename(assets)}/${name}`);
  const text =
    format === 'md'
      ? sessionMarkdown(session, base, linked)
      : inertJson(await fs.readFile(sessionFile, 'utf8'));
  try {
    await fs.writeFile(file, text, { flag: overwrite ? 'w' : 'wx', mode: 0o600 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return { exists: file };
    if (code === 'ENOENT')
      throw new ExportError(`${path.dirname(file)} does not exist: create it first, or give another path.`);
    throw fileAccessError(error, file, 'write');
  }
  const images = session.messages.flatMap((m) => m.images ?? []);
  if (images.length) await fs.cp(assetsDir(sessionFile), assets, { recursive: true, force: overwrite });
  return { file };
}

/**
 * A session as one file to download where the page is (`hac web` over SSH: another machine than hac's): the
 * Markdown with its pictures inside as data: URLs (a picture no longer on disk is named, not shown), or the
 * session file as saved.
 */
export async function sessionDownload(
  sessionFile: string,
  session: SessionFile,
  format: 'md' | 'json',
): Promise<{ file: string; text: string }> {
  const base = path.basename(sessionFile, '.json');
  // Named by what the conversation is called; its file's name (a time stamp and ten letters) is hac's own.
  const name = fileSafe(conversationTitle(session)) || base;
  if (format === 'json')
    return { file: `${name}.json`, text: inertJson(await fs.readFile(sessionFile, 'utf8')) };
  const { images } = await loadSessionImages(
    sessionFile,
    session.messages.flatMap((m) => m.images ?? []),
  );
  const pictures = new Map(
    images.map((image) => [image.sha256, `data:${image.mediaType};base64,${image.data}`]),
  );
  const inside = (image: MessageImage, name: string) => pictures.get(image.sha256) ?? encodeURI(name);
  return { file: `${name}.md`, text: sessionMarkdown(session, base, inside) };
}

/** A title as a file name on any system: no path separators, reserved marks or controls, no leading dot. */
function fileSafe(title: string): string {
  return title
    .replace(/[\\/:*?"<>|\p{Cc}\p{Cf}]/gu, '_')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .slice(0, 60);
}
