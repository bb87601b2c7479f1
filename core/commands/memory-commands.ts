import { yesNoQuestion } from './yes-no-question.js';
import type { CommandContext, CommandOutput } from './command-types.js';

/** How many lines of each AGENTS.md `/memory` shows; the rest is counted. */
const SHOWN_LINES = 8;

/** `/remember <text>`: one more line in memory.md, sent with every later request. */
export async function rememberCommand(ctx: CommandContext, arg: string): Promise<CommandOutput> {
  if (!arg.trim()) return { lines: ['Usage: /remember <text> (adds a line to your memory.md)'] };
  const line = await ctx.remember(arg);
  return { lines: [`Remembered: ${line}`] };
}

/**
 * `/memory`: what goes with every request, numbered where `/forget` can take it, each part with its source, and
 * when memory.md was last summarised. `/memory restore` puts the original from before that summary back.
 */
export async function memoryCommand(ctx: CommandContext, arg = ''): Promise<CommandOutput> {
  if (arg.trim() === 'restore') return restoreMemory(ctx);
  if (arg.trim())
    return { lines: ['Usage: /memory, or /memory restore (puts memory.md back as before its summary)'] };
  const { file, personal, files, skipped, summarisedAt } = await ctx.memory();
  const facts = personal.split(/\r?\n/).filter((line) => line.trim() !== '');
  const lines = [`Personal memory (${file}):`];
  if (facts.length) lines.push(...facts.map((fact, i) => `  ${String(i + 1).padStart(2)}  ${fact}`));
  else lines.push('  (nothing yet: /remember <text> adds a line)');
  lines.push('Workspace memory (AGENTS.md and HAC.md, nearest last; read-only):');
  if (!files.length) lines.push('  (none in this folder or its parents)');
  for (const { file: source, text } of files) {
    const all = text.split(/\r?\n/);
    lines.push(`  ${source}`, ...all.slice(0, SHOWN_LINES).map((line) => `    ${line}`));
    if (all.length > SHOWN_LINES) lines.push(`    … ${all.length - SHOWN_LINES} more lines`);
  }
  lines.push(...skipped.map((line) => `  ${line}`));
  if (facts.length) lines.push('/forget <n> removes line n of your memory.');
  if (summarisedAt)
    lines.push(
      `memory.md was last summarised on ${localTime(summarisedAt)}; /memory restore puts back the original (kept in ${file}.snapshot).`,
    );
  return { lines };
}

async function restoreMemory(ctx: CommandContext): Promise<CommandOutput> {
  const lines = await ctx.restoreMemory();
  if (lines === undefined)
    return { lines: ['memory.md has never been summarised: there is nothing to restore.'] };
  return {
    lines: [
      `memory.md is back as it was before its summary (${lines} lines); the summary is now the snapshot (/memory restore again swaps them back).`,
    ],
  };
}

/** `2026-11-28 14:05`, local time. */
function localTime(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())} ${p(date.getHours())}:${p(date.getMinutes())}`;
}

/** `/forget <n>`: shows line n of memory.md and removes it after a yes. */
export async function forgetCommand(ctx: CommandContext, arg: string): Promise<CommandOutput> {
  const n = Number(arg.trim());
  if (!Number.isInteger(n) || n < 1) return { lines: ['Usage: /forget <n> (a line number from /memory)'] };
  const facts = (await ctx.memory()).personal.split(/\r?\n/).filter((line) => line.trim() !== '');
  const fact = facts[n - 1];
  if (fact === undefined)
    return { lines: [`There is no line ${n} in your memory (it has ${facts.length}; see /memory).`] };
  return {
    lines: [`Forget line ${n}: ${fact}`],
    question: yesNoQuestion(
      'Forget it? (1 to forget, 0 to keep): ',
      'Forget it',
      async () => ({ lines: [`Forgot: ${await ctx.forget(n)}`] }),
      { lines: ['Kept.'] },
    ),
  };
}
