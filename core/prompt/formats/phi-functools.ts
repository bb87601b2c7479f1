import type { CallFormat, CallReader, ReadStep } from './call-format.js';
import { jsonCalls } from './read-calls.js';
import { JsonValueEnd, LiteralMatch } from './scan.js';

const MARKER = 'functools';

/** Phi-4-mini's `functools[{"name": N, "arguments": {…}}, …]` at the start of a line. */
export const phiFunctools: CallFormat = {
  name: 'Phi-4 functools[…]',
  openers: [`${MARKER}[`],
  lineStartOnly: true,
  endsAtMarker: false,
  read: () => new FunctoolsReader(),
  decide(text, closed, resolver) {
    if (!closed) return text.length > MARKER.length + 1 ? 'cut-off' : null;
    return jsonCalls(text.slice(MARKER.length), resolver);
  },
};

class FunctoolsReader implements CallReader {
  private readonly marker = new LiteralMatch(`${MARKER}[`);
  private json: JsonValueEnd | undefined;

  skip(s: string, from: number): number {
    return this.json ? this.json.skip(s, from) : from;
  }

  feed(c: string): ReadStep {
    if (this.json) return this.json.feed(c) ? 'end' : 'more';
    return this.marker.step(c, () => {
      this.json = new JsonValueEnd();
      this.json.feed('[');
    });
  }
}
