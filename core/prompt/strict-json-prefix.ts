type Expect = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'comma-or-close';

/**
 * Whether the characters fed so far can begin a strictly valid JSON value (RFC 8259: no comments, no trailing
 * commas, no line breaks in strings). One character at a time, constant work each. Fed from after the value's
 * opening bracket; `broken` stays true once a character breaks it, until `restart`.
 */
export class StrictJsonPrefix {
  private stack: string[] = [];
  private expect: Expect = 'value';
  private inString: 'key' | 'value' | '' = '';
  private escape = false;
  /** The rest of `true`/`false`/`null` still to come, from `wordAt`. */
  private word = '';
  private wordAt = 0;
  private number = false;
  broken = false;

  constructor(opener: string) {
    this.restart(opener);
  }

  /** Starts over at an opening bracket (`{` or `[`). */
  restart(opener: string): void {
    this.stack.length = 0;
    this.stack.push(opener);
    this.expect = opener === '{' ? 'key-or-close' : 'value-or-close';
    this.inString = '';
    this.escape = false;
    this.word = '';
    this.number = false;
    this.broken = false;
  }

  /** True when only a quote, a backslash or a line break can change the state: broken, or inside a string. */
  get waitsForQuote(): boolean {
    return this.broken || (this.inString !== '' && !this.escape);
  }

  /** True once the outermost bracket has closed. */
  get done(): boolean {
    return this.stack.length === 0;
  }

  feed(c: string): void {
    if (this.broken) return;
    // Most characters of a candidate are inside strings: the short way first.
    if (this.inString !== '' && c !== '"' && c !== '\\' && c !== '\n' && !this.escape) return;
    if (!this.step(c)) this.broken = true;
  }

  private step(c: string): boolean {
    if (this.inString !== '') return this.stringChar(c);
    if (this.word !== '') {
      if (c !== this.word.charAt(this.wordAt)) return false;
      if (++this.wordAt === this.word.length) this.word = '';
      return true;
    }
    if (this.number) {
      if ((c >= '0' && c <= '9') || c === '.' || c === 'e' || c === 'E' || c === '+' || c === '-')
        return true;
      this.number = false;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') return true;
    if (this.done) return false;
    switch (this.expect) {
      case 'colon':
        if (c !== ':') return false;
        this.expect = 'value';
        return true;
      case 'comma-or-close':
        if (c === ',') {
          this.expect = this.stack.at(-1) === '{' ? 'key' : 'value';
          return true;
        }
        return this.close(c);
      case 'key-or-close':
      case 'key':
        if (c === '"') {
          this.inString = 'key';
          return true;
        }
        return this.expect === 'key-or-close' && this.close(c);
      case 'value-or-close':
        if (c === ']') return this.close(c);
        return this.value(c);
      case 'value':
        return this.value(c);
    }
  }

  private value(c: string): boolean {
    this.expect = 'comma-or-close';
    if (c === '"') this.inString = 'value';
    else if (c === '{' || c === '[') {
      this.stack.push(c);
      this.expect = c === '{' ? 'key-or-close' : 'value-or-close';
    } else if (c === 't' || c === 'f' || c === 'n') {
      this.word = c === 't' ? 'rue' : c === 'f' ? 'alse' : 'ull';
      this.wordAt = 0;
    } else if (c === '-' || (c >= '0' && c <= '9')) this.number = true;
    else return false;
    return true;
  }

  private close(c: string): boolean {
    if (c !== (this.stack.at(-1) === '{' ? '}' : ']')) return false;
    this.stack.pop();
    this.expect = 'comma-or-close';
    return true;
  }

  private stringChar(c: string): boolean {
    if (c === '\n') return false;
    if (this.escape) this.escape = false;
    else if (c === '\\') this.escape = true;
    else if (c === '"') {
      this.expect = this.inString === 'key' ? 'colon' : 'comma-or-close';
      this.inString = '';
    }
    return true;
  }
}
