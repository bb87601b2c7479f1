import { isCompleteJson } from '../../text/json-complete.js';
import type { CallFormat, CallReader, ReadStep } from './call-format.js';
import { namedCall } from './read-calls.js';
import { LiteralMatch, MarkerWatch } from './scan.js';

const MESSAGE = '<|message|>';
const ENDS = ['<|call|>', '<|end|>', '<|return|>'];
const MAX_HEADER = 300;
/** The recipient in a harmony header: `to=functions.get_weather`. */
const RECIPIENT = /\bto=(?:functions\.)?([^\s<]+)/;

/**
 * gpt-oss's harmony format: `<|start|>assistant<|channel|>commentary to=functions.N <|constrain|>json<|message|>{…}<|call|>`
 * (the recipient may also stand before `<|channel|>`). A header without a recipient (analysis, final) is not a call.
 */
export const harmonyCall: CallFormat = {
  name: 'gpt-oss harmony',
  openers: ['<|start|>', '<|channel|>'],
  lineStartOnly: false,
  endsAtMarker: false,
  read: () => new HarmonyReader(),
  decide(text, closed, resolver) {
    const split = text.indexOf(MESSAGE);
    const name = RECIPIENT.exec(text.slice(0, split))?.[1];
    if (split === -1 || name === undefined) return null;
    let body = text.slice(split + MESSAGE.length);
    const end = ENDS.find((e) => body.endsWith(e));
    if (end !== undefined) body = body.slice(0, -end.length);
    else if (body.trim() !== '' && !isCompleteJson(body)) return 'cut-off';
    return namedCall(name, body, resolver);
  },
};

class HarmonyReader implements CallReader {
  private openers = [new LiteralMatch('<|start|>'), new LiteralMatch('<|channel|>')];
  private header = '';
  private readonly message = new MarkerWatch([MESSAGE]);
  private body: MarkerWatch | undefined;
  private opened = false;

  feed(c: string): ReadStep {
    if (this.body) return this.body.feed(c) === undefined ? 'more' : 'end';
    if (!this.opened) return this.open(c);
    this.header += c;
    if (this.message.feed(c) !== undefined) {
      if (!RECIPIENT.test(this.header)) return 'reject';
      this.body = new MarkerWatch(ENDS);
      return 'more';
    }
    return this.header.length > MAX_HEADER ? 'reject' : 'more';
  }

  skip(s: string, from: number): number {
    return this.body ? this.body.skip(s, from) : from;
  }

  private open(c: string): ReadStep {
    for (const opener of this.openers) {
      const step = opener.feed(c);
      if (step === 'done') this.opened = true;
      if (step === 'fail') this.openers = this.openers.filter((o) => o !== opener);
    }
    return this.opened || this.openers.length > 0 ? 'more' : 'reject';
  }
}
