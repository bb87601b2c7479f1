import type { Candidate, CandidateHost } from './candidate.js';
import { classifyValue } from './classify-call.js';
import { JsonCandidateScanner } from './json-candidate-scanner.js';
import { parseLenientJson } from './lenient-json.js';

/** The first keys that let a mid-line `{` open a call, quoted as they are written. */
const CALL_FIRST_KEYS = ['"server"', '"name"', '"function"', '"tool"', '"tool_calls"'];
/** A probe reads no further than this: blanks and one quoted key. */
const MAX_KEY_PROBE = 40;

/**
 * Bare JSON that may be a call: a `{` or `[` at the start of a line, or a mid-line `{` whose first key is a call
 * key (probed first). Held until its brackets close, then a call or text.
 */
export class JsonCandidate implements Candidate {
  private phase: 'json' | 'key-probe' = 'json';
  private scanner = new JsonCandidateScanner(true);
  // Line-start openers learnt never to close: reading the text again rejects them at once (keeps it linear).
  private readonly neverCloses = new Set<number>();
  private repairTried = false;
  readonly holding = true;

  constructor(private readonly host: CandidateHost) {}

  /** False for an opener that an earlier scan showed never closes. */
  mayStartAt(at: number): boolean {
    return !this.neverCloses.has(at);
  }

  start(c: string, at: number): void {
    this.host.hold(this, c, at);
    this.phase = 'json';
    this.scanner = new JsonCandidateScanner(c === '{');
  }

  /** A mid-line `{`: a call's first key makes it a JSON candidate; anything else is shown at once. */
  probe(at: number): void {
    this.host.hold(this, '{', at);
    this.phase = 'key-probe';
  }

  step(s: string, i: number): number {
    return this.phase === 'json' ? this.stepJson(s, i) : this.stepKeyProbe(s, i);
  }

  private stepKeyProbe(s: string, i: number): number {
    const host = this.host;
    for (let j = i; j < s.length; j++) {
      host.held += s.charAt(j);
      const key = host.held.slice(1).trimStart();
      if (key === '' && host.held.length < MAX_KEY_PROBE) continue;
      if (CALL_FIRST_KEYS.some((k) => key.startsWith(k))) {
        // Read it again as a JSON candidate from its `{`.
        const rest = host.held.slice(1);
        const at = host.heldStart;
        this.start('{', at);
        host.reread(rest, at + 1);
        return j + 1;
      }
      if (!CALL_FIRST_KEYS.some((k) => k.startsWith(key))) {
        host.rejectCandidate();
        return j + 1;
      }
    }
    return s.length;
  }

  private stepJson(s: string, i: number): number {
    const host = this.host;
    let from = i;
    for (let j = i; j < s.length; j++) {
      j = this.scanner.skip(s, j);
      if (j === s.length) break;
      switch (this.scanner.feed(s.charAt(j), host.frameBase + j)) {
        case 'more':
          break;
        case 'blank-line':
          // Not data after all; the inner openers that would be rejected here too are learnt.
          for (const at of this.scanner.unclosedOpeners()) this.neverCloses.add(at);
        // falls through
        case 'reject':
          host.held += s.slice(from, j);
          host.rejectCandidate();
          return j;
        case 'closed':
          host.held += s.slice(from, j + 1);
          if (!this.hideIfCall()) {
            host.release(host.held);
            host.toText(false);
          }
          return j + 1;
        case 'loose-closed':
          // Closed only if strings may span lines: a call ends it here; anything else keeps the strict scan going.
          host.held += s.slice(from, j + 1);
          from = j + 1;
          if (this.hideIfCall()) return j + 1;
          break;
      }
    }
    host.held += s.slice(from);
    return s.length;
  }

  private callsInHeld() {
    const parsed = parseLenientJson(this.host.held);
    return parsed.ok ? classifyValue(parsed.value, this.host.resolver, false) : null;
  }

  private hideIfCall(): boolean {
    const calls = this.callsInHeld();
    if (calls) this.host.hide(calls);
    return calls !== null;
  }

  finish(): 'decided' | 'reject' {
    if (this.phase === 'key-probe') {
      this.host.release(this.host.held);
      this.host.toText(false);
      return 'decided';
    }
    // A call cut off by the end of the message (missing closers) is never repaired into a run.
    if (this.scanner.started && !this.repairTried) {
      this.repairTried = true;
      if (this.callsInHeld() !== null) {
        this.host.cutOffHeld();
        return 'decided';
      }
    }
    for (const at of this.scanner.unclosedOpeners()) this.neverCloses.add(at);
    return 'reject';
  }
}
