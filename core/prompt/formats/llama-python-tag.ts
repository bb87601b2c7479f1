import { classifyValue } from '../classify-call.js';
import { parseLenientJson } from '../lenient-json.js';
import { isCompleteJson } from '../../tools/json-complete.js';
import type { CallFormat, CallReader, ReadStep } from './call-format.js';
import { parsePythonCalls, PythonCallEnd } from './python-calls.js';
import { isBlank, isNameChar, JsonValueEnd, LiteralMatch } from './scan.js';

const MARKER = '<|python_tag|>';

/**
 * Llama 3.1–3.3's `<|python_tag|>` followed by a JSON call (`{"name": N, "parameters": {…}}`) or by its
 * built-in tool form `brave_search.call(query="…")`.
 */
export const llamaPythonTag: CallFormat = {
  name: 'Llama 3 <|python_tag|>',
  openers: [MARKER],
  lineStartOnly: false,
  endsAtMarker: false,
  read: () => new PythonTagReader(),
  decide(text, closed, resolver) {
    const rest = text.slice(MARKER.length).trim();
    if (rest.startsWith('{')) {
      if (!closed && !isCompleteJson(rest)) return 'cut-off';
      const parsed = parseLenientJson(rest);
      return parsed.ok ? classifyValue(parsed.value, resolver, true) : null;
    }
    if (!closed) return rest.includes('(') ? 'cut-off' : null;
    const calls = parsePythonCalls(rest);
    return calls ? calls.flatMap((c) => classifyValue(c, resolver, true) ?? []) : null;
  },
};

class PythonTagReader implements CallReader {
  private phase: 'marker' | 'start' | 'name' | 'json' | 'python' = 'marker';
  private readonly marker = new LiteralMatch(MARKER);
  private readonly json = new JsonValueEnd();
  private readonly python = new PythonCallEnd();

  skip(s: string, from: number): number {
    return this.phase === 'json' ? this.json.skip(s, from) : from;
  }

  feed(c: string): ReadStep {
    switch (this.phase) {
      case 'marker': {
        const step = this.marker.feed(c);
        if (step === 'fail') return 'reject';
        if (step === 'done') this.phase = 'start';
        return 'more';
      }
      case 'start':
        if (isBlank(c)) return 'more';
        if (c === '{') {
          this.phase = 'json';
          this.json.feed(c);
          return 'more';
        }
        if (!/[\p{L}_]/u.test(c)) return 'reject';
        this.phase = 'name';
        return 'more';
      case 'name':
        if (isNameChar(c)) return 'more';
        if (c !== '(') return 'reject';
        this.phase = 'python';
        return this.python.feed(c);
      case 'json':
        return this.json.feed(c) ? 'end' : 'more';
      case 'python':
        return this.python.feed(c);
    }
  }
}
