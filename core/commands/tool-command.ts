import type { CommandContext, CommandOutput } from './command-types.js';

/**
 * `/tool [n]`: the last tool results of this conversation. Without a number, one line each, newest first; with
 * one, that result in full, as the model was given it.
 */
export function toolCommand(ctx: CommandContext, arg: string): CommandOutput {
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
  return { lines: [chosen.summary, ...chosen.output.split('\n')] };
}
