import { fileAccessError } from '../fs/file-access.js';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { assetsDir } from './session-assets.js';
import type { SessionFile } from './session-file.js';

/** A step kept with an answer (the engine's TurnStep, as the session file holds it). */
type Step =
  | { thinking: string }
  | { tool: { server: string; name: string; arguments: unknown; ok: boolean; result: string } };

/**
 * A conversation as Markdown to keep or share: a heading per turn, the model's thinking folded away in a
 * `<details>` block, each tool call with its arguments and result, pictures as links to the copies exported
 * beside the file (`assets`: the folder's name relative to it).
 */
export function sessionMarkdown(session: SessionFile, fallbackTitle: string, assets: string): string {
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
        const file = `${image.sha256}.${image.mediaType === 'image/png' ? 'png' : 'jpg'}`;
        out.push(`![${image.name}](${encodeURI(`${assets}/${file}`)})`, '');
      }
      continue;
    }
    out.push(`### Answer${message.model ? ` (${message.model})` : ''}`, '');
    for (const step of (Array.isArray(message.steps) ? message.steps : []) as Step[])
      out.push(...stepLines(step));
    out.push(message.content, '');
  }
  return `${out.join('\n').trimEnd()}\n`;
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
  // A JSON export is the session file's bytes as they are.
  const text =
    format === 'md' ? sessionMarkdown(session, base, path.basename(assets)) : await fs.readFile(sessionFile);
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
