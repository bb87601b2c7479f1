import { addModelHint } from '../config/add-model-hint.js';
import { NO_ACTIVE_MODEL } from '../engine/engine.js';
import type { DiscoveredModel } from '../config/discovered-model.js';
import type { ChatParts } from './message-commands.js';

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
  if (!choices.length) {
    if (config.activeModel) return;
    // The example config only when config.json has no model at all; else choosing one is enough.
    return say(config.models.length ? NO_ACTIVE_MODEL : `${NO_ACTIVE_MODEL}\n${addModelHint(config.file)}`);
  }
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
  if (!chosen) {
    const using = runtime.config().activeModel;
    return say(
      using?.fromEnvironment
        ? `Nothing written. Using ${using.label} (${using.provider}) from the environment; /set-model writes a model into config.json.`
        : 'Nothing written. /help says how to add a model by hand.',
    );
  }
  try {
    const active = await chat.commands.setActiveModel({ add: chosen.model });
    const key = chosen.model.apiKey ? ` (its key is read from ${chosen.model.apiKey}, never written)` : '';
    say(`Wrote config.json with ${active.label} (${active.provider}) as the active model${key}. Ask away.`);
  } catch (error) {
    emit({ type: 'error', code: 'command-failed', message: (error as Error).message });
  }
}
