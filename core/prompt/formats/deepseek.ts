import type { FunctionCall } from '../function-call.js';
import type { CallFormat, CallReader, FormatDecision, ReadStep } from './call-format.js';
import { namedCall } from './read-calls.js';
import { LiteralMatch, MarkerWatch } from './scan.js';

// The markers, in the fullwidth form of DeepSeek's tokenizer; scan.ts also accepts `|` and `_` in them.
const CALLS_BEGIN = '<｜tool▁calls▁begin｜>';
const CALL_BEGIN = '<｜tool▁call▁begin｜>';
const CALLS_END = '<｜tool▁calls▁end｜>';
const CALL_END = '<｜tool▁call▁end｜>';
const marker = (name: string) => new RegExp(`<[｜|]tool[▁_]${name}[｜|]>`, 'g');

/**
 * DeepSeek V3 / R1 (`…begin｜>function<｜tool▁sep｜>N` then a ```` ```json ```` block) and V3.1+
 * (`…begin｜>N<｜tool▁sep｜>{args}`), each call inside `<｜tool▁call▁begin｜>…<｜tool▁call▁end｜>`, the list
 * inside `<｜tool▁calls▁begin｜>…<｜tool▁calls▁end｜>`.
 */
export const deepseekToolCalls: CallFormat = {
  name: 'DeepSeek <｜tool▁calls▁begin｜>',
  openers: [CALLS_BEGIN, CALL_BEGIN],
  lineStartOnly: false,
  endsAtMarker: true,
  read: () => new DeepSeekReader(),
  decide(text, closed, resolver): FormatDecision {
    const calls: FunctionCall[] = [];
    let found = 0;
    for (const part of text.split(marker('call[▁_]begin')).slice(1)) {
      const [body, after] = part.split(marker('call[▁_]end'));
      if (after === undefined) return closed ? null : 'cut-off';
      const [head = '', args = ''] = body?.split(marker('sep')) ?? [];
      // V3: `function<sep>N\n```json\n{…}\n````; V3.1: `N<sep>{…}`.
      const v3 =
        head.trim() === 'function' ? /^\s*([^\s`]+)\s*```(?:json)?\s*([\s\S]*?)```\s*$/.exec(args) : null;
      calls.push(...namedCall((v3 ? v3[1] : head.trim()) ?? '', (v3 ? v3[2] : args) ?? '', resolver));
      found++;
    }
    if (found === 0) return closed ? null : 'cut-off';
    return calls;
  },
};

class DeepSeekReader implements CallReader {
  private openers = [new LiteralMatch(CALLS_BEGIN), new LiteralMatch(CALL_BEGIN)];
  private close: MarkerWatch | undefined;

  skip(s: string, from: number): number {
    return this.close ? this.close.skip(s, from) : from;
  }

  feed(c: string): ReadStep {
    if (this.close) return this.close.feed(c) === undefined ? 'more' : 'end';
    for (const opener of this.openers) {
      const step = opener.feed(c);
      if (step === 'done') {
        // A single call without the list markers ends at its own end marker.
        this.close = new MarkerWatch(opener.text === CALLS_BEGIN ? [CALLS_END] : [CALL_END]);
        return 'more';
      }
      if (step === 'fail') this.openers = this.openers.filter((o) => o !== opener);
    }
    return this.openers.length > 0 ? 'more' : 'reject';
  }
}
