import type { Candidate, CandidateHost } from './candidate.js';
import { endOfTurnToken } from './formats/end-of-turn.js';
import { CALL_FORMATS, type CallFormat, type CallReader } from './formats/index.js';
import { sameChar } from './formats/scan.js';

/** A format and one of its openers, matched character by character before any reader starts. */
interface OpenerEntry {
  format: CallFormat;
  opener: string;
}

/** The openers of a table by their first character, at a line start and after prose; built once. */
export interface OpenerIndex {
  lineStart: ReadonlyMap<string, readonly OpenerEntry[]>;
  midLine: ReadonlyMap<string, readonly OpenerEntry[]>;
}

function indexOpeners(table: readonly CallFormat[]): OpenerIndex {
  const build = (lineStart: boolean) => {
    const map = new Map<string, OpenerEntry[]>();
    for (const format of table) {
      if (!lineStart && format.lineStartOnly) continue;
      for (const opener of format.openers) {
        const first = opener.charAt(0);
        map.set(first, [...(map.get(first) ?? []), { format, opener }]);
      }
    }
    return map;
  };
  return { lineStart: build(true), midLine: build(false) };
}

/** The call formats; right after a call, end-of-turn tokens too (they are dropped). */
export const CALL_OPENERS = indexOpeners(CALL_FORMATS);
export const AFTER_CALL_OPENERS = indexOpeners([endOfTurnToken, ...CALL_FORMATS]);

/** The characters that may start a format's candidate after prose on the same line. */
export const MID_LINE_FIRST_CHARS: readonly string[] = [...CALL_OPENERS.midLine.keys()];

/**
 * The marker formats of the table in formats/, read side by side: first the held text must go on
 * matching an opener (most `<` and `[` in prose stop there), then each possible format's reader follows it until
 * one ends with a call or all refuse. A line-start `[` that no format takes is tried as JSON.
 */
export class FormatCandidate implements Candidate {
  private readonly gate: OpenerEntry[] = [];
  private readonly readers: { format: CallFormat; reader: CallReader }[] = [];
  private jsonAfter = false;
  // Formats that end only at a closing marker and did not get one: later candidates of theirs never will either.
  private readonly neverEnd = new Set<CallFormat>();
  readonly holding = true;

  constructor(private readonly host: CandidateHost) {}

  /** Starts the formats that may begin with `c` here; false when there are none. */
  start(c: string, at: number, lineStart: boolean, jsonAfter: boolean, index = CALL_OPENERS): boolean {
    const openers = (lineStart ? index.lineStart : index.midLine).get(c);
    if (openers === undefined) return false;
    this.gate.length = 0;
    let matched = false;
    for (const e of openers) {
      if (this.neverEnd.size > 0 && this.neverEnd.has(e.format)) continue;
      this.gate.push(e);
      matched ||= e.opener.length === 1;
    }
    if (this.gate.length === 0) return false;
    this.host.hold(this, c, at);
    this.readers.length = 0;
    this.jsonAfter = jsonAfter;
    // An opener of one character (`[`) has matched already: its readers start at once.
    if (matched) this.startReaders();
    return true;
  }

  step(s: string, i: number): number {
    return this.readers.length === 0 ? this.stepOpeners(s, i) : this.stepReaders(s, i);
  }

  private stepOpeners(s: string, i: number): number {
    const host = this.host;
    for (let j = i; j < s.length; j++) {
      const c = s.charAt(j);
      const k = host.held.length + (j - i);
      let alive = 0;
      let matched = false;
      for (const entry of this.gate) {
        if (k < entry.opener.length && !sameChar(entry.opener.charAt(k), c)) continue;
        this.gate[alive++] = entry;
        matched ||= k + 1 >= entry.opener.length;
      }
      this.gate.length = alive;
      if (alive === 0) {
        host.held += s.slice(i, j);
        this.noFormatTakesIt();
        return j;
      }
      if (matched) {
        host.held += s.slice(i, j + 1);
        this.startReaders();
        return j + 1;
      }
    }
    host.held += s.slice(i);
    return s.length;
  }

  /** The readers of the formats still possible read the candidate again from its first character. */
  private startReaders(): void {
    for (const { format } of this.gate) {
      if (!this.readers.some((r) => r.format === format))
        this.readers.push({ format, reader: format.read() });
    }
    this.host.reread(this.host.held, this.host.heldStart);
    this.host.held = '';
  }

  private stepReaders(s: string, i: number): number {
    const host = this.host;
    const only = this.readers.length === 1 ? this.readers[0]?.reader : undefined;
    for (let j = i; j < s.length; j++) {
      // One reader left (the usual case inside a call) may jump over what cannot end it.
      if (only?.skip) {
        j = only.skip(s, j);
        if (j >= s.length) break;
      }
      const c = s.charAt(j);
      let ended: CallFormat[] | undefined;
      let alive = 0;
      for (const entry of this.readers) {
        const step = entry.reader.feed(c);
        if (step === 'more') this.readers[alive++] = entry;
        else if (step === 'end') (ended ??= []).push(entry.format);
      }
      this.readers.length = alive;
      if (ended === undefined && alive > 0) continue;
      const text = host.held + s.slice(i, j + 1);
      for (const format of ended ?? []) {
        const calls = format.decide(text, true, host.resolver);
        if (Array.isArray(calls)) {
          this.readers.length = 0;
          host.hide(calls, text);
          return j + 1;
        }
      }
      if (alive === 0) {
        // The character that ended a reader belongs to the candidate; one that every reader refused does not.
        host.held = ended ? text : text.slice(0, -1);
        this.noFormatTakesIt();
        return ended ? j + 1 : j;
      }
    }
    host.held += s.slice(i);
    return s.length;
  }

  private noFormatTakesIt(): void {
    this.readers.length = 0;
    const host = this.host;
    if (!this.jsonAfter) return host.rejectCandidate();
    const held = host.held;
    const at = host.heldStart;
    host.startJson(held.charAt(0), at);
    host.reread(held.slice(1), at + 1);
  }

  /** A complete call still counts at the end of the message; a cut-off one never runs. */
  finish(): 'decided' | 'hidden' | 'reject' {
    const host = this.host;
    for (const { format } of this.readers) {
      const calls = format.decide(host.held, false, host.resolver);
      if (calls === 'cut-off') {
        host.cutOffHeld();
        return 'decided';
      }
      if (calls && calls.length > 0) {
        this.readers.length = 0;
        host.hide(calls);
        return 'hidden';
      }
    }
    for (const { format } of this.readers) if (format.endsAtMarker) this.neverEnd.add(format);
    this.readers.length = 0;
    return 'reject';
  }
}
