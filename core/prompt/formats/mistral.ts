import type { CallFormat, CallReader, ReadStep } from './call-format.js';
import { jsonCalls, namedCall } from './read-calls.js';
import { isBlank, isNameChar, JsonValueEnd, LiteralMatch } from './scan.js';

const MARKER = '[TOOL_CALLS]';

/**
 * Mistral's `[TOOL_CALLS]` followed by a JSON array of calls (Mistral 7B v0.3, Mixtral, Nemo) or by
 * `N[ARGS]{…}` (Mistral Small 3.2, Magistral, Devstral; `N[CALL_ID]id[ARGS]{…}` in some versions).
 */
export const mistralToolCalls: CallFormat = {
  name: 'Mistral [TOOL_CALLS]',
  openers: [MARKER],
  lineStartOnly: false,
  endsAtMarker: false,
  read: () => new MistralReader(),
  decide(text, closed, resolver) {
    if (!closed) return /[[{]/.test(text.slice(MARKER.length)) ? 'cut-off' : null;
    const rest = text.slice(MARKER.length).trimStart();
    if (rest.startsWith('[') || rest.startsWith('{')) return jsonCalls(rest, resolver);
    const name = rest.slice(0, rest.indexOf('[')).trim();
    return namedCall(name, rest.slice(rest.indexOf('[ARGS]') + '[ARGS]'.length), resolver);
  },
};

class MistralReader implements CallReader {
  private phase: 'marker' | 'start' | 'name' | 'label' | 'call-id' | 'args-start' | 'json' = 'marker';
  private readonly marker = new LiteralMatch(MARKER);
  private readonly json = new JsonValueEnd();
  private label = '';

  feed(c: string): ReadStep {
    switch (this.phase) {
      case 'marker':
        return this.marker.step(c, () => (this.phase = 'start'));
      case 'start':
        if (isBlank(c)) return 'more';
        if (c === '[' || c === '{') return this.startJson(c);
        if (!isNameChar(c)) return 'reject';
        this.phase = 'name';
        return 'more';
      case 'name':
        if (isNameChar(c)) return 'more';
        if (c !== '[') return 'reject';
        this.phase = 'label';
        this.label = '';
        return 'more';
      case 'label':
        // `[ARGS]`, or `[CALL_ID]` followed by an id and then `[ARGS]`.
        if (c !== ']') {
          this.label += c;
          return this.label.length > 8 ? 'reject' : 'more';
        }
        if (this.label === 'ARGS') this.phase = 'args-start';
        else if (this.label === 'CALL_ID') this.phase = 'call-id';
        else return 'reject';
        return 'more';
      case 'call-id':
        if (c === '[') {
          this.phase = 'label';
          this.label = '';
        } else if (!isNameChar(c)) return 'reject';
        return 'more';
      case 'args-start':
        if (isBlank(c)) return 'more';
        return c === '{' ? this.startJson(c) : 'reject';
      case 'json':
        return this.json.feed(c) ? 'end' : 'more';
    }
  }

  skip(s: string, from: number): number {
    return this.phase === 'json' ? this.json.skip(s, from) : from;
  }

  private startJson(c: string): ReadStep {
    this.phase = 'json';
    this.json.feed(c);
    return 'more';
  }
}
