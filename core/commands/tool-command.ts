import type { CommandContext, CommandOutput } from './command-types.js';

/**
 * `/tool [n]`: the last tool results of this conversation. Without a number, one line each, newest first; with
 * one, that result as the model was given it, and when that was only a part, the whole of it saved to a file
 * (a result of megabytes does not belong on a screen).
 */
export async function toolCommand(ctx: CommandContext, arg: string): Promise<CommandOutput> {
  const results = ctx.toolResults();
  if (!results.length) return { lines: ['No tool results yet in this conversation.'] };
  if (!arg.trim())
    return {
      lines: [
        ...results.map((r, i) => `  ${i + 1}) ${r.summary}`),
        'Use /tool <number> to show one in full.',
      ],
    };
  const n = Number(arg.trim());
  const chosen = Number.isInteger(n) ? results[n - 1] : undefined;
  if (!chosen) return { lines: [`Usage: /tool <1-${results.length}> (see /tool).`] };
  const lines = [chosen.summary, ...chosen.output.split('\n')];
  if (chosen.whole === undefined) return { lines };
  const label = /^\S+/.exec(chosen.summary)?.[0] ?? 'tool';
  const file = await ctx.saveToolResult(label, chosen.whole);
  const size = chosen.whole.length.toLocaleString('en-US');
  return { lines: [...lines, '', `The whole result (${size} characters) is saved in ${file}`] };
}
