/** What one character does to a line-start JSON candidate. */
export type JsonScanStep =
  | 'more' // undecided: keep holding
  | 'reject' // cannot be JSON (no key after `{`, no object after `[`, a blank line before the first key)
  | 'blank-line' // a blank line inside: JSON has none, so this was not data
  | 'closed' // the outermost bracket closed
  | 'loose-closed'; // closed only when strings may span lines: worth one try as a call

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
  private looseDepth = 1;
  private looseQuote = false;
  private looseEscape = false;
  private looseDone = false;

  constructor(private readonly isObject: boolean) {}

  /** True once the candidate looks like JSON (past its first key, or its first element). */
  get started(): boolean {
    return this.phase === 'scan';
  }

  /** Absolute positions of line-start openers inside the candidate that have not closed so far. */
  unclosedOpeners(): number[] {
    return this.openers.map((o) => o.at);
  }

  /** Feeds the character at absolute position `at` of the message. */
  feed(c: string, at: number): JsonScanStep {
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
        if (c === '\n' && ++this.newlinesBeforeKey === 2) return 'reject';
        if (isBlank(c)) break;
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
      if (this.lineStart) return 'blank-line';
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
      if (lineStart) this.openers.push({ at, depth: this.depth });
      this.depth++;
    } else if (c === '}' || c === ']') {
      this.depth--;
      while ((this.openers.at(-1)?.depth ?? -1) >= this.depth) this.openers.pop();
      if (this.depth === 0) return 'closed';
    }
    return 'more';
  }

  // Models sometimes put raw line breaks inside argument strings (invalid JSON the repair library fixes):
  // a second count where double-quoted strings span lines notices when such a call closes.
  private scanLoose(c: string): boolean {
    if (this.looseDone) return false;
    if (this.looseQuote) {
      if (this.looseEscape) this.looseEscape = false;
      else if (c === '\\') this.looseEscape = true;
      else if (c === '"') this.looseQuote = false;
      return false;
    }
    if (c === '"') this.looseQuote = true;
    else if (c === '{' || c === '[') this.looseDepth++;
    else if (c === '}' || c === ']') {
      this.looseDepth--;
      this.looseDone = this.looseDepth === 0;
      return this.looseDone;
    }
    return false;
  }
}
