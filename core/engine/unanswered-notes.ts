import type { RequestedCall } from './tool-runner.js';

/** The arguments of a declined call as its note quotes them: enough to recognise, never a whole file. */
const QUOTED_ARGUMENT_CHARS = 500;

/** What a cancelled answer ends with, after the text already shown. */
export const CANCELLED_MARK = '[cancelled by the user]';

/**
 * The assistant message that stands for a declined call: what the model had said, then which call it proposed and
 * that the user said no, so that "no, write it to y.txt instead" has its context.
 */
export function declinedNote(said: string, call: RequestedCall): string {
  const args = JSON.stringify(call.arguments);
  const quoted = args.length > QUOTED_ARGUMENT_CHARS ? `${args.slice(0, QUOTED_ARGUMENT_CHARS - 1)}…` : args;
  const note = `[I proposed calling the tool ${call.server}/${call.name} with ${quoted}; the user declined, so it did not run.]`;
  return withShown(said, note);
}

/** The assistant message of a cancelled turn: the text already shown, marked as cut off. */
export function cancelledNote(shown: string): string {
  return withShown(shown, CANCELLED_MARK);
}

/** Why a question in a session file has no answer: hac stopped (a crash, `kill -9`) before it came. */
export const NOT_ANSWERED_YET = 'hac stopped before the answer came; /retry asks again';

/** The assistant message of a failed turn: the question has no answer yet, and why. */
export function failedNote(shown: string, error: string): string {
  return withShown(shown, `[no answer: ${error}]`);
}

function withShown(shown: string, note: string): string {
  return shown.trim() ? `${shown.trimEnd()}\n\n${note}` : note;
}
