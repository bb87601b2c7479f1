import type { FunctionCall } from './function-call.js';
import type { ToolResolver } from './tool-resolver.js';

/**
 * One kind of text the hold-back holds until it knows whether it is a call: bare JSON (json-candidate.ts), a code
 * fence (fence-candidate.ts), the marker formats of formats/ (format-candidate.ts).
 */
export interface Candidate {
  /** Reads from `s[i]`; returns where it stopped (it may stop where it hands over to another mode). */
  step(s: string, i: number): number;
  /** False while the candidate shows text as it comes (the body of a code fence). */
  readonly holding: boolean;
  /**
   * The end of the message came first. `decided`: it was shown or hidden; `hidden`: it was a call; `reject`: show
   * its first character and read the rest again.
   */
  finish(): 'decided' | 'hidden' | 'reject';
}

/** What the hold-back (hold-back.ts) does for a candidate. */
export interface CandidateHost {
  readonly resolver: ToolResolver;
  /** The candidate's text from its first character, which is at absolute position `heldStart`. */
  held: string;
  readonly heldStart: number;
  /** The absolute position of `s[0]` in the text being read. */
  readonly frameBase: number;
  /** Makes `candidate` the current mode, holding `first` (at absolute position `at`). */
  hold(candidate: Candidate, first: string, at: number): void;
  /**
   * It was a call (or calls): never shown. An empty list drops the held text. `whole` is the candidate's text
   * when `held` does not hold all of it: shown instead, and back to prose, when the words before it introduce it
   * as an example.
   */
  hide(calls: FunctionCall[], whole?: string): void;
  /** Shows `text` (with the line's held indentation) and empties `held`; the mode stays. */
  release(text: string): void;
  /** Back to prose. */
  toText(lineStart: boolean): void;
  /** Shows the candidate's first character and reads the rest of it again as prose. */
  rejectCandidate(): void;
  /** Reads `text`, which starts at absolute position `base`, before the rest of the input. */
  reread(text: string, base: number): void;
  /** Shows text at once. */
  emit(text: string): void;
  /** A call was cut off by the end of the message: shown as text, with a notice. */
  cutOffHeld(): void;
  /** Starts a JSON candidate (a line-start `[` no format took). */
  startJson(c: string, at: number): void;
  /** Splits the body of a fence on its own (fences do not nest). */
  splitInner(body: string): { text: string; calls: FunctionCall[] };
}
