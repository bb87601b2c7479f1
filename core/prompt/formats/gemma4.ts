import type { CallFormat, CallReader, ReadStep } from './call-format.js';
import type { PythonCall } from './python-calls.js';
import { callsByName } from './read-calls.js';
import { LiteralMatch, MarkerWatch } from './scan.js';

const OPEN = '<|tool_call>';
const CLOSE = '<tool_call|>';
/** Gemma 4 quotes strings with this token, so that a string never needs escapes. */
const QUOTE = '<|"|>';

/**
 * Gemma 4's own call tokens: `<|tool_call>call:N{key:<|"|>text<|"|>,count:2}<tool_call|>`, several calls one after
 * another. Keys are bare, strings are between `<|"|>` tokens, numbers, booleans, lists and nested objects as in
 * JSON.
 */
export const gemma4Call: CallFormat = {
  name: 'Gemma 4 <|tool_call>',
  openers: [OPEN],
  lineStartOnly: false,
  endsAtMarker: true,
  read: () => new Gemma4Reader(),
  decide(text, closed, resolver) {
    const body = text.slice(OPEN.length, closed ? -CLOSE.length : undefined);
    if (!closed) return body.trim() ? 'cut-off' : null;
    const calls = readGemma4Calls(body);
    return calls ? callsByName(calls, resolver) : null;
  },
};

class Gemma4Reader implements CallReader {
  private readonly open = new LiteralMatch(OPEN);
  private body: MarkerWatch | undefined;

  feed(c: string): ReadStep {
    if (this.body) return this.body.feed(c) === undefined ? 'more' : 'end';
    return this.open.step(c, () => (this.body = new MarkerWatch([CLOSE])));
  }

  skip(s: string, from: number): number {
    return this.body ? this.body.skip(s, from) : from;
  }
}

/** `call:N{…}` after `call:N{…}`; null when the body is anything else. */
export function readGemma4Calls(body: string): PythonCall[] | null {
  const calls: PythonCall[] = [];
  let at = 0;
  for (;;) {
    while (/\s/.test(body.charAt(at))) at++;
    if (at >= body.length) break;
    const head = /^call:([^\s{]+)\s*\{/.exec(body.slice(at, at + 300));
    if (!head) return null;
    const start = at + head[0].length - 1;
    const end = closingBrace(body, start);
    if (end === -1) return null;
    const args = argumentsOf(body.slice(start, end + 1));
    if (!args) return null;
    calls.push({ name: head[1]!, arguments: args });
    at = end + 1;
  }
  return calls.length ? calls : null;
}

/** Where the `{` at `start` closes, strings skipped; -1 when it never does. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text.startsWith(QUOTE, i)) {
      const close = text.indexOf(QUOTE, i + QUOTE.length);
      if (close === -1) return -1;
      i = close + QUOTE.length - 1;
    } else if (text[i] === '{' || text[i] === '[') depth++;
    else if (text[i] === '}' || text[i] === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** The arguments as JSON would have them: strings quoted, bare keys quoted; null if it still does not parse. */
function argumentsOf(text: string): Record<string, unknown> | null {
  let json = '';
  for (let i = 0; i < text.length;) {
    if (text.startsWith(QUOTE, i)) {
      const close = text.indexOf(QUOTE, i + QUOTE.length);
      json += JSON.stringify(text.slice(i + QUOTE.length, close));
      i = close + QUOTE.length;
      continue;
    }
    const key = /^([{,]\s*)([A-Za-z_][\w.-]*)(\s*:)/.exec(text.slice(i, i + 200));
    if (key) {
      json += `${key[1]}${JSON.stringify(key[2])}${key[3]}`;
      i += key[0].length;
      continue;
    }
    json += text[i];
    i++;
  }
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
