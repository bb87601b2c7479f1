import type { FunctionCall } from '../function-call.js';
import type { ToolResolver } from '../tool-resolver.js';

/** What one character does to a candidate: keep holding, it is not this format, or the call's text ends here. */
export type ReadStep = 'more' | 'reject' | 'end';

/** Follows one candidate of a format from its first character; linear, a few fields of state. */
export interface CallReader {
  feed(c: string): ReadStep;
  /** Optional: the index from `from` on of the next character of `s` that may change the reader's state. */
  skip?(s: string, from: number): number;
}

/** The calls a candidate's text stands for; `cut-off` for a call the end of the message cut short; null: text. */
export type FormatDecision = FunctionCall[] | 'cut-off' | null;

/**
 * One way models write function calls in their text: which characters can start it, a reader
 * that finds where it ends, and a decision on its whole text. The hold-back (hold-back.ts) runs the table.
 */
export interface CallFormat {
  /** The model families that write it, for notes and test names. */
  readonly name: string;
  /** The literal texts a candidate starts with; readers start only once one has matched (most `<` are not calls). */
  readonly openers: readonly string[];
  /** Only at the start of a line (after blanks); otherwise anywhere. */
  readonly lineStartOnly: boolean;
  /**
   * The candidate ends only at a closing marker: when one never came before the end of the message, none comes
   * for a later candidate either, so those are rejected at once (keeps rereading linear).
   */
  readonly endsAtMarker: boolean;
  read(): CallReader;
  /** `closed` is false when the message ended before the reader said 'end'. */
  decide(text: string, closed: boolean, resolver: ToolResolver): FormatDecision;
}
