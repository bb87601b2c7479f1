import type { ChatStreamPart } from '../types/chat-stream.js';
import type { ContentPiece } from './think-tags.js';

/** What one call streamed, kept for the debug log of the response when `enabled`. */
export class AnswerLog {
  readonly text: string[] = [];
  readonly reasoning: string[] = [];

  /** Keeping every delta of a long answer costs memory and GC time: only when the response will be logged. */
  constructor(private readonly enabled: boolean) {}

  /** Records a split content piece and returns it as a stream part. */
  add(piece: ContentPiece): ChatStreamPart {
    if (piece.kind === 'text') return this.textPart(piece.text);
    return this.reasoningPart(piece.text);
  }

  textPart(text: string): ChatStreamPart {
    if (this.enabled) this.text.push(text);
    return { type: 'text-delta', text };
  }

  reasoningPart(text: string): ChatStreamPart {
    if (this.enabled) this.reasoning.push(text);
    return { type: 'reasoning-delta', text };
  }

  /** The assembled answer, for one debug line (text and reasoning only when enabled). */
  summary(extra: Record<string, unknown>): string {
    if (!this.enabled) return JSON.stringify({ ...extra, text: '(not kept)' });
    return JSON.stringify({ text: this.text.join(''), reasoning: this.reasoning.join(''), ...extra });
  }
}
