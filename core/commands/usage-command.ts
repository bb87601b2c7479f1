import type { Usage } from '../types/message.js';
import type { CommandContext, CommandOutput } from './command-types.js';

const count = (n: number) => n.toLocaleString('en-US');

/** A figure as the provider reported it, or `~` before an estimate. */
function figures(usage: Usage): string[] {
  const mark = usage.estimated ? '~' : '';
  const { inputTokens: input, outputTokens: output } = usage;
  return [input, output, input + output].map((n) => `${mark}${count(n)}`);
}

/** `/usage`: the tokens of each answered turn (input, output, total) and of the whole conversation. */
export function usageCommand(ctx: CommandContext): CommandOutput {
  const { turns, context } = ctx.usage();
  if (!turns.length) return { lines: ['No answer yet in this conversation: nothing used.'] };
  const rows = [['turn', 'model', 'input', 'output', 'total']];
  const total: Usage = { inputTokens: 0, outputTokens: 0 };
  turns.forEach(({ model, usage }, i) => {
    rows.push([String(i + 1), model ?? '', ...(usage ? figures(usage) : ['-', '-', '-'])]);
    if (!usage) return;
    total.inputTokens += usage.inputTokens;
    total.outputTokens += usage.outputTokens;
    if (usage.estimated) total.estimated = true;
  });
  rows.push(['all', '', ...figures(total)]);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  const lines = rows.map((row) =>
    row.map((cell, c) => (c <= 1 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '),
  );
  if (turns.some((t) => t.usage?.estimated)) lines.push('~ estimated: the provider did not report usage.');
  if (context !== undefined) lines.push(`The last request filled ${context}% of contextMaxChars.`);
  return { lines: lines.map((line) => `  ${line.trimEnd()}`) };
}
