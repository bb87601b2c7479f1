import type { CommandContext, CommandOutput } from './command-types.js';

/** `/set-model`: numbered list, `*` on the active one, then discovered Ollama and Claude models; 0 keeps. */
export async function setModelCommand(ctx: CommandContext): Promise<CommandOutput> {
  const { models } = ctx.config();
  const discovered = await ctx.discoverModels();
  const choices = [
    ...models.map((m) => `${m.label} (${m.provider})${m.active ? ' *' : ''}`),
    ...discovered.map((d) => `${d.name} (${d.provider}, not in config)`),
  ];
  const lines = choices.map((choice, i) => `  ${i + 1}) ${choice}`);
  if (lines.length === 0)
    return { lines: ['No models are configured, and no local Ollama server answered.'] };
  return {
    lines,
    question: {
      prompt: 'Choice (0 keeps the current model): ',
      choices,
      async answer(reply) {
        const text = reply.trim();
        if (text === '' || text === '0') return { lines: ['Model selection unchanged.'] };
        const n = /^\d+$/.test(text) ? Number(text) : NaN;
        if (!(n >= 1 && n <= models.length + discovered.length)) return { lines: ['Invalid selection.'] };
        const found = discovered[n - 1 - models.length];
        const chosen =
          n <= models.length
            ? await ctx.setActiveModel({ index: n - 1 })
            : await ctx.setActiveModel({ add: found! });
        return { lines: [`Active model set to ${chosen.label} (${chosen.provider}).`] };
      },
    },
  };
}
