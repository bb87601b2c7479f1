// Small character-at-a-time matchers the format readers are built from.

/** DeepSeek's markers use fullwidth bars and U+2581; templates and quantized models also write them in ASCII. */
export function sameChar(expected: string, c: string): boolean {
  return c === expected || (expected === '｜' && c === '|') || (expected === '▁' && c === '_');
}

/** Matches a fixed text one character at a time. */
export class LiteralMatch {
  private at = 0;

  constructor(readonly text: string) {}

  /** As a reader step: 'reject' on a mismatch, `done()` on the last character; 'more' either way then. */
  step(c: string, done: () => void): 'more' | 'reject' {
    const step = this.feed(c);
    if (step === 'fail') return 'reject';
    if (step === 'done') done();
    return 'more';
  }

  /** 'more' while it matches, 'done' on its last character, 'fail' on a mismatch. */
  feed(c: string): 'more' | 'done' | 'fail' {
    const expected = this.text.charAt(this.at);
    if (!sameChar(expected, c)) return 'fail';
    this.at++;
    return this.at === this.text.length ? 'done' : 'more';
  }
}

/**
 * Watches for any of several closing markers that all start with `<` and hold no other `<` (`</tool_call>`,
 * `<|call|>`…): the text since the last `<` is compared, so the work per character is bounded.
 */
export class MarkerWatch {
  private since = '';

  constructor(private readonly markers: readonly string[]) {}

  /** Where the next `<` is when no marker is under way: the text up to it cannot complete one. */
  skip(s: string, from: number): number {
    if (this.since !== '') return from;
    const at = s.indexOf('<', from);
    return at === -1 ? s.length : at;
  }

  /** The marker that `c` completes, if any. */
  feed(c: string): string | undefined {
    if (c === '<') this.since = '<';
    else if (this.since === '') return undefined;
    else this.since += c;
    const found = this.markers.find((m) => matches(m, this.since));
    if (found !== undefined && found.length === this.since.length) {
      this.since = '';
      return found;
    }
    if (found === undefined) this.since = '';
    return undefined;
  }
}

function matches(marker: string, text: string): boolean {
  if (text.length > marker.length) return false;
  for (let i = 0; i < text.length; i++) if (!sameChar(marker.charAt(i), text.charAt(i))) return false;
  return true;
}

const IN_STRING = /["\\]/g;
const OUTSIDE_STRING = /["{}[\]]/g;

/** Where the JSON value (object or array) that starts with the first character fed ends: strings are skipped. */
export class JsonValueEnd {
  private depth = 0;
  private inString = false;
  private escape = false;

  /** True right after a backslash inside a string: the next character is taken as it is. */
  get escaped(): boolean {
    return this.escape;
  }

  /** The next quote, backslash or bracket: nothing between changes the depth. */
  skip(s: string, from: number): number {
    const pattern = this.inString ? (this.escape ? null : IN_STRING) : OUTSIDE_STRING;
    if (pattern === null) return from;
    pattern.lastIndex = from;
    return pattern.exec(s)?.index ?? s.length;
  }

  /** True when `c` closes the outermost bracket. */
  feed(c: string): boolean {
    if (this.inString) {
      if (this.escape) this.escape = false;
      else if (c === '\\') this.escape = true;
      else if (c === '"') this.inString = false;
      return false;
    }
    if (c === '"') this.inString = true;
    else if (c === '{' || c === '[') this.depth++;
    else if (c === '}' || c === ']') return --this.depth === 0;
    return false;
  }
}

export function isBlank(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

/** A character of a tool name as models write it: letters, digits, `_`, `-`, `.`. */
export function isNameChar(c: string): boolean {
  return /^[\p{L}\p{N}_.-]$/u.test(c);
}
