import type { ModelConfig } from '../config/load-config.js';
import type { Engine } from '../engine/engine.js';
import type { Reply } from '../engine/event-channel.js';
import type { EngineEvent, TurnStatus } from '../types/engine-event.js';
import type { MessageImage } from '../types/message.js';

/** A question the engine asks during a turn. */
export type EngineQuestion = Extract<
  EngineEvent,
  { type: 'confirmation-request' | 'question' | 'elicitation' }
>;

/** How a message's turn ended: a one-shot run exits with it. */
export interface TurnOutcome {
  status: TurnStatus;
  /** An error was shown during the turn (a tool's or the model's). */
  hadError: boolean;
}

/** How a host answers the engine's questions; resolves with the reply text, or the answer to a server's form. */
export type Ask = (event: EngineQuestion, signal: AbortSignal) => Promise<Reply>;

/**
 * Runs one turn: hands every event to `emit` and answers the engine's questions with `ask` (a failed or
 * cancelled ask counts as "n", or as cancelled for a server's question). Resolves with how the turn ended and whether an error was shown.
 */
export async function runTurn(
  engine: Engine,
  { text, images, model }: { text: string; images?: MessageImage[]; model?: ModelConfig },
  signal: AbortSignal,
  emit: (event: EngineEvent) => void,
  ask: Ask,
): Promise<TurnOutcome> {
  let status: TurnStatus = 'failed';
  let hadError = false;
  for await (const event of engine.run(text, signal, images, model)) {
    emit(event);
    if (event.type === 'error') hadError = true;
    if (event.type === 'turn-end') status = event.status;
    if (event.type === 'confirmation-request' || event.type === 'question' || event.type === 'elicitation') {
      const failed: Reply = event.type === 'elicitation' ? { action: 'cancel' } : 'n';
      const reply = await ask(event, signal).catch(() => failed);
      if (!signal.aborted) engine.answer(event.id, reply);
    }
  }
  return { status, hadError };
}
