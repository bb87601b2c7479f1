import type { CallFormat, CallReader, ReadStep } from './call-format.js';
import { LiteralMatch } from './scan.js';

/** The end-of-turn tokens models write as text after a call (Llama, Qwen, Phi, Gemma, DeepSeek). */
const TOKENS = [
  '<|eom_id|>',
  '<|eot_id|>',
  '<|im_end|>',
  '<|end|>',
  '<end_of_turn>',
  '<｜end▁of▁sentence｜>',
];

/** Read only right after a call: the token is dropped (an empty decision), never shown. */
export const endOfTurnToken: CallFormat = {
  name: 'end-of-turn token after a call',
  openers: TOKENS,
  lineStartOnly: false,
  endsAtMarker: false,
  read: () => new TokenReader(),
  decide: (_text, closed) => (closed ? [] : null),
};

class TokenReader implements CallReader {
  private tokens = TOKENS.map((t) => new LiteralMatch(t));

  feed(c: string): ReadStep {
    let done = false;
    this.tokens = this.tokens.filter((t) => {
      const step = t.feed(c);
      done ||= step === 'done';
      return step === 'more';
    });
    if (done) return 'end';
    return this.tokens.length > 0 ? 'more' : 'reject';
  }
}
