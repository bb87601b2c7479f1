import type { SessionListing } from '../sessions/session-store.js';
import type { CommandContext, CommandOutput } from './command-types.js';

/** What `/sessions` showed last in each conversation: `/resume <n>` counts in it (a search's hits too). */
const shown = new WeakMap<CommandContext, SessionListing[]>();

/**
 * `/sessions [words]`: the 20 most recent, numbered, with date, title and message count; with words, the newest 20
 * that hold all of them, each with the line that matched.
 */
export async function sessionsCommand(ctx: CommandContext, arg = ''): Promise<CommandOutput> {
  const words = arg.trim().split(/\s+/).filter(Boolean);
  const listing = words.length ? await ctx.searchSessions(words) : await ctx.listSessions();
  shown.set(ctx, listing);
  if (listing.length === 0)
    return { lines: [words.length ? `No session holds "${words.join(' ')}".` : 'No saved sessions yet.'] };
  const lines = listing.flatMap((s, i) => {
    const line = `  ${i + 1}) ${describe(s)}`;
    return s.readable && s.match ? [line, `       ${s.match}`] : [line];
  });
  const head = words.length ? [`Sessions with "${words.join(' ')}", newest first:`] : [];
  return { lines: [...head, ...lines, 'Use /resume <number> to continue one.'] };
}

/**
 * Session `arg` of the last `/sessions` shown (the recent ones if none was): what `/resume <n>` and `/delete <n>`
 * count in; or the line that says how to name one.
 */
export async function listedSession(
  ctx: CommandContext,
  arg: string,
  command: string,
): Promise<{ chosen: SessionListing; n: number } | CommandOutput> {
  const listing = shown.get(ctx) ?? (await ctx.listSessions());
  const n = /^\d+$/.test(arg.trim()) ? Number(arg.trim()) : NaN;
  const chosen = listing[n - 1];
  if (chosen) return { chosen, n };
  return {
    lines: [
      listing.length ? `Usage: ${command} <1-${listing.length}> (see /sessions).` : 'No saved sessions yet.',
    ],
  };
}

/** How many sessions `/resume` without a number offers. */
const OFFERED = 10;

/**
 * `/resume <n>`: continue the n-th session of the last `/sessions` (the recent ones if none was shown). Without a
 * number, the latest sessions to choose from.
 */
export async function resumeCommand(ctx: CommandContext, arg: string): Promise<CommandOutput> {
  if (!arg.trim()) return offerSessions(ctx);
  if (!/^\d+$/.test(arg.trim())) return resumeByWords(ctx, arg.trim());
  const listed = await listedSession(ctx, arg, '/resume');
  if ('lines' in listed) return listed;
  const { chosen, n } = listed;
  if (!chosen.readable)
    return { lines: [`Session ${n} cannot be read (${chosen.reason}); the file was left unchanged.`] };
  const count = await ctx.resumeSession(chosen.file);
  const [last] = ctx.lastExchanges(1);
  // The conversation itself is drawn again above this line by the front end; a question left without its answer
  // (hac stopped mid-answer, or it failed) is pointed out.
  const open =
    last?.unanswered === 'failed' ? [`Its last question has no answer yet: /retry answers it.`] : [];
  return { lines: [`Resumed "${chosen.title}" (${count} messages).`, ...open] };
}

/** `/resume <words>` (`hac --resume <words>`): the newest session whose title holds them, else whose messages do. */
async function resumeByWords(ctx: CommandContext, words: string): Promise<CommandOutput> {
  const hits = await ctx.searchSessions(words.split(/\s+/));
  const wanted = words.toLowerCase();
  const chosen = hits.find((s) => s.readable && s.title.toLowerCase().includes(wanted)) ?? hits[0];
  if (!chosen) return { lines: [`No session holds "${words}". /sessions lists them.`] };
  shown.set(ctx, [chosen]);
  return resumeCommand(ctx, '1');
}

async function offerSessions(ctx: CommandContext): Promise<CommandOutput> {
  const listing = await ctx.listSessions();
  shown.set(ctx, listing);
  if (listing.length === 0) return { lines: ['No saved sessions yet.'] };
  const choices = listing.slice(0, OFFERED).map(describe);
  return {
    lines: choices.map((choice, i) => `  ${i + 1}) ${choice}`),
    question: {
      prompt: 'Resume which? (Enter keeps this conversation): ',
      choices,
      answer: (reply) =>
        reply.trim() === '' || reply.trim() === '0'
          ? Promise.resolve({ lines: ['Kept this conversation.'] })
          : resumeCommand(ctx, reply),
    },
  };
}

function describe(s: SessionListing): string {
  const d = s.modifiedAt;
  const p = (n: number) => String(n).padStart(2, '0');
  const date = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
  if (!s.readable) return `${date}  ${s.name}  (unreadable: ${s.reason})`;
  return `${date}  ${s.title || s.name}  (${s.messageCount} messages)`;
}
