import type { CommandContext, CommandOutput } from './command-types.js';

const USAGE = 'Usage: /permissions, /permissions remove <n|server/tool>';

/** `/permissions`: the tools allowed without asking; `/permissions remove <n|server/tool>` takes one off. */
export async function permissionsCommand(ctx: CommandContext, arg: string): Promise<CommandOutput> {
  const { tools } = ctx.config().allowedTools;
  const [action = '', ...rest] = arg.trim().split(/\s+/);
  if (!action) {
    if (tools.length === 0)
      return { lines: ['No tool is allowed without asking: answer A at "Call now? (Y/N)" to allow one.'] };
    return {
      lines: [
        'Allowed without asking (/permissions remove <n> asks again):',
        ...tools.map((key, i) => `  ${i + 1}) ${key}`),
      ],
    };
  }
  const which = rest.join(' ');
  if (action !== 'remove' || !which) return { lines: [USAGE] };
  const key = /^\d+$/.test(which) ? tools[Number(which) - 1] : tools.find((k) => k === which);
  if (!key) return { lines: [`No allowed tool "${which}": /permissions lists them.`] };
  await ctx.disallowTool(key);
  return { lines: [`${key} asks again before each call.`] };
}
