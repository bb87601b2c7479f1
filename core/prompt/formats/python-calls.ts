/** A call written as Python: `name(key=value, …)`. */
export interface PythonCall {
  name: string;
  arguments: Record<string, unknown>;
}

const MAX_DEPTH = 32;

/**
 * Reads the Python-style calls of Gemma's `tool_code` blocks, Llama's pythonic lists and `<|python_tag|>`:
 * `[f(a=1), g(b="x")]`, `f(a=1)`, `print(default_api.f(a=1))`, one call per line or `;`-separated. Arguments
 * are keywords with Python (or JSON) literals. Null when the text is anything more than that. Linear.
 */
export function parsePythonCalls(text: string): PythonCall[] | null {
  const reader = new PythonReader(text);
  try {
    return reader.calls();
  } catch {
    return null;
  }
}

class NotPython extends Error {}

class PythonReader {
  private at = 0;

  constructor(private readonly s: string) {}

  calls(): PythonCall[] {
    this.blanks(true);
    const inList = this.s.charAt(this.at) === '[';
    if (inList) this.at++;
    const calls: PythonCall[] = [];
    for (;;) {
      this.blanks(true);
      if (inList && this.s.charAt(this.at) === ']') break;
      if (!inList && this.at >= this.s.length) break;
      calls.push(this.call());
      this.blanks(true);
      const c = this.s.charAt(this.at);
      if (c === ',' || c === ';') this.at++;
    }
    if (inList) this.at++;
    this.blanks(true);
    if (this.at < this.s.length || calls.length === 0) throw new NotPython();
    return calls;
  }

  private call(): PythonCall {
    const dotted = this.name();
    this.blanks(true);
    this.expect('(');
    this.blanks(true);
    // print(f(…)) is how Gemma's tool_code shows a call.
    if (dotted === 'print' && /[\p{L}_]/u.test(this.s.charAt(this.at))) {
      const inner = this.call();
      this.blanks(true);
      this.expect(')');
      return inner;
    }
    const args: Record<string, unknown> = {};
    while (this.s.charAt(this.at) !== ')') {
      const key = this.name();
      this.blanks(true);
      this.expect('=');
      this.blanks(true);
      args[key] = this.value(0);
      this.blanks(true);
      if (this.s.charAt(this.at) === ',') {
        this.at++;
        this.blanks(true);
      } else if (this.s.charAt(this.at) !== ')') throw new NotPython();
    }
    this.at++;
    return { name: toolName(dotted), arguments: args };
  }

  private value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new NotPython();
    const c = this.s.charAt(this.at);
    if (c === '"' || c === "'") return this.string(c);
    if (c === '[' || c === '(') return this.list(c === '[' ? ']' : ')', depth);
    if (c === '{') return this.dict(depth);
    const word = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|True|False|None|true|false|null)/.exec(
      this.s.slice(this.at, this.at + 40),
    )?.[0];
    if (word === undefined) throw new NotPython();
    this.at += word.length;
    if (word === 'True' || word === 'true') return true;
    if (word === 'False' || word === 'false') return false;
    if (word === 'None' || word === 'null') return null;
    return Number(word);
  }

  private list(close: string, depth: number): unknown[] {
    this.at++;
    const items: unknown[] = [];
    for (this.blanks(true); this.s.charAt(this.at) !== close; this.blanks(true)) {
      items.push(this.value(depth + 1));
      this.blanks(true);
      if (this.s.charAt(this.at) === ',') this.at++;
      else if (this.s.charAt(this.at) !== close) throw new NotPython();
    }
    this.at++;
    return items;
  }

  private dict(depth: number): Record<string, unknown> {
    this.at++;
    const out: Record<string, unknown> = {};
    for (this.blanks(true); this.s.charAt(this.at) !== '}'; this.blanks(true)) {
      const key = this.value(depth + 1);
      if (typeof key !== 'string' && typeof key !== 'number') throw new NotPython();
      this.blanks(true);
      this.expect(':');
      this.blanks(true);
      out[String(key)] = this.value(depth + 1);
      this.blanks(true);
      if (this.s.charAt(this.at) === ',') this.at++;
      else if (this.s.charAt(this.at) !== '}') throw new NotPython();
    }
    this.at++;
    return out;
  }

  private string(quote: string): string {
    const triple = this.s.startsWith(quote.repeat(3), this.at);
    const end = triple ? quote.repeat(3) : quote;
    this.at += end.length;
    let out = '';
    while (!this.s.startsWith(end, this.at)) {
      const c = this.s.charAt(this.at);
      if (c === '' || (c === '\n' && !triple)) throw new NotPython();
      this.at++;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.s.charAt(this.at++);
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0' };
      if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(this.s.slice(this.at, this.at + 4))) {
        out += String.fromCharCode(parseInt(this.s.slice(this.at, this.at + 4), 16));
        this.at += 4;
      } else out += simple[e] ?? e;
    }
    this.at += end.length;
    return out;
  }

  private name(): string {
    const m = /^[\p{L}_][\p{L}\p{N}_.-]*/u.exec(this.s.slice(this.at, this.at + 200));
    if (!m) throw new NotPython();
    this.at += m[0].length;
    return m[0];
  }

  private expect(c: string): void {
    if (this.s.charAt(this.at) !== c) throw new NotPython();
    this.at++;
  }

  private blanks(newlines: boolean): void {
    for (let c = this.s.charAt(this.at); c === ' ' || c === '\t' || c === '\r' || (newlines && c === '\n');) {
      c = this.s.charAt(++this.at);
    }
  }
}

/** `default_api.search` → `search`; `brave_search.call` → `brave_search` (Llama's built-in tool form). */
function toolName(dotted: string): string {
  const parts = dotted.split('.');
  if (parts.length > 1 && parts.at(-1) === 'call') return parts.at(-2) ?? dotted;
  return parts.at(-1) || dotted;
}

/**
 * A Python-style call from its first character (blanks before it allowed): a name, `(`, then up to where the
 * brackets close. `end` may already hold an outer bracket (a pythonic list's `[`).
 */
export class PythonCallReader {
  private phase: 'start' | 'name' | 'args' = 'start';

  constructor(private readonly end = new PythonCallEnd()) {}

  feed(c: string): 'more' | 'end' | 'reject' {
    switch (this.phase) {
      case 'start':
        if (c === ' ' || c === '\t' || c === '\r' || c === '\n') return 'more';
        if (!/[\p{L}_]/u.test(c)) return 'reject';
        this.phase = 'name';
        return 'more';
      case 'name':
        if (/^[\p{L}\p{N}_.-]$/u.test(c)) return 'more';
        if (c !== '(') return 'reject';
        this.phase = 'args';
        return this.end.feed(c);
      case 'args':
        return this.end.feed(c);
    }
  }
}

/**
 * Follows Python-ish text from its first character to where the brackets opened in it close again; quoted
 * strings are skipped. 'end' on the closing bracket that returns to depth 0.
 */
export class PythonCallEnd {
  private depth = 0;
  private quote = '';
  private escape = false;

  feed(c: string): 'more' | 'end' | 'reject' {
    if (this.quote !== '') {
      if (this.escape) this.escape = false;
      else if (c === '\\') this.escape = true;
      else if (c === this.quote) this.quote = '';
      else if (c === '\n') return 'reject';
      return 'more';
    }
    if (c === '"' || c === "'") this.quote = c;
    else if (c === '(' || c === '[' || c === '{') this.depth++;
    else if (c === ')' || c === ']' || c === '}') {
      this.depth--;
      if (this.depth === 0) return 'end';
      if (this.depth < 0) return 'reject';
    }
    return 'more';
  }
}
