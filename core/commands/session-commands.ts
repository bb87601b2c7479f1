import type { SessionListing } from '../sessions/session-store.js';
import type { CommandContext, CommandOutput } from './command-types.js';

/** `/sessions`: the 20 most recent, numbered, with date, title and message count. */
export async function sessionsCommand(ctx: CommandContext): Promise<CommandOutput> {
  const listing = await ctx.listSessions();
  if (listing.length === 0) return { lines: ['No saved sessions yet.'] };
  return {
    lines: [...listing.map((s, i) => `  ${i + 1}) ${describe(s)}`), 'Use /resume <number> to continue one.'],
  };
}

/** `/resume <n>`: continue the n-th session of `/sessions`. */
export async function resumeCommand(ctx: CommandContext, arg: string): Promise<CommandOutput> {
  const listing = await ctx.listSessions();
  const n = /^\d+$/.test(arg.trim()) ? Number(arg.trim()) : NaN;
  const chosen = listing[n - 1];
  if (!chosen)
    return {
      lines: [
        listing.length ? `Usage: /resume <1-${listing.length}> (see /sessions).` : 'No saved sessions yet.',
      ],
    };
  if (!chosen.readable)
    return { lines: [`Session ${n} cannot be read (${chosen.reason}); the file was left unchanged.`] };
  const count = await ctx.resumeSession(chosen.file);
  return { lines: [`Resumed "${chosen.title}" (${count} messages).`] };
}

function describe(s: SessionListing): string {
  const d = s.modifiedAt;
  const p = (n: number) => String(n).padStart(2, '0');
  const date = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
  if (!s.readable) return `${date}  ${s.name}  (unreadable: ${s.reason})`;
  return `${date}  ${s.title || s.name}  (${s.messageCount} messages)`;
}
