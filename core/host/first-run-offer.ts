import { existsSync } from 'node:fs';
import { DEFAULT_BASE_URL, defaultBaseUrl } from '../config/load-config.js';
import { addModelHint } from '../config/add-model-hint.js';
import { NO_ACTIVE_MODEL } from '../engine/engine.js';
import type { DiscoveredModel } from '../config/discovered-model.js';
import type { Logger } from '../logging/logger.js';
import type { ChatParts } from './message-commands.js';

/** The model offered for a key found in the environment (the same as the example config.json names). */
const KEYED_MODELS: { variable: string; model: DiscoveredModel }[] = [
  {
    variable: 'OPENAI_API_KEY',
    model: {
      name: 'gpt-4o',
      provider: 'openai',
      baseUrl: DEFAULT_BASE_URL.openai,
      apiKey: '${OPENAI_API_KEY}',
    },
  },
  {
    variable: 'ANTHROPIC_API_KEY',
    model: {
      name: 'claude-sonnet-4-6',
      provider: 'anthropic',
      baseUrl: DEFAULT_BASE_URL.anthropic,
      apiKey: '${ANTHROPIC_API_KEY}',
    },
  },
];

/** How many of an Ollama server's models are offered. */
const OLLAMA_OFFERED = 5;

/**
 * What a first run can be set up with, when there is no config.json yet: a key in the environment (written into
 * config.json as `${VAR}`, never the key itself), or the models of an Ollama server answering on its default
 * address. Empty when config.json exists or nothing is within reach. Each with the line that offers it.
 */
export async function firstRunChoices(
  configFile: string,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<{ model: DiscoveredModel; label: string }[]> {
  if (existsSync(configFile)) return [];
  const keyed = KEYED_MODELS.filter(({ variable }) => env[variable]?.trim()).map(({ variable, model }) => ({
    model,
    label: `${model.provider}: ${model.name} (key from $${variable})`,
  }));
  const { listOllamaModels } = await import('../providers/ollama/list-ollama-models.js');
  const ollamaUrl = defaultBaseUrl('ollama', env);
  const local = await listOllamaModels(ollamaUrl, { logger, timeoutMs: 500 }).catch(() => []);
  const ollama = local.slice(0, OLLAMA_OFFERED).map((name) => ({
    model: { name, provider: 'ollama' as const, baseUrl: ollamaUrl },
    label: `ollama: ${name} (on ${DEFAULT_BASE_URL.ollama})`,
  }));
  return [...keyed, ...ollama];
}

/** The first run's question, when a provider is within reach and there is no config.json. */
const SET_UP_QUESTION = 'Write config.json for which? (a number, 0 for not now): ';

/** Offers the choices found; writes config.json with the one picked (nothing without a pick). */
export async function offerConfig(
  { runtime, chat, questions, emit }: ChatParts,
  choices: { model: DiscoveredModel; label: string }[],
): Promise<void> {
  const say = (line: string) => emit({ type: 'command-output', lines: [line] });
  // Nothing within reach and no model to answer: what to do is said now, not after the first message fails.
  const config = runtime.config();
  if (!choices.length)
    return config.activeModel ? undefined : say(`${NO_ACTIVE_MODEL}\n${addModelHint(config.file)}`);
  const labels = choices.map((c) => c.label);
  emit({
    type: 'command-output',
    lines: [
      `No config.json yet. hac can write ${runtime.paths.config} for what it found:`,
      ...labels.map((label, i) => `  ${i + 1}) ${label}`),
    ],
  });
  const reply = (await questions.ask('choice', SET_UP_QUESTION, labels).catch(() => '0')).trim();
  const chosen = /^\d+$/.test(reply) ? choices[Number(reply) - 1] : undefined;
  if (!chosen) return say('Nothing written. /help says how to add a model by hand.');
  try {
    const active = await chat.commands.setActiveModel({ add: chosen.model });
    const key = chosen.model.apiKey ? ` (its key is read from ${chosen.model.apiKey}, never written)` : '';
    say(`Wrote config.json with ${active.label} (${active.provider}) as the active model${key}. Ask away.`);
  } catch (error) {
    emit({ type: 'error', code: 'command-failed', message: (error as Error).message });
  }
}
