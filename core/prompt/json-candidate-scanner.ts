/** What one character does to a line-start JSON candidate. */
export type JsonScanStep =
  | 'more' // undecided: keep holding
  | 'reject' // cannot be JSON (no key after `{`, no object after `[`, a blank line before the first key)
  | 'blank-line' // a blank line inside JSON that is not strictly valid, or strict JSON broken after one
  | 'closed' // the outermost bracket closed
  | 'loose-closed'; // closed only when strings may span lines: worth one try as a call

import { asciiSet, indexOfAny } from '../text/ascii-set.js';
import { JsonValueEnd } from './formats/scan.js';
import { StrictJsonPrefix } from './strict-json-prefix.js';

/** The characters that can change a scan whose strict check waits for a quote (see `skip`). */
const SIGNIFICANT = asciiSet('"\'\\\n/*{}[]');

type StartPhase = 'first' | 'ident' | 'after-ident' | 'scan';

function isBlank(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

/**
 * Follows a `{` or `[` found at the start of a line, one character at a time, until it closes. Linear, and
 * the same from any line start: a line break ends any string or comment, so every line starts in the same
 * state. That lets a scan that never closes tell which line-start openers inside it never close either.
 */
export class JsonCandidateScanner {
  private phase: StartPhase = 'first';
  private newlinesBeforeKey = 0;
  private depth = 1;
  private quote = '';
  private escape = false;
  private comment: '' | 'line' | 'block' = '';
  private slash = false;
  private star = false;
  private lineStart = false;
  private readonly openers: { at: number; depth: number }[] = [];
  /** The same brackets counted as if double-quoted strings could span lines. */
  private readonly loose = new JsonValueEnd();
  private looseDone = false;
  // Strictly valid JSON may hold blank lines; anything looser may not. After a break, the check
  // restarts at the next line-start opener, so it knows which inner candidates are still strict.
  private readonly strict: StrictJsonPrefix;
  private strictFromDepth = 0;
  /** Where the candidate itself (not an inner value the check restarted at) last broke; -1 while strict. */
  private lastBreakAt = -1;
  private lastBlankAt = -1;
  private rejectBefore = Infinity;

  constructor(private readonly isObject: boolean) {
    this.strict = new StrictJsonPrefix(isObject ? '{' : '[');
    this.loose.feed(isObject ? '{' : '[');
  }

  /** True once the candidate looks like JSON (past its first key, or its first element). */
  get started(): boolean {
    return this.phase === 'scan';
  }

  /**
   * Absolute positions of line-start openers inside the candidate that, read as candidates themselves, would be
   * rejected where this one was (or, at the end of the message, have not closed).
   */
  unclosedOpeners(): number[] {
    return this.openers.filter((o) => o.at < this.rejectBefore).map((o) => o.at);
  }

  /**
   * The index from `from` on of the next character of `s` that can matter: inside a string, a comment or a line
   * of prose after the check broke, only quotes, backslashes, comment marks, brackets and line breaks do.
   */
  skip(s: string, from: number): number {
    if (this.phase !== 'scan' || this.lineStart || this.escape || this.loose.escaped || this.slash)
      return from;
    if (this.comment === 'block' && this.star) return from;
    if (!this.strict.waitsForQuote) return from;
    return indexOfAny(s, from, SIGNIFICANT);
  }

  /** Feeds the character at absolute position `at` of the message. */
  feed(c: string, at: number): JsonScanStep {
    const wasBroken = this.strict.broken;
    this.strict.feed(c);
    if (this.strict.broken && !wasBroken) {
      // A break inside a restarted inner value breaks the candidate too: it stays broken.
      this.lastBreakAt = at;
      // Strict JSON that held a blank line breaks here: it was not data after all.
      if (this.lastBlankAt >= 0 && this.lastBreakAt > this.lastBlankAt) return this.reject(this.lastBlankAt);
    }
    if (this.phase !== 'scan') {
      const start = this.checkStart(c);
      if (start !== 'scan') return start;
    }
    const strict = this.scanStrict(c, at);
    if (strict !== 'more') return strict;
    return this.scanLoose(c) ? 'loose-closed' : 'more';
  }

  // Before the first key: an object starts with a quoted or bare key (or a comment), an array with an object.
  private checkStart(c: string): 'more' | 'reject' | 'scan' {
    let next: StartPhase | 'reject' = this.phase;
    switch (this.phase) {
      case 'first':
        if (c === '\n' && ++this.newlinesBeforeKey >= 2 && this.lastBreakAt >= 0) return 'reject';
        if (isBlank(c)) break;
        // After a blank line only strict JSON goes on (a quoted key).
        if (this.newlinesBeforeKey >= 2 && (this.lastBreakAt >= 0 || c !== (this.isObject ? '"' : '{')))
          return 'reject';
        if (!this.isObject) next = c === '{' ? 'scan' : 'reject';
        else if (c === '"' || c === "'" || c === '/') next = 'scan';
        else next = /^[A-Za-z_$]$/.test(c) ? 'ident' : 'reject';
        break;
      case 'ident':
        if (/^[A-Za-z0-9_$-]$/.test(c)) break;
        next = c === ':' ? 'scan' : isBlank(c) ? 'after-ident' : 'reject';
        break;
      case 'after-ident':
        if (!isBlank(c)) next = c === ':' ? 'scan' : 'reject';
        break;
      case 'scan':
        break;
    }
    if (next === 'reject') return 'reject';
    this.phase = next;
    return next === 'scan' ? 'scan' : 'more';
  }

  private scanStrict(c: string, at: number): 'more' | 'closed' | 'blank-line' {
    if (c === '\n') {
      if (this.lineStart) {
        if (this.lastBreakAt >= 0) return this.reject(this.lastBreakAt);
        if (this.lastBlankAt < 0) this.lastBlankAt = at;
      }
      this.quote = '';
      this.escape = false;
      this.comment = '';
      this.slash = false;
      this.lineStart = true;
      return 'more';
    }
    if (this.comment === 'line') return 'more';
    if (this.comment === 'block') {
      if (this.star && c === '/') this.comment = '';
      this.star = c === '*';
      return 'more';
    }
    if (this.quote !== '') {
      if (this.escape) this.escape = false;
      else if (c === '\\') this.escape = true;
      else if (c === this.quote) this.quote = '';
      return 'more';
    }
    const lineStart = this.lineStart;
    if (c !== ' ' && c !== '\t' && c !== '\r') this.lineStart = false;
    if (this.slash) {
      this.slash = false;
      if (c === '/' || c === '*') {
        this.comment = c === '/' ? 'line' : 'block';
        this.star = false;
        return 'more';
      }
    }
    if (c === '"' || c === "'") this.quote = c;
    else if (c === '/') this.slash = true;
    else if (c === '{' || c === '[') {
      // A fresh candidate here would close exactly where this scan comes back to the current depth.
      if (lineStart) {
        this.openers.push({ at, depth: this.depth });
        if (this.strict.broken) {
          this.strict.restart(c);
          this.strictFromDepth = this.depth;
        }
      }
      this.depth++;
    } else if (c === '}' || c === ']') {
      this.depth--;
      // The restarted check covered one inner value; around it the candidate is still broken.
      if (this.depth === this.strictFromDepth && this.strictFromDepth > 0 && this.strict.done) {
        this.strict.broken = true;
      }
      while ((this.openers.at(-1)?.depth ?? -1) >= this.depth) this.openers.pop();
      if (this.depth === 0) return 'closed';
    }
    return 'more';
  }

  /** Rejects the candidate; the line-start openers before `before` go with it. */
  private reject(before: number): 'blank-line' {
    this.rejectBefore = before;
    return 'blank-line';
  }

  // Models sometimes put raw line breaks inside argument strings (invalid JSON the repair library fixes):
  // a second count where double-quoted strings span lines notices when such a call closes.
  private scanLoose(c: string): boolean {
    if (this.looseDone) return false;
    this.looseDone = this.loose.feed(c);
    return this.looseDone;
  }
}
