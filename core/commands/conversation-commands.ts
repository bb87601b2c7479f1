import type { CommandContext, CommandOutput } from './command-types.js';
import { listedSession } from './session-commands.js';
import { yesNoQuestion } from './yes-no-question.js';

export const EXPORT_USAGE = 'Usage: /export [md|json] [path] (Markdown by default, to the current folder)';

/** `/rename <title>`: this conversation's session takes the title, and its file the title's name. */
export async function renameCommand(ctx: CommandContext, arg: string): Promise<CommandOutput> {
  const title = arg.trim();
  if (!title) return { lines: ['Usage: /rename <title>'] };
  const file = await ctx.renameSession(title);
  if (!file) return { lines: ['Nothing to rename yet: the session is saved with its first answer.'] };
  return { lines: [`Renamed this session "${title}" (${baseName(file)}).`] };
}

/** `/delete <n>`: session n of the last `/sessions`, after asking, to the trash for 30 days. */
export async function deleteCommand(ctx: CommandContext, arg: string): Promise<CommandOutput> {
  const listed = await listedSession(ctx, arg, '/delete');
  if ('lines' in listed) return listed;
  const { chosen, n } = listed;
  const what = chosen.readable ? `"${chosen.title}" (${chosen.messageCount} messages)` : chosen.name;
  return {
    lines: [`Delete session ${n}, ${what}? It waits in sessions/.trash/ for 30 days.`],
    question: yesNoQuestion(
      'Delete it? (1 to delete, 0 to keep): ',
      'Delete it',
      async () => {
        const current = ctx.currentSession() === chosen.file;
        await ctx.deleteSession(chosen.file);
        if (current) await ctx.newSession();
        return {
          lines: [
            `Moved ${what} to sessions/.trash/ (kept 30 days).`,
            ...(current ? ['It was this conversation: a new session starts with your next message.'] : []),
          ],
        };
      },
      { lines: ['Kept.'] },
    ),
  };
}

/** `/export [md|json] [path]`: this conversation, to keep or share; asks before replacing a file. */
export async function exportCommand(ctx: CommandContext, arg: string): Promise<CommandOutput> {
  const [first = '', ...rest] = arg.trim().split(/\s+/).filter(Boolean);
  const format = first === 'md' || first === 'json' ? first : 'md';
  // A lone word without a dot or a slash is a format (`/export pdf`), never a file name.
  if (first && format !== first && !rest.length && !/[./\\]/.test(first))
    return { lines: [`Unknown export format "${first}": use md or json, e.g. /export md ~/notes/chat.md`] };
  const target = (first === 'md' || first === 'json' ? rest : [first, ...rest]).join(' ') || undefined;
  let written: Awaited<ReturnType<CommandContext['exportSession']>>;
  try {
    written = await ctx.exportSession(format, target, false);
  } catch (error) {
    return { lines: [`Not exported: ${error instanceof Error ? error.message : String(error)}`] };
  }
  if (!written) return { lines: ['Nothing to export yet: the session is saved with its first answer.'] };
  if ('file' in written) return { lines: [`Exported this conversation to ${written.file}`] };
  return {
    lines: [`${written.exists} exists.`],
    question: yesNoQuestion(
      'Replace it? (1 to replace, 0 to keep it): ',
      'Replace it',
      async () => {
        const again = await ctx.exportSession(format, target, true);
        return {
          lines: [again && 'file' in again ? `Exported this conversation to ${again.file}` : 'Not exported.'],
        };
      },
      { lines: ['Not exported.'] },
    ),
  };
}

/** `/rewind [n]`: says which of the last n exchanges will go, then takes them back after a yes. */
export function rewindCommand(ctx: CommandContext, arg: string): CommandOutput {
  const n = arg.trim() ? Number(arg.trim()) : 1;
  if (!Number.isInteger(n) || n < 1)
    return { lines: ['Usage: /rewind [n] (the last n exchanges, 1 by default)'] };
  const going = ctx.lastExchanges(n);
  if (!going.length) return { lines: ['Nothing to rewind: no exchange yet.'] };
  return {
    lines: [
      `This takes back ${going.length === 1 ? 'the last exchange' : `the last ${going.length} exchanges`}, from the conversation and its file:`,
      ...going.map((e) => `  - ${short(e.user)} → ${short(e.answer)}`),
    ],
    question: yesNoQuestion(
      'Take them back? (1 to do it, 0 to keep them): ',
      'Take them back',
      async () => {
        const count = await ctx.rewind(n);
        return { lines: [`Took back ${count === 1 ? 'the last exchange' : `${count} exchanges`}.`] };
      },
      { lines: ['Nothing changed.'] },
    ),
  };
}

/** The first line of a message, cut to 50 characters, quoted. */
export function short(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  const chars = [...line];
  return `"${chars.slice(0, 50).join('')}${chars.length > 50 ? '…' : ''}"`;
}

function baseName(file: string): string {
  return file.split(/[\\/]/).at(-1) ?? file;
}
