/** A piece of content after splitting off leading thinking tags. */
export interface ContentPiece {
  kind: 'text' | 'reasoning';
  text: string;
}

/** Content pieces in order, each joined onto the one before it when both are of the same kind. */
export class JoinedPieces {
  readonly list: ContentPiece[] = [];

  add(kind: ContentPiece['kind'], text: string): void {
    const last = this.list.at(-1);
    if (last?.kind === kind) last.text += text;
    else this.list.push({ kind, text });
  }
}

const OPEN_TAGS = ['<think>', '<thinking>', '<reasoning>'] as const;

/**
 * gpt-oss's harmony channels written as text (a server that does not parse them): the analysis channel is its
 * thinking; the final channel's header and end marker are not part of the answer.
 */
const HARMONY_ANALYSIS = [
  '<|channel|>analysis<|message|>',
  '<|start|>assistant<|channel|>analysis<|message|>',
];
const HARMONY_END = '<|end|>';
const HARMONY_FINAL = ['<|start|>assistant<|channel|>final<|message|>', '<|channel|>final<|message|>'];
const HARMONY_RETURN = ['<|return|>', '<|end|>'];

/**
 * A message that called a tool in harmony tokens written as text (prompt mode, a server that does not parse them),
 * as the model wrote it: its analysis put back before the call, in the same tokens. OpenAI's harmony guide sends a
 * tool call's analysis back with it within the turn, and a server that passes the tokens through as text would not
 * render a separate thinking field. Undefined for any other message.
 */
export function harmonyAsWritten(reasoning: string, content: string): string | undefined {
  const call = content.trimStart();
  if (!call.startsWith('<|start|>assistant') && !call.startsWith('<|channel|>commentary')) return undefined;
  return `${HARMONY_ANALYSIS[0]}${reasoning}${HARMONY_END}${content}`;
}

/** Every way a message may start that is decided here (a tag, or a harmony header). */
const OPENERS: readonly string[] = [...OPEN_TAGS, ...HARMONY_ANALYSIS, ...HARMONY_FINAL];

/**
 * Incremental splitter for thinking in content: `<think>…</think>`, `<thinking>…</thinking>`
 * or `<reasoning>…</reasoning>` at the start of a message is reasoning, not answer text. Tags may be split across
 * chunks; whitespace inside is kept exactly. Whitespace before the opening tag is dropped; after the closing tag
 * everything (its whitespace too) is text. Once the message has started with anything else, content passes
 * through untouched, so a tag later in the answer (in a code block, say) stays text.
 */
export class ThinkTagSplitter {
  /** `final`: the answer of a harmony message, whose end marker is held back and dropped. */
  private state: 'start' | 'thinking' | 'text' | 'final' = 'start';
  private buffer = '';
  private closeTag = '';

  /** True once the message is known to be plain text from here on: callers may skip `push` (the hot path). */
  get passthrough(): boolean {
    return this.state === 'text';
  }

  /** Feeds one content delta; returns the pieces that are decided. */
  push(delta: string): ContentPiece[] {
    if (this.state === 'text') return delta ? [{ kind: 'text', text: delta }] : [];
    this.buffer += delta;
    if (this.state === 'final') return this.fromFinal();
    return this.state === 'start' ? this.fromStart() : this.fromThinking();
  }

  /** Call at the end of the message: whatever was held back is released. */
  flush(): ContentPiece[] {
    let rest = this.buffer;
    this.buffer = '';
    if (this.state === 'final')
      rest = HARMONY_RETURN.reduce((t, end) => (t.endsWith(end) ? t.slice(0, -end.length) : t), rest);
    if (!rest) return [];
    // An unclosed thinking block is all thinking; an undecided start was text.
    return [{ kind: this.state === 'thinking' ? 'reasoning' : 'text', text: rest }];
  }

  private fromStart(): ContentPiece[] {
    const body = this.buffer.trimStart();
    if (!body) return []; // only whitespace so far: undecided
    for (const tag of OPEN_TAGS) {
      if (body.startsWith(tag)) {
        this.state = 'thinking';
        this.closeTag = `</${tag.slice(1)}`;
        this.buffer = body.slice(tag.length);
        return this.fromThinking();
      }
    }
    const analysis = HARMONY_ANALYSIS.find((tag) => body.startsWith(tag));
    if (analysis) {
      this.state = 'thinking';
      this.closeTag = HARMONY_END;
      this.buffer = body.slice(analysis.length);
      return this.fromThinking();
    }
    const final = HARMONY_FINAL.find((tag) => body.startsWith(tag));
    if (final) {
      this.state = 'final';
      this.buffer = body.slice(final.length);
      return this.fromFinal();
    }
    if (OPENERS.some((tag) => tag.startsWith(body))) return []; // a tag may still be arriving
    this.state = 'text';
    const text = this.buffer;
    this.buffer = '';
    return [{ kind: 'text', text }];
  }

  private fromThinking(): ContentPiece[] {
    const end = this.buffer.indexOf(this.closeTag);
    if (end !== -1) {
      const pieces: ContentPiece[] = [];
      const reasoning = this.buffer.slice(0, end);
      const text = this.buffer.slice(end + this.closeTag.length);
      if (reasoning) pieces.push({ kind: 'reasoning', text: reasoning });
      this.buffer = '';
      if (this.closeTag === HARMONY_END) {
        // After the analysis comes the final channel (or a call): decided like the start of a message.
        this.state = 'start';
        return [...pieces, ...this.push(text)];
      }
      if (text) pieces.push({ kind: 'text', text });
      this.state = 'text';
      return pieces;
    }
    // Hold back only a tail that could be the start of the closing tag.
    const keep = partialSuffix(this.buffer, this.closeTag);
    const ready = this.buffer.slice(0, this.buffer.length - keep);
    this.buffer = this.buffer.slice(this.buffer.length - keep);
    return ready ? [{ kind: 'reasoning', text: ready }] : [];
  }

  /** The answer of a harmony final channel: all of it but a tail that may be its end marker (dropped at the end). */
  private fromFinal(): ContentPiece[] {
    const keep = Math.max(
      ...HARMONY_RETURN.map((end) =>
        this.buffer.endsWith(end) ? end.length : partialSuffix(this.buffer, end),
      ),
    );
    const ready = this.buffer.slice(0, this.buffer.length - keep);
    this.buffer = this.buffer.slice(this.buffer.length - keep);
    return ready ? [{ kind: 'text', text: ready }] : [];
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}
