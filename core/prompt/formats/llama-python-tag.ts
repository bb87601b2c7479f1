import { isCompleteJson } from '../../text/json-complete.js';
import type { CallFormat, CallReader, ReadStep } from './call-format.js';
import { parsePythonCalls, PythonCallReader } from './python-calls.js';
import { callsByName, jsonCalls } from './read-calls.js';
import { isBlank, JsonValueEnd, LiteralMatch } from './scan.js';

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
      return jsonCalls(rest, resolver);
    }
    if (!closed) return rest.includes('(') ? 'cut-off' : null;
    const calls = parsePythonCalls(rest);
    return calls ? callsByName(calls, resolver) : null;
  },
};

class PythonTagReader implements CallReader {
  private phase: 'marker' | 'body' | 'json' | 'python' = 'marker';
  private readonly marker = new LiteralMatch(MARKER);
  private readonly json = new JsonValueEnd();
  private readonly python = new PythonCallReader();

  skip(s: string, from: number): number {
    return this.phase === 'json' ? this.json.skip(s, from) : from;
  }

  feed(c: string): ReadStep {
    switch (this.phase) {
      case 'marker':
        return this.marker.step(c, () => (this.phase = 'body'));
      case 'body':
        if (isBlank(c)) return 'more';
        this.phase = c === '{' ? 'json' : 'python';
        return this.feed(c);
      case 'json':
        return this.json.feed(c) ? 'end' : 'more';
      case 'python':
        return this.python.feed(c);
    }
  }
}
