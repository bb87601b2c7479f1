import type { EngineEvent, Hac, TranscriptRenderer } from '../core/index.js';

/** How a host answers the engine's questions; resolves with the reply text. */
export type Ask = (
  event: Extract<EngineEvent, { type: 'confirmation-request' | 'question' }>,
  signal: AbortSignal,
) => Promise<string>;

/**
 * Runs one turn: renders every event through the shared transcript and answers the engine's questions
 * with `ask`. Returns the turn's last event (always `turn-end`) and whether an error was shown.
 */
export async function runTurn(
  hac: Hac,
  text: string,
  signal: AbortSignal,
  render: (event: EngineEvent) => void,
  ask: Ask,
): Promise<{ status: string; hadError: boolean }> {
  let status = 'failed';
  let hadError = false;
  for await (const event of hac.engine.run(text, signal)) {
    render(event);
    if (event.type === 'error') hadError = true;
    if (event.type === 'turn-end') status = event.status;
    if (event.type === 'confirmation-request' || event.type === 'question') {
      hac.engine.answer(event.id, await ask(event, signal).catch(() => 'n'));
    }
  }
  return { status, hadError };
}

/** A renderer writing to a stream. */
export function writeTo(
  stream: NodeJS.WritableStream,
  transcript: TranscriptRenderer,
): (event: EngineEvent) => void {
  return (event) => {
    const text = transcript.render(event);
    if (text) stream.write(text);
  };
}
