import type { CommandContext, CommandOutput } from './command-types.js';
import type { DiscoveredModel } from '../config/discovered-model.js';
import type { ModelConfig } from '../config/load-config.js';

/**
 * `/set-model`: numbered list, `*` on the active one, then the models that Ollama, the Anthropic accounts and the
 * OpenAI-compatible servers of config.json have and it does not list; 0 keeps.
 */
export async function setModelCommand(ctx: CommandContext): Promise<CommandOutput> {
  const { models } = ctx.config();
  const discovered = await ctx.discoverModels();
  const choices = [
    ...models.map(
      (m) =>
        `${m.label} (${m.provider}${m.fromEnvironment ? ', from the environment' : ''})${m.active ? ' *' : ''}`,
    ),
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
        const listed = models[n - 1];
        // A model from the environment is not in config.json yet: choosing it writes it there.
        const chosen = listed?.fromEnvironment
          ? await ctx.setActiveModel({ add: asDiscovered(listed) })
          : listed
            ? await ctx.setActiveModel({ index: n - 1 })
            : await ctx.setActiveModel({ add: found! });
        return { lines: [`Active model set to ${chosen.label} (${chosen.provider}).`] };
      },
    },
  };
}

function asDiscovered(model: ModelConfig): DiscoveredModel {
  return {
    name: model.id,
    provider: model.provider,
    baseUrl: model.baseUrl,
    ...(model.apiKey && { apiKey: model.apiKey }),
    ...(model.contextWindow && { contextWindow: model.contextWindow }),
  };
}
